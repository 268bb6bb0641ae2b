import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing

@testable import ClarissaEngine
@testable import Curl

/// The optional geocoder (`geocoder:`): asked over HTTP (a loopback server that answers as
/// Nominatim does) for listings with an address and no coordinates, one request per `delay`,
/// each answer kept in the store so that an address is asked once.
@Suite struct GeocodingTests {
  /// A listing with an address (and a postcode) but no coordinates.
  static func addressed(_ id: String, _ address: String?, postcode: String? = "10997")
    -> Listing
  {
    var listing = Listing(id: id, site: "feed", url: "https://example.org/\(id)", title: id)
    listing.address = address
    listing.postcode = postcode
    return listing
  }

  static func reading(_ listings: [Listing]) -> SearchReading {
    var reading = SearchReading()
    reading.batches = [SourceBatch(url: "https://example.org/feed", listings: listings)]
    return reading
  }

  /// A server answering as Nominatim: Wrangelstr. found, anything else not.
  static func nominatim() throws -> LoopbackServer {
    try LoopbackServer { request, _ in
      let query = URLComponents(string: request.path)?.queryItems ?? []
      let q = query.first { $0.name == "q" }?.value ?? ""
      guard q.hasPrefix("Wrangelstr. 5") else { return .text("[]") }
      return .text(#"[{"place_id": 1, "lat": "52.4989", "lon": "13.4407", "name": "x"}]"#)
    }
  }

  static func store() throws -> ListingStore {
    let path = RunnerTests.temporaryState()
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    return try ListingStore.open(path: path, readOnly: false)
  }

  @Test func anAddressIsAskedOnceAndItsAnswerKept() async throws {
    let server = try Self.nominatim()
    let store = try Self.store()
    let settings = GeocoderSettings(url: server.base + "/search", email: "me@example.org")
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let geocoding = Geocoding(
      settings: settings, fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      userAgent: "clarissa-test", timeout: 10)
    let listings = [
      Self.addressed("a", "Wrangelstr. 5"), Self.addressed("b", "Nowhere 1"),
      Self.addressed("c", "Wrangelstr. 5"),  // the same address: one request
      Self.addressed("d", nil, postcode: nil),  // nothing to ask
    ]
    let located = await geocoding.locate(
      Self.reading(listings), memory: store, now: now, asking: true)
    let found = located.batches[0].listings
    #expect(found[0].coordinates == Coordinates(latitude: 52.4989, longitude: 13.4407))
    #expect(found[2].coordinates == found[0].coordinates)
    #expect(found[1].coordinates == nil)
    #expect(found[3].coordinates == nil)
    let requests = server.requests
    #expect(requests.count == 2, "\(requests.map(\.path))")
    let first = try #require(requests.first)
    #expect(first.path.contains("q=Nowhere%201,%2010997") || first.path.contains("q=Nowhere"))
    #expect(first.path.contains("format=jsonv2") && first.path.contains("limit=1"))
    #expect(first.path.contains("email=me@example.org"))
    #expect(first.headers["user-agent"] == "clarissa-test")
    // One request a second: Nominatim's policy.
    if requests.count == 2 {
      #expect(requests[1].arrived.timeIntervalSince(requests[0].arrived) >= 0.95)
    }
    // Kept in the store: a second run asks nothing, found or not found.
    let again = await Geocoding(
      settings: settings, fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      userAgent: "clarissa-test", timeout: 10
    ).locate(Self.reading(listings), memory: store, now: now.addingTimeInterval(60), asking: true)
    #expect(again.batches[0].listings[0].coordinates == found[0].coordinates)
    #expect(server.requests.count == 2)
    // Not found is asked again only after `retry_not_found`.
    let later = try store.geocodes(
      ["Nowhere 1, 10997"], geocoder: settings.url, retryingBefore: now.addingTimeInterval(1))
    #expect(later.isEmpty)
  }

  @Test func aRunAsksAtMostPerRunAndADryRunAsksNothing() async throws {
    let server = try Self.nominatim()
    let store = try Self.store()
    var settings = GeocoderSettings(url: server.base + "/search")
    settings.perRun = 1
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20))
    let listings = [Self.addressed("a", "Wrangelstr. 5"), Self.addressed("b", "Nowhere 1")]
    let dry = await Geocoding(settings: settings, fetcher: fetcher, userAgent: "t", timeout: 10)
      .locate(Self.reading(listings), memory: store, now: Date(), asking: false)
    #expect(server.requests.isEmpty)
    #expect(dry.notes.isEmpty)
    let capped = await Geocoding(settings: settings, fetcher: fetcher, userAgent: "t", timeout: 10)
      .locate(Self.reading(listings), memory: store, now: Date(), asking: true)
    #expect(server.requests.count == 1)
    #expect(capped.notes == ["geocoder: 1 address waits for the next run (geocoder.per_run 1)"])
  }

  @Test func aFailingGeocoderIsNotAskedAgainInTheRun() async throws {
    let server = try LoopbackServer { _, _ in .text("slow down", status: 429) }
    let store = try Self.store()
    let settings = GeocoderSettings(url: server.base + "/search")
    let listings = [Self.addressed("a", "Wrangelstr. 5"), Self.addressed("b", "Nowhere 1")]
    let located = await Geocoding(
      settings: settings, fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      userAgent: "t", timeout: 10
    ).locate(Self.reading(listings), memory: store, now: Date(), asking: true)
    #expect(server.requests.count == 1)
    #expect(located.notes.count == 1)
    #expect(located.notes.first?.contains("answered HTTP 429; not asked again in this run") == true)
    // Nothing kept: asked again next run.
    #expect(
      try store.geocodes(
        ["Nowhere 1, 10997", "Wrangelstr. 5, 10997"], geocoder: settings.url,
        retryingBefore: .distantPast
      ).isEmpty)
  }

  /// A geocoder that refuses one address (HTTP 400 for "Aachener"), finds "...str." and
  /// nothing else.
  static func refusing() throws -> LoopbackServer {
    try LoopbackServer { request, _ in
      let query = URLComponents(string: request.path)?.queryItems ?? []
      let q = query.first { $0.name == "q" }?.value ?? ""
      if q.hasPrefix("Aachener") { return .text(#"{"error": "bad query"}"#, status: 400) }
      guard q.contains("str.") else { return .text("[]") }
      return .text(#"[{"lat": "52.4989", "lon": "13.4407"}]"#)
    }
  }

  static func fast(_ url: String) -> GeocoderSettings {
    GeocoderSettings(url: url, delay: Interval(milliseconds: 10))
  }

  static func geocoding(_ settings: GeocoderSettings) -> Geocoding {
    Geocoding(
      settings: settings, fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      userAgent: "t", timeout: 10)
  }

  /// The asked addresses, in order.
  static func asked(_ server: LoopbackServer) -> [String] {
    server.requests.map {
      (URLComponents(string: $0.path)?.queryItems ?? []).first { $0.name == "q" }?.value ?? ""
    }
  }

  /// One refused address (sorted first) neither stops the others, in this run or the next,
  /// nor is asked again before its back-off (an hour, then two); it is kept with why.
  @Test func aRefusedAddressWaitsForItsBackOffAndTheOthersAreAsked() async throws {
    let server = try Self.refusing()
    let store = try Self.store()
    let settings = Self.fast(server.base + "/search")
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let first = [
      Self.addressed("a", "Aachener 1"), Self.addressed("b", "Wrangelstr. 5"),
      Self.addressed("c", "Oranienstr. 9"),
    ]
    let one = await Self.geocoding(settings).locate(
      Self.reading(first), memory: store, now: now, asking: true)
    #expect(
      Self.asked(server) == ["Aachener 1, 10997", "Oranienstr. 9, 10997", "Wrangelstr. 5, 10997"])
    #expect(one.batches[0].listings.map { $0.coordinates != nil } == [false, true, true])
    #expect(one.notes.count == 1)
    #expect(one.notes.first?.contains("an address failed: 'Aachener 1, 10997'") == true)
    #expect(
      one.notes.first?.contains("answered HTTP 400; asked again in 1 h") == true, "\(one.notes)")
    let kept = try #require(
      try store.geocodes(["Aachener 1, 10997"], geocoder: settings.url, retryingBefore: now)
        .values.first)
    #expect(kept.failures == 1 && kept.coordinates == nil)
    #expect(kept.retryAt == now.addingTimeInterval(3_600))
    // The next run, ten minutes on, with a new address: the refused one is not asked.
    let second = first + [Self.addressed("d", "Zossener str. 3")]
    let two = await Self.geocoding(settings).locate(
      Self.reading(second), memory: store, now: now.addingTimeInterval(600), asking: true)
    #expect(Self.asked(server).count == 4)
    #expect(Self.asked(server).last == "Zossener str. 3, 10997")
    #expect(two.batches[0].listings.map { $0.coordinates != nil } == [false, true, true, true])
    #expect(two.notes == ["geocoder: 1 address that failed before waits for its back-off"])
    // Past its back-off it is asked again, after the addresses never asked, and refused again:
    // two hours now.
    let third = second + [Self.addressed("e", "Bergmannstr. 1")]
    let later = now.addingTimeInterval(3_700)
    _ = await Self.geocoding(settings).locate(
      Self.reading(third), memory: store, now: later, asking: true)
    #expect(Array(Self.asked(server).suffix(2)) == ["Bergmannstr. 1, 10997", "Aachener 1, 10997"])
    let again = try #require(
      try store.geocodes(["Aachener 1, 10997"], geocoder: settings.url, retryingBefore: later)
        .values.first)
    #expect(again.failures == 2 && again.retryAt == later.addingTimeInterval(7_200))
  }

  /// A geocoder that fails on every address (HTTP 503) is paused for the run after three
  /// failures in a row; the addresses it failed on wait for their back-off.
  @Test func aBrokenGeocoderIsPausedAfterFailuresInARow() async throws {
    let server = try LoopbackServer { _, _ in .text("down", status: 503) }
    let store = try Self.store()
    let settings = Self.fast(server.base + "/search")
    let listings = (1...5).map { Self.addressed("\($0)", "Wrangelstr. \($0)") }
    let located = await Self.geocoding(settings).locate(
      Self.reading(listings), memory: store, now: Date(), asking: true)
    #expect(server.requests.count == Geocoding.failuresToPause)
    #expect(
      located.notes.contains {
        $0.hasSuffix("answered HTTP 503 (3 failures in a row); not asked again in this run")
      }, "\(located.notes)")
    #expect(located.notes.contains { $0.hasPrefix("geocoder: 3 addresses failed: ") })
  }

  /// Answers are kept per geocoder: another geocoder (another URL) asks again.
  @Test func anotherGeocoderDoesNotReuseTheAnswers() async throws {
    let server = try Self.nominatim()
    let store = try Self.store()
    let listings = [Self.addressed("a", "Wrangelstr. 5")]
    let now = Date()
    for url in [server.base + "/search", server.base + "/search", server.base + "/other"] {
      _ = await Self.geocoding(Self.fast(url)).locate(
        Self.reading(listings), memory: store, now: now, asking: true)
    }
    #expect(server.requests.map(\.path).map { $0.hasPrefix("/other") } == [false, true])
  }

  /// `explain` places a listing by the geocoder's answer the store holds, as the run does
  /// (before, it said "no coordinates" and dropped it where the run kept it); it asks nothing.
  @Test func explainPlacesAListingByTheStoresAnswerAsTheRunDoes() async throws {
    let server = try Self.nominatim()
    let geocoder = server.base + "/search"
    let config = try RunnerTests.config(
      """
      version: 1
      geocoder: \(geocoder)
      places:
        work: [52.4990, 13.4410]
      searches:
        - name: flats
          cities: [berlin]
          near: {work: 1 km}
          missing: drop
      """)
    let store = try Self.store()
    let state = store.path
    let address = Self.addressed("a", "Wrangelstr. 5")
    try store.rememberGeocode(
      "Wrangelstr. 5, 10997", geocoder: geocoder,
      Geocode(
        coordinates: Coordinates(latitude: 52.4989, longitude: 13.4407), askedAt: Date()))
    let runner = try RunnerTests.runner(config, replay: "default", state: state)
    let explained = try await runner.explain(search: "flats", listings: [address], now: Date())
    let entry = try #require(explained.entries.first)
    #expect(entry.accepted, "\(entry.reason)")
    #expect(entry.reason.contains("from work ≤ 1 km"), "\(entry.reason)")
    #expect(server.requests.isEmpty)
  }

  /// The search's line says what the geocoder left undone, as the JSON report does.
  @Test func theSearchsLineShowsTheGeocodersNotes() {
    let outcome = RunResult.SearchOutcome(
      name: "flats", status: .ran,
      notes: ["geocoder: 2 addresses wait for the next run (geocoder.per_run 30)", "other"])
    let result = RunResult(time: Date(), searches: [outcome], dryRun: false)
    let text = RunReport.text(result, colored: false)
    #expect(text.contains("flats: geocoder: 2 addresses wait for the next run"))
  }

  @Test(arguments: [
    (#"[]"#, "none"),
    (#"[{"lat": "52.5", "lon": "13.4"}]"#, "52.5,13.4"),
    (#"[{"lat": 52.5, "lon": 13.4}]"#, "52.5,13.4"),
    (#"[{"lat": "91", "lon": "13.4"}]"#, "failure"),
    (#"[{"lat": "1e400", "lon": "13.4"}]"#, "failure"),
    (#"[{"lat": "nan", "lon": "13.4"}]"#, "failure"),
    (#"{"error": "Unable to geocode"}"#, "failure"),
    (#"<html>busy</html>"#, "failure"),
    (#"[{"lon": "13.4"}]"#, "failure"),
  ])
  func answersAreCheckedBeforeTheyAreBelieved(body: String, expected: String) {
    let shown: String =
      switch Geocoding.place(Array(body.utf8)) {
      case .success(nil): "none"
      case .success(let place?): "\(place.latitude),\(place.longitude)"
      case .failure: "failure"
      }
    #expect(shown == expected)
  }

  @Test func theConfigNamesAGeocoderByURLOrMapping() throws {
    #expect(try RunnerTests.config().geocoder == nil, "none by default")
    let short = try RunnerTests.config(
      "version: 1\ngeocoder: https://nominatim.openstreetmap.org/search\n"
        + "searches:\n  - name: a\n    cities: [sfbay]\n")
    #expect(short.geocoder == GeocoderSettings(url: "https://nominatim.openstreetmap.org/search"))
    let long = try RunnerTests.config(
      "version: 1\ngeocoder:\n  url: http://127.0.0.1:7070/search\n  per_run: 5\n"
        + "  delay: 2s\n  retry_not_found: 7d\nsearches:\n  - name: a\n    cities: [sfbay]\n")
    #expect(long.geocoder?.perRun == 5)
    #expect(long.geocoder?.delay == .seconds(2))
    #expect(long.geocoder?.retryNotFound == .days(7))
  }

  @Test func theQueryIsEncodedAndTheEndpointsOwnParametersKept() throws {
    let settings = GeocoderSettings(url: "https://geo.example.org/search?countrycodes=de")
    let url = try #require(Geocoding.url(settings, "Müller & Söhne +5, 10997"))
    let items = URLComponents(string: url)?.queryItems ?? []
    #expect(items.first { $0.name == "countrycodes" }?.value == "de")
    #expect(items.first { $0.name == "q" }?.value == "Müller & Söhne +5, 10997")
    #expect(Geocoding.url(GeocoderSettings(url: "ftp://geo.example.org"), "x") == nil)
  }
}
