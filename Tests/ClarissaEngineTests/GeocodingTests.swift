import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing

@testable import ClarissaEngine

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
      ["Nowhere 1, 10997"], retryingBefore: now.addingTimeInterval(1))
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
        ["Nowhere 1, 10997", "Wrangelstr. 5, 10997"], retryingBefore: .distantPast
      ).isEmpty)
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
