import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

/// The map page's script, run by node against a loopback server: what it hands Leaflet as the
/// places' and areas' tooltips is text (Leaflet takes a string for HTML).
@Suite struct ServeMapScriptTests {
  static let hostile = "<img src=x onerror=alert(1)>"

  @Test func placeAndAreaNamesAreShownAsText() throws {
    guard let node = TestTools.path("node") else {
      #expect(!TestTools.underCI, "node is needed to run the map's script")
      return
    }
    let fixture = try ServeFixture(
      listings: ["flats": [ServeMapTests.located("1", title: "Flat")]])
    var served = fixture.app.config
    served.searches[0].places = [
      NamedPlace(
        name: Self.hostile, coordinates: Coordinates(latitude: 37.77, longitude: -122.41))
    ]
    served.searches[0].areas = [ServeMapTests.triangle("<b onmouseover=alert(2)>area</b>")]
    fixture.app.config = served
    let app = fixture.app
    let server = try HTTPServer(address: "127.0.0.1:0") { app.handle($0) }
    server.start()
    defer { server.stop() }
    let outcome = try TestTools.run(
      URL(fileURLWithPath: node),
      [
        Fixtures.root.appendingPathComponent("serve/map-harness.js").path,
        "http://127.0.0.1:\(server.port)",
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
      "\(outcome.stdout) \(outcome.stderr)")
    let tooltips = try #require(report["tooltips"] as? [[String: String]])
    #expect(
      tooltips == [
        ["tag": "span", "text": Self.hostile],
        ["tag": "span", "text": "<b onmouseover=alert(2)>area</b>"],
      ], "\(tooltips)")
    #expect((report["html"] as? [String])?.isEmpty == true, "nothing set as HTML")
    #expect(report["places"] as? String == "1" && report["areas"] as? String == "1")
  }

  /// The harness's report of the map's script run against `app`'s server; nil without node.
  static func harness(_ app: WebApp) throws -> [String: Any]? {
    guard let node = TestTools.path("node") else {
      #expect(!TestTools.underCI, "node is needed to run the map's script")
      return nil
    }
    let server = try HTTPServer(address: "127.0.0.1:0") { app.handle($0) }
    server.start()
    defer { server.stop() }
    let outcome = try TestTools.run(
      URL(fileURLWithPath: node),
      [
        Fixtures.root.appendingPathComponent("serve/map-harness.js").path,
        "http://127.0.0.1:\(server.port)",
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any],
      "\(outcome.stdout) \(outcome.stderr)")
  }

  /// The class the script must give a listing of `minutes` against a `max` of 30: within at
  /// most 0.8 x max, near the limit at most max, beyond above it, unknown without a time.
  static func expectedClass(_ id: String) -> String {
    guard let known = ServeCommuteTests.minutes[id], let minutes = known else { return "unknown" }
    let shown = Double(max(1, Int(minutes.rounded())))
    return shown <= 0.8 * 30 ? "within" : shown <= 30 ? "near" : "beyond"
  }

  @Test func markersAreColouredByTheCommuteLimitWithALegendAndTheListSortsByTravelTime() throws {
    let fixture = try ServeCommuteTests.fixture()
    guard let report = try Self.harness(fixture.app) else { return }
    let markers = try #require(report["markers"] as? [[String: String]])
    #expect(markers.count == 7)
    for marker in markers {
      let id = String((marker["title"] ?? "").dropFirst("Flat ".count))
      #expect(marker["icon"] == "pin pin-" + Self.expectedClass(id), "\(marker)")
    }
    // within: 10 and 24 (= 0.8 x 30); near: 25 and 30; beyond: 31; unknown: no route, none.
    let legend = try #require(report["legend"] as? [[String: String]])
    #expect(
      legend.map { $0["text"] ?? "" } == [
        "within 24 min by transit to work (2)", "near the limit (24 min to 30 min) (2)",
        "beyond 30 min (1)", "travel time unknown (2)",
        "Listings without coordinates are only in the list.",
      ], "\(legend)")
    #expect(legend.first?["className"] == "legend-within")
    let travel = try #require(report["travel"] as? [String])
    #expect(
      Array(travel.prefix(5))
        == ["craigslist:1", "craigslist:2", "craigslist:3", "craigslist:4", "craigslist:5"],
      "shortest first: \(travel)")
    #expect(Set(travel.suffix(2)) == ["craigslist:6", "craigslist:7"], "the unknown last")
    let newest = try #require(report["newest"] as? [String])
    #expect(Set(newest) == Set(travel) && newest.count == 7)
    let cards = try #require(report["cards"] as? [[String: String]])
    let first = try #require(cards.first)
    #expect(first["className"] == "map-card commute-within")
    #expect(first["text"]?.contains("10 min by transit to work") == true, "\(first)")
    // The near: circle in the place's colour, and the label naming the radius (as text).
    let circles = try #require(report["circles"] as? [[String: Any]])
    #expect(circles.count == 1 && circles.first?["radius"] as? Double == 3_000)
    #expect(circles.first?["color"] as? String == "#5b2a86")
    let labels = try #require(report["labels"] as? [[String: String]])
    #expect(labels == [["tag": "span", "text": "work · 3 km"]])
    #expect((report["html"] as? [String])?.isEmpty == true, "nothing set as HTML")
  }
}
