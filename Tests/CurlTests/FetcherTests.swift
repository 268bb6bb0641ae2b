import ClarissaCore
import ClarissaEngine
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// The real fetcher (libcurl) and the scheduler against a loopback HTTP server started here.
@Suite(.serialized) struct FetcherTests {
  static let feed = (try? Fixtures.bytes("http/feed.xml")) ?? []

  static func fetcher(timeout: Double = 5, maxBytes: Int = 1 << 20) -> CurlFetcher {
    CurlFetcher(limits: FetchLimits(timeout: timeout, maxBytes: maxBytes))
  }

  static func request(_ url: String) -> RequestSpec { RequestSpec(url: url, mode: "feed") }

  static func scheduler(
    _ fetcher: any Fetcher, delay: Double = 0, backoff: Double = 0.2
  ) -> RequestScheduler {
    var settings = SchedulerSettings(
      baseBackoff: backoff, blockCooldown: 3600, userAgent: "clarissa-test/1")
    settings.delayOverride = delay
    return RequestScheduler(fetcher: fetcher, settings: settings)
  }

  static let politeness = Politeness(
    minimumDelay: 0, jitter: 0, concurrencyPerHost: 1, minimumInterval: 60)

  static func job(_ url: String) -> FetchJob {
    FetchJob(search: "s", request: request(url), politeness: politeness)
  }

  @Test func aPlainAnswerWithTheUserAgent() async throws {
    let server = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let result = await Self.fetcher().fetch(
      Self.request(server.base + "/feed.xml"), headers: ["User-Agent": "clarissa-test/1"])
    let response = try result.get()
    #expect(response.status == 200)
    #expect(response.body == Self.feed)
    #expect(server.requests.first?.headers["user-agent"] == "clarissa-test/1")
  }

  @Test func gzipBodiesArriveDecompressed() async throws {
    let compressed = try Fixtures.bytes("http/feed.xml.gz")
    let server = try LoopbackServer { _, _ in
      .init(headers: ["Content-Encoding": "gzip"], body: compressed)
    }
    let response = try await Self.fetcher().fetch(
      Self.request(server.base + "/feed.xml"), headers: [:]
    ).get()
    #expect(response.body == Self.feed)
  }

  @Test func redirectsAreFollowedAndTheFinalURLKept() async throws {
    let server = try LoopbackServer { request, _ in
      request.path == "/old"
        ? .init(status: 302, headers: ["Location": "/new"]) : .init(body: Self.feed)
    }
    let response = try await Self.fetcher().fetch(Self.request(server.base + "/old"), headers: [:])
      .get()
    #expect(response.status == 200)
    #expect(response.finalURL == server.base + "/new")
  }

