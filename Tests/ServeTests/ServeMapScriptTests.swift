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
}
