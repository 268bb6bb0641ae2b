import ClarissaCore
import FixtureSupport
import Foundation
import Serve
import Testing
import WebServer

@testable import ListingStore

/// The pages' and the API's data: counts, filters, viewed marks, health, metrics, the server.
@Suite struct ServeDataTests {
  static func listings(_ count: Int, from first: Int = 0) -> [Listing] {
    (first..<(first + count)).map { (number: Int) -> Listing in
      let title = number % 2 == 0 ? "Oak desk \(number)" : "Pine chair \(number)"
      return ServeFixture.listing(
        String(7_000_000 + number), title: title, price: Double(10 * number))
    }
  }

  func json(_ fixture: ServeFixture, _ target: String) throws -> Any {
    let response = fixture.get(target)
    #expect(response.status == 200, "\(target)")
    return try JSONSerialization.jsonObject(with: Data(response.body))
  }

  func unviewed(_ fixture: ServeFixture) throws -> [String: Int] {
    let rows = try #require(try json(fixture, "/api/searches") as? [[String: Any]])
    return Dictionary(
      uniqueKeysWithValues: rows.compactMap { row in
        (row["name"] as? String).flatMap { name in (row["unviewed"] as? Int).map { (name, $0) } }
      })
  }

  @Test func countsFiltersAndViewedMarksAgreeWithTheStore() throws {
    let fixture = try ServeFixture(
      listings: ["desks": Self.listings(60), "chairs": Self.listings(10, from: 55)])
    #expect(try unviewed(fixture) == ["desks": 60, "chairs": 10])
    // A page holds 48; the next has the rest.
    let first = try #require(try json(fixture, "/api/listings?search=desks") as? [String: Any])
    #expect((first["listings"] as? [Any])?.count == 48)
    #expect(first["more"] as? Bool == true)
    let second = try #require(
      try json(fixture, "/api/listings?search=desks&page=2") as? [String: Any])
    #expect((second["listings"] as? [Any])?.count == 12)
    // Filters: price, words, site.
    let cheap = try #require(
      try json(fixture, "/api/listings?search=desks&max=100&q=oak") as? [String: Any])
    let titles = (cheap["listings"] as? [[String: Any]])?.compactMap {
      ($0["listing"] as? [String: Any])?["title"] as? String
    }
    #expect(Set(titles ?? []) == Set((0...10).filter { $0 % 2 == 0 }.map { "Oak desk \($0)" }))
    #expect(fixture.get("/api/listings?min=abc").status == 400)
    #expect(
      fixture.text(fixture.get("/api/listings?min=abc")).contains("min: 'abc' is not a number"))
    // Opening one (shared by both searches) marks it viewed for both.
    let csrf = fixture.csrf()
    #expect(fixture.post("/open/craigslist/7000056", form: "csrf=\(csrf)").status == 303)
    #expect(try unviewed(fixture) == ["desks": 59, "chairs": 9])
    // Mark all viewed, with a filter: only what it finds.
    let marked = fixture.post(
      "/viewed", form: "csrf=\(csrf)&all=1&search=desks&q=pine&return=%2Flistings")
    #expect(marked.status == 303)
    #expect(fixture.header(marked, "Location") == "/listings")
    // Pine chairs are the odd numbers: 30 in desks, 55, 57 and 59 of them in chairs too.
    #expect(try unviewed(fixture) == ["desks": 29, "chairs": 6])
    let left = try #require(
      try json(fixture, "/api/listings?search=desks&unviewed=1") as? [String: Any])
    #expect((left["listings"] as? [[String: Any]])?.allSatisfy { $0["viewedAt"] == nil } == true)
    #expect((left["listings"] as? [Any])?.count == 29)
    // The API's own mark, with the token from /api/session.
    let api = fixture.app.handle(
      WebRequest(
        method: "POST", target: "/api/viewed", headers: [("x-csrf-token", csrf)],
        body: Array("{\"keys\":[\"craigslist:7000000\",\"craigslist:7000002\"]}".utf8)))
    #expect(fixture.text(api).contains("\"marked\" : 2"))
    #expect(try unviewed(fixture) == ["desks": 27, "chairs": 6])
    // The triggers' counts are what a recount finds.
    #expect(try fixture.store.check().isEmpty)
    // The pages say the same.
    let page = fixture.text(fixture.get("/"))
    #expect(page.contains("27 unviewed") && page.contains("6 unviewed"))
    let cards = fixture.text(fixture.get("/listings?search=chairs"))
    #expect(cards.components(separatedBy: "class=\"card unviewed\"").count - 1 == 6)
    #expect(cards.components(separatedBy: "class=\"card viewed\"").count - 1 == 4)
  }

  @Test func theCountOfUnviewedFollowsPruneAndForget() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.listings(20)])
    try fixture.store.markViewed([ListingKey(site: "craigslist", id: "7000001")], at: fixture.now)
    // Everything is older than a day: prune forgets it all.
    _ = try fixture.store.prune(now: fixture.now.addingTimeInterval(3 * 86_400), retention: 86_400)
    #expect(try fixture.store.standings()["desks"]?.unviewed == 0)
    #expect(try fixture.store.check().isEmpty)
  }

  @Test func aListingsPageShowsItsPricesPlaceAndMap() throws {
    var desk = ServeFixture.listing("42", title: "Oak desk", price: 120, location: "Mission")
    desk.coordinates = Coordinates(latitude: 37.76, longitude: -122.42)
    let fixture = try ServeFixture(listings: ["desks": [desk]])
    desk.price = 90
    try fixture.store.record(
      SearchRecord(
        search: "desks", now: fixture.now.addingTimeInterval(300), seen: [desk], reached: true))
    let page = fixture.text(fixture.get("/listing/craigslist/42"))
    #expect(page.contains("$120 → <span class=\"drop\">$90</span>"))
    #expect(
      page.contains(
        "https://www.openstreetmap.org/?mlat=37.76000&amp;mlon=-122.42000#map=16/37.76000/-122.42000"
      ))
    #expect(page.contains("Mission"))
    let cards = fixture.text(fixture.get("/listings"))
    #expect(cards.contains("price drop -25%"))
    #expect(fixture.get("/listing/craigslist/404").status == 404)
  }

  @Test func healthSaysTheStoreAnswers() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.listings(2)])
    let health = try #require(try json(fixture, "/healthz") as? [String: Any])
    #expect(health["status"] as? String == "ok")
    #expect((health["store"] as? [String: Any])?["schemaVersion"] as? Int == StoreSchema.current)
    #expect(health["lastAttempt"] as? String == "2026-09-21T14:13:20Z")
  }

  /// Python's prometheus-client, which `.ci/run` installs in `.build/venv` (a machine set up by
  /// the README alone skips this test; CI must run it).
  static var prometheusClient: String? { TestTools.python(importing: "prometheus_client") }

  @Test(
    .enabled(
      if: prometheusClient != nil || TestTools.underCI,
      "no python3 with prometheus-client (.ci/run installs it in .build/venv)"))
  func metricsAreReadByPrometheusOwnParser() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.listings(3)])
    var result = RunResult(
      time: fixture.now,
      searches: [
        RunResult.SearchOutcome(
          name: "desks \"oak\"", status: .ran, new: Self.listings(2), held: 0, delivered: [],
          fetched: 5, matched: 2, failures: [], notes: [])
      ], blocks: [], deliveryFailures: [], dryRun: false)
    var host = RunResult.HostTally()
    host.requests = 4
    host.failures = 1
    host.notModified = 2
    result.hosts = ["sfbay.craigslist.org": host]
    var channel = RunResult.ChannelTally()
    channel.delivered = 2
    channel.failed = 3
    result.channels = ["phone": channel]
    fixture.app.metrics.record(result, seconds: 1.5, finished: fixture.now)
    fixture.app.metrics.record(result, seconds: 0.2, finished: fixture.now)
    try fixture.store.setCooldown(
      Cooldown(until: fixture.now.addingTimeInterval(3600), reason: "403"), host: "blocked.example")
    let response = fixture.get("/metrics")
    #expect(
      fixture.header(response, "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
    let file = fixture.folder.appendingPathComponent("metrics.txt")
    try Data(response.body).write(to: file)
    // The virtual environment's python first: .ci/run installs prometheus-client there.
    let python = try #require(Self.prometheusClient, "python3 with prometheus-client")
    let script = """
      import json, sys
      from prometheus_client.parser import text_string_to_metric_families
      samples = {}
      for family in text_string_to_metric_families(open(sys.argv[1]).read()):
          for s in family.samples:
              key = s.name + json.dumps(s.labels, sort_keys=True)
              samples[key] = s.value
          samples["type:" + family.name] = family.type
      print(json.dumps(samples))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["-c", script, file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "prometheus_client could not parse /metrics")
    let samples = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    func value(_ key: String) -> Double? { samples[key] as? Double }
    #expect(value("clarissa_runs_total{}") == 2)
    #expect(samples["type:clarissa_runs"] as? String == "counter")
    #expect(value("clarissa_requests_total{\"host\": \"sfbay.craigslist.org\"}") == 8)
    #expect(value("clarissa_request_failures_total{\"host\": \"sfbay.craigslist.org\"}") == 2)
    #expect(
      value("clarissa_listings_total{\"event\": \"new\", \"search\": \"desks \\\"oak\\\"\"}") == 4)
    #expect(value("clarissa_deliveries_total{\"channel\": \"phone\"}") == 4)
    #expect(value("clarissa_delivery_failures_total{\"channel\": \"phone\"}") == 6)
    #expect(value("clarissa_round_duration_seconds_count{}") == 2)
    #expect(value("clarissa_round_duration_seconds_bucket{\"le\": \"0.5\"}") == 1)
    #expect(value("clarissa_cooldowns{}") == 1)
    #expect(value("clarissa_unviewed_listings{\"search\": \"desks\"}") == 3)
  }

  @Test func theServerKeepsConnectionsAliveAndHoldsItsLimits() throws {
    let server = try HTTPServer(address: "127.0.0.1:0") { request in
      .text("\(request.method) \(request.path) \(request.body.count)\n")
    }
    defer { server.stop() }
    server.start()
    let port = server.port
    // Two requests on one connection (pipelined), the second closing it.
    let both = try RawHTTP.exchange(
      port: port,
      "GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b%20c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc"
    )
    #expect(both.contains("GET /a 0\n") && both.contains("POST /b c 3\n"))
    #expect(both.components(separatedBy: "HTTP/1.1 200").count == 3)
    let huge = try RawHTTP.exchange(
      port: port,
      "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n")
    #expect(huge.hasPrefix("HTTP/1.1 431"))
    let chunked = try RawHTTP.exchange(
      port: port,
      "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
    #expect(chunked.hasPrefix("HTTP/1.1 501"))
    let tooLong = try RawHTTP.exchange(
      port: port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")
    #expect(tooLong.hasPrefix("HTTP/1.1 413"))
    let garbage = try RawHTTP.exchange(port: port, "HELLO\r\n\r\n")
    #expect(garbage.hasPrefix("HTTP/1.1 400"))
    let head = try RawHTTP.exchange(
      port: port, "HEAD /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    #expect(
      head.hasPrefix("HTTP/1.1 200") && head.contains("Content-Length: 9\r\n")
        && head.hasSuffix("\r\n\r\n"))
    #expect(throws: ServerProblem.self) { try HTTPServer(address: "8421") { _ in .text("") } }
  }
}