  @Test func aRedirectOutOfHTTPIsRefused() async throws {
    let server = try LoopbackServer { _, _ in
      .init(status: 302, headers: ["Location": "file:///etc/passwd"])
    }
    let result = await Self.fetcher().fetch(Self.request(server.base + "/old"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("a redirect to file:// must not be followed")
      return
    }
    #expect(error.message.contains("not http(s)"))
  }

  @Test func aCertificateNoAuthoritySignedIsRefused() async throws {
    // An https server on 127.0.0.1 with the self-signed pair in Fixtures/tls (Python's ssl).
    let folder = Fixtures.root.appendingPathComponent("tls")
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    server.arguments = [
      "python3", "-c",
      """
      import http.server, ssl, sys
      server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
      context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
      context.load_cert_chain(sys.argv[1], sys.argv[2])
      server.socket = context.wrap_socket(server.socket, server_side=True)
      print(server.server_address[1], flush=True)
      server.serve_forever()
      """,
      folder.appendingPathComponent("localhost.crt").path,
      folder.appendingPathComponent("localhost.key").path,
    ]
    let output = Pipe()
    server.standardOutput = output
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer {
      // SIGKILL: a child inherits the test process's ignored SIGTERM.
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
    let result = await Self.fetcher().fetch(
      Self.request("https://127.0.0.1:\(port)/"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("a self-signed certificate must not be trusted")
      return
    }
    #expect(error.message.hasPrefix("TLS failed"), "\(error.message)")
  }

  @Test func aPostCarriesItsBodyAndMethod() async throws {
    let server = try LoopbackServer { _, _ in .init(status: 204) }
    var request = Self.request(server.base + "/hook")
    request.method = "POST"
    request.body = Array("{\"a\":\"\u{0}b\"}".utf8)
    _ = try await Self.fetcher().fetch(request, headers: ["Content-Type": "application/json"]).get()
    let seen = try #require(server.requests.first)
    #expect(seen.method == "POST")
    #expect(seen.body == request.body)
    #expect(seen.headers["content-type"] == "application/json")
    #expect(seen.headers["expect"] == nil, "no 100-continue pause before a webhook's body")
  }

  @Test func cancellingAFetchEndsItAtOnce() async throws {
    let server = try LoopbackServer { _, _ in .init(hang: true) }
    let fetcher = Self.fetcher(timeout: 30)
    let request = Self.request(server.base + "/slow")
    let start = Date()
    let task = Task { await fetcher.fetch(request, headers: [:]) }
    try await Task.sleep(nanoseconds: 200_000_000)
    task.cancel()
    guard case .failure(let error) = await task.value else {
      Issue.record("a hanging server cannot answer")
      return
    }
    #expect(error.message.contains("cancelled"))
    #expect(Date().timeIntervalSince(start) < 2, "cancelled within a moment, not at the deadline")
  }

  @Test func aTricklingBodyIsStoppedAtTheDeadline() async throws {
    let server = try LoopbackServer { _, _ in
      .init(body: Self.feed, trickle: (bytes: 1, pause: 0.2))
    }
    let start = Date()
    let result = await Self.fetcher(timeout: 1).fetch(
      Self.request(server.base + "/slow"), headers: [:])
    let elapsed = Date().timeIntervalSince(start)
    guard case .failure(let error) = result else {
      Issue.record("a body trickling for 100 s must not be accepted")
      return
    }
    #expect(error.kind == .timeout)
    #expect(elapsed < 3, "stopped at the 1 s deadline, not after \(elapsed) s")
  }

  @Test func aServerThatNeverAnswersIsStoppedAtTheDeadline() async throws {
    let server = try LoopbackServer { _, _ in .init(hang: true) }
    let result = await Self.fetcher(timeout: 1).fetch(
      Self.request(server.base + "/hang"), headers: [:])
    guard case .failure(let error) = result else {
      Issue.record("no answer must be a failure")
      return
    }
    #expect(error.kind == .timeout)
  }

  @Test func anOversizedBodyIsRefused() async throws {
    let big = [UInt8](repeating: 0x61, count: 3 << 20)
    let server = try LoopbackServer { request, _ in
      // One answer announces its size; the other does not (chunks arrive until the cap).
      request.path == "/announced"
        ? .init(body: big) : .init(body: big, trickle: (bytes: 256 << 10, pause: 0))
    }
    for path in ["/announced", "/streamed"] {
      let result = await Self.fetcher(maxBytes: 1 << 20).fetch(
        Self.request(server.base + path), headers: [:])
      guard case .failure(let error) = result else {
        Issue.record("\(path): 3 MiB must not pass a 1 MiB cap")
        continue
      }
      #expect(error.kind == .tooLarge)
    }
  }

  @Test func aHostThatIsDownFailsWhileOthersAnswer() async throws {
    let server = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let down = "http://127.0.0.1:\(LoopbackServer.closedPort())/feed.xml"
    let (outcomes, _) = await Self.scheduler(Self.fetcher()).run(
      [Self.job(down), Self.job(server.base + "/feed.xml")], validators: [:], cooldowns: [:],
      now: Date())
    let byURL = Dictionary(uniqueKeysWithValues: outcomes.map { ($0.job.request.url, $0.status) })
    guard case .failed? = byURL[down],
      case .answered(let response)? = byURL[server.base + "/feed.xml"]
    else {
      Issue.record("expected one failure and one answer, got \(outcomes.map(\.status))")
      return
    }
    #expect(response.body == Self.feed)
  }

  @Test func tooManyRequestsIsRetriedAfterRetryAfter() async throws {
    let server = try LoopbackServer { _, before in
      before == 0 ? .init(status: 429, headers: ["Retry-After": "1"]) : .init(body: Self.feed)
    }
    let (outcomes, cooldowns) = await Self.scheduler(Self.fetcher()).run(
      [Self.job(server.base + "/feed.xml")], validators: [:], cooldowns: [:], now: Date())
    guard case .answered(let response) = outcomes[0].status else {
      Issue.record("expected an answer after the retry, got \(outcomes[0].status)")
      return
    }
    #expect(response.status == 200)
    #expect(outcomes[0].attempts == 2)
    #expect(cooldowns.isEmpty)
    let times = server.requests.map(\.arrived)
    #expect(times.count == 2)
    #expect(times[1].timeIntervalSince(times[0]) >= 0.95, "Retry-After: 1 was honoured")
  }

  @Test func serviceUnavailableBacksOffThenGivesUpWithACooldown() async throws {
    let server = try LoopbackServer { _, _ in .init(status: 503) }
    let (outcomes, cooldowns) = await Self.scheduler(Self.fetcher(), backoff: 0.1).run(
      [Self.job(server.base + "/feed.xml")], validators: [:], cooldowns: [:], now: Date())
    guard case .failed(let reason) = outcomes[0].status else {
      Issue.record("expected a failure, got \(outcomes[0].status)")
      return
    }
    #expect(reason.contains("503"))
    #expect(server.requests.count == 3, "three attempts")
    #expect(cooldowns["127.0.0.1:\(server.port)"] != nil)
  }

  @Test func forbiddenIsABlockThatSkipsTheRestOfTheHost() async throws {
    let server = try LoopbackServer { _, _ in
      .text("<h1>Your request has been blocked</h1>", status: 403)
    }
    let jobs = [Self.job(server.base + "/a"), Self.job(server.base + "/b")]
    let (outcomes, cooldowns) = await Self.scheduler(Self.fetcher()).run(
      jobs, validators: [:], cooldowns: [:], now: Date())
    guard case .blocked = outcomes[0].status, case .skipped = outcomes[1].status else {
      Issue.record("expected blocked then skipped, got \(outcomes.map(\.status))")
      return
    }
    #expect(server.requests.count == 1, "nothing more is sent to a host that blocked us")
    #expect(cooldowns["127.0.0.1:\(server.port)"] != nil)
    let (later, _) = await Self.scheduler(Self.fetcher()).run(
      jobs, validators: [:], cooldowns: cooldowns, now: Date())
    #expect(later.allSatisfy { if case .skipped = $0.status { true } else { false } })
    #expect(server.requests.count == 1, "the cool-down holds on the next run")
  }

  @Test func notModifiedWithTheStoredETag() async throws {
    let server = try LoopbackServer { request, _ in
      request.headers["if-none-match"] == "\"v1\""
        ? .init(status: 304) : .init(headers: ["ETag": "\"v1\""], body: Self.feed)
    }
    let url = server.base + "/feed.xml"
    let (first, _) = await Self.scheduler(Self.fetcher()).run(
      [Self.job(url)], validators: [:], cooldowns: [:], now: Date())
    let validators = try #require(first[0].validators)
    #expect(validators.etag == "\"v1\"")
    let (second, _) = await Self.scheduler(Self.fetcher()).run(
      [Self.job(url)], validators: [url: validators], cooldowns: [:], now: Date())
    guard case .notModified = second[0].status else {
      Issue.record("expected 304, got \(second[0].status)")
      return
    }
    #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")
  }

  @Test func requestsToOneHostAreSpacedAndOneAtATime() async throws {
    let server = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let jobs = (1...3).map { Self.job(server.base + "/feed\($0).xml") }
    _ = await Self.scheduler(Self.fetcher(), delay: 0.5).run(
      jobs, validators: [:], cooldowns: [:], now: Date())
    let times = server.requests.map(\.arrived).sorted()
    #expect(times.count == 3)
    for index in 1..<times.count {
      let gap = times[index].timeIntervalSince(times[index - 1])
      #expect(gap >= 0.45, "gap \(gap) s between requests to one host")
    }
  }

  @Test func differentHostsProceedInParallel() async throws {
    let slow = { @Sendable (_: LoopbackServer.Request, _: Int) -> LoopbackServer.Reply in
      Thread.sleep(forTimeInterval: 0.8)
      return .init(body: Self.feed)
    }
    let one = try LoopbackServer(handler: slow)
    let two = try LoopbackServer(handler: slow)
    let start = Date()
    _ = await Self.scheduler(Self.fetcher()).run(
      [Self.job(one.base + "/f"), Self.job(two.base + "/f")], validators: [:], cooldowns: [:],
      now: Date())
    #expect(Date().timeIntervalSince(start) < 1.5, "two hosts at once, not one after the other")
  }
}
