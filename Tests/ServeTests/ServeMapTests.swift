import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing
import WebServer

@testable import Geography
@testable import Serve

/// The map: `/api/map`'s markers (the list's filters, its bound, listings without coordinates
/// left out, hostile text), the page with and without Leaflet, and Leaflet's files served.
@Suite struct ServeMapTests {
  /// A small area in the Mission, named `name`.
  static func triangle(_ name: String) -> GeoArea {
    GeoArea(
      name: name,
      polygons: [
        GeoArea.Polygon(rings: [
          [
            Coordinates(latitude: 37.75, longitude: -122.43),
            Coordinates(latitude: 37.75, longitude: -122.40),
            Coordinates(latitude: 37.77, longitude: -122.40),
            Coordinates(latitude: 37.75, longitude: -122.43),
          ]
        ])
      ])
  }

  static func located(_ id: String, title: String, price: Double = 100) -> Listing {
    var listing = ServeFixture.listing(id, title: title, price: price, location: "Mission")
    let step = Double(Int(id) ?? 0).truncatingRemainder(dividingBy: 1000) / 10_000
    listing.coordinates = Coordinates(latitude: 37.7 + step, longitude: -122.4 - step)
    return listing
  }

  func markers(_ fixture: ServeFixture, _ target: String) throws -> [[String: Any]] {
    try #require(try data(fixture, target)["markers"] as? [[String: Any]])
  }

  func data(_ fixture: ServeFixture, _ target: String) throws -> [String: Any] {
    let response = fixture.get(target)
    #expect(response.status == 200, "\(target)")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
  }

  /// The markers' ids (their keys are `craigslist:ID`).
  func ids(_ markers: [[String: Any]]) -> Set<String> {
    Set(
      markers.compactMap {
        ($0["key"] as? String)?.replacingOccurrences(of: "craigslist:", with: "")
      })
  }

  @Test func theMarkersAreTheListingsWithCoordinatesThatTheFiltersFind() throws {
    var flat = Self.located("1", title: "Bright flat", price: 1_200)
    flat.rooms = 2.5
    flat.floorArea = 50
    flat.postcode = "10997"
    flat.address = "Wrangelstr. 5"
    let nowhere = ServeFixture.listing("2", title: "Bright room, no place", price: 500)
    let fixture = try ServeFixture(
      listings: [
        "flats": [flat, nowhere, Self.located("3", title: "Dark flat", price: 900)],
        "rooms": [Self.located("4", title: "Bright room", price: 400), flat],
      ])
    // Every search: a listing without coordinates is left out; one seen by two searches is one
    // marker naming both.
    let all = try markers(fixture, "/api/map")
    #expect(ids(all) == ["1", "3", "4"])
    let shared = try #require(all.first { $0["key"] as? String == "craigslist:1" })
    #expect(Set(shared["searches"] as? [String] ?? []) == ["flats", "rooms"])
    #expect(shared["facts"] as? String == "2.5 rooms · 50 m²")
    #expect(shared["place"] as? String == "10997 Wrangelstr. 5")
    #expect(shared["price"] as? String == "$1,200")
    #expect(shared["page"] as? String == "/listing/craigslist/1")
    #expect(shared["url"] as? String == "https://sfbay.craigslist.org/sfc/ele/d/1.html")
    let lat = try #require(shared["lat"] as? Double)
    let lon = try #require(shared["lon"] as? Double)
    #expect(abs(lat - 37.7001) < 1e-9 && abs(lon + 122.4001) < 1e-9)
    #expect(shared["state"] as? String == "unviewed")
    // The list's filters: search, price, words, site, unviewed.
    #expect(ids(try markers(fixture, "/api/map?search=flats")) == ["1", "3"])
    #expect(ids(try markers(fixture, "/api/map?max=1000")) == ["3", "4"])
    #expect(ids(try markers(fixture, "/api/map?q=bright")) == ["1", "4"])
    #expect(ids(try markers(fixture, "/api/map?site=kleinanzeigen")).isEmpty)
    try fixture.store.markViewed([ListingKey(site: "craigslist", id: "3")], at: fixture.now)
    #expect(ids(try markers(fixture, "/api/map?unviewed=1")) == ["1", "4"])
    let viewed = try markers(fixture, "/api/map?search=flats").first {
      $0["key"] as? String == "craigslist:3"
    }
    #expect(viewed?["state"] as? String == "viewed")
    #expect(fixture.get("/api/map?min=cheap").status == 400)
    // Room for the searches' places, empty until the config has them; no areas to fetch.
    let whole = try data(fixture, "/api/map")
    #expect((whole["places"] as? [Any])?.isEmpty == true && whole["areasAt"] == nil)
    #expect(whole["count"] as? Int == 3 && whole["more"] as? Bool == false)
  }

  /// The searches' `places:` and `within:` areas are drawn, and each marker and listing page
  /// says how far the listing is from its searches' places.
  @Test func placesAreasAndDistancesComeFromTheSearchesConfig() throws {
    let fixture = try ServeFixture(
      listings: [
        "flats": [Self.located("1", title: "Flat")], "rooms": [Self.located("2", title: "Room")],
      ])
    let work = NamedPlace(
      name: "work", coordinates: Coordinates(latitude: 37.7749, longitude: -122.4194))
    let square = Self.triangle("areas/mission.geojson")
    var served = fixture.app.config
    let flats = try #require(served.searches.firstIndex { $0.name == "flats" })
    served.searches[flats].places = [work]
    served.searches[flats].areas = [square]
    fixture.app.config = served
    let flatsData = try data(fixture, "/api/map?search=flats")
    let places = try #require(flatsData["places"] as? [[String: Any]])
    #expect(places.count == 1 && places.first?["name"] as? String == "work")
    #expect(places.first?["lat"] as? Double == 37.7749)
    let areasAt = try #require(flatsData["areasAt"] as? String)
    #expect(areasAt.hasPrefix("/api/map/areas?search=flats&v="))
    let areas = try #require(try data(fixture, areasAt)["areas"] as? [[String: Any]])
    #expect(areas.first?["name"] as? String == "areas/mission.geojson")
    // GeoJSON's order: [longitude, latitude].
    let ring = (areas.first?["polygons"] as? [[[[Double]]]])?.first?.first
    #expect(ring?.first == [-122.43, 37.75])
    // The marker of a search with places says how far; the other search's does not.
    let flat = try #require(
      try markers(fixture, "/api/map").first { $0["key"] as? String == "craigslist:1" })
    let expected = try #require(
      ListingFacts.distances(Self.located("1", title: "Flat"), from: [work]))
    #expect(flat["distances"] as? String == expected)
    #expect(expected.hasSuffix(" km from work"))
    let room = try #require(
      try markers(fixture, "/api/map").first { $0["key"] as? String == "craigslist:2" })
    #expect(room["distances"] == nil)
    #expect(try (data(fixture, "/api/map?search=rooms")["places"] as? [Any])?.isEmpty == true)
    #expect(try data(fixture, "/api/map?search=rooms")["areasAt"] == nil)
    // The listing's page says it too.
    let page = fixture.text(fixture.get("/listing/craigslist/1"))
    #expect(page.contains("<dt>distance</dt><dd>\(expected)</dd>"), "\(page)")
  }

  /// An area of a million corners was 21.7 MB on every load of the map: it comes apart, once
  /// (tagged, kept by the browser), cut to what a screen shows.
  @Test func bigAreasAreSentOnceAndSimplified() throws {
    let fixture = try ServeFixture(listings: ["flats": [Self.located("1", title: "Flat")]])
    // A wobbly circle of 999,000 corners around San Francisco, closed.
    let count = 999_000
    var ring = (0..<count).map { index -> Coordinates in
      let angle = Double(index) / Double(count) * 2 * .pi
      let radius = 0.05 * (1 + 0.1 * sin(angle * 40))
      return Coordinates(
        latitude: 37.75 + radius * sin(angle), longitude: -122.43 + radius * cos(angle))
    }
    ring.append(ring[0])
    let whole = GeoArea(name: "areas/big.geojson", polygons: [GeoArea.Polygon(rings: [ring])])
    var served = fixture.app.config
    served.searches[0].areas = [whole]
    fixture.app.config = served
    let map = fixture.get("/api/map?search=flats")
    #expect(map.body.count < 2_000, "\(map.body.count) bytes: no area in it")
    let at = try #require(try data(fixture, "/api/map?search=flats")["areasAt"] as? String)
    let first = fixture.get(at)
    #expect(first.status == 200)
    #expect(fixture.header(first, "Cache-Control") == "private, max-age=31536000, immutable")
    let tag = try #require(fixture.header(first, "ETag"))
    #expect(at.hasSuffix("v=" + tag.replacingOccurrences(of: "\"", with: "")))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(first.body)) as? [String: Any])
    let polygons = try #require(
      (object["areas"] as? [[String: Any]])?.first?["polygons"] as? [[[[Double]]]])
    let kept = try #require(polygons.first?.first)
    #expect(kept.count > 1_000 && kept.count <= MapAreas.vertexBudget, "\(kept.count) corners")
    #expect(kept.first == kept.last, "still closed")
    // The outline is still the area's: its extent within some metres.
    let lats = kept.map { $0[1] }
    let lons = kept.map { $0[0] }
    #expect(abs((lats.max() ?? 0) - (ring.map(\.latitude).max() ?? 0)) < 1e-4)
    #expect(abs((lons.min() ?? 0) - (ring.map(\.longitude).min() ?? 0)) < 1e-4)
    #expect(first.body.count < 200_000, "\(first.body.count) bytes")
    // Asked again with its tag: nothing sent; without the tag, revalidated each time.
    let again = fixture.get(at, headers: [("if-none-match", tag)])
    #expect(again.status == 304 && again.body.isEmpty)
    let untagged = fixture.get("/api/map/areas?search=flats")
    #expect(fixture.header(untagged, "Cache-Control") == "private, no-cache")
    #expect(untagged.body == first.body)
    print(
      "a \(count + 1)-corner area: /api/map \(map.body.count) bytes, areas \(first.body.count) bytes once, then 304"
    )
  }

  @Test func aPriceDropColoursItsMarker() throws {
    var desk = Self.located("42", title: "Oak desk", price: 120)
    let fixture = try ServeFixture(listings: ["desks": [desk]])
    desk.price = 90
    try fixture.store.record(
      SearchRecord(
        search: "desks", now: fixture.now.addingTimeInterval(300), seen: [desk], reached: true))
    let marker = try #require(try markers(fixture, "/api/map").first)
    #expect(marker["state"] as? String == "drop")
    #expect(marker["drop"] as? Int == -25)
    #expect(marker["price"] as? String == "$90")
  }

  @Test func theMarkersAreBoundedNewestFirst() throws {
    let count = 10_050
    let listings = (0..<count).map { Self.located(String(100_000 + $0), title: "Desk \($0)") }
    let fixture = try ServeFixture(listings: ["desks": listings])
    let whole = try data(fixture, "/api/map")
    let found = try #require(whole["markers"] as? [[String: Any]])
    #expect(found.count == 10_000 && whole["count"] as? Int == 10_000)
    #expect(whole["limit"] as? Int == 10_000 && whole["more"] as? Bool == true)
    #expect(ids(found).count == 10_000)
    // Beneath the bound, all of them and no more.
    let some = try data(fixture, "/api/map?max=100&q=desk+1")
    #expect(some["more"] as? Bool == false)
  }

  @Test func hostileTextStaysTextAndHostileAddressesAreNotLinked() throws {
    var hostile = Self.located("666", title: "<script>alert(1)</script>Desk")
    hostile.url = "javascript:alert(2)"
    hostile.imageURLs = ["javascript:alert(3)", "https://images.example/1.jpg"]
    hostile.address = "\"><img src=x onerror=alert(4)>"
    let fixture = try ServeFixture(listings: ["desks": [hostile]])
    let marker = try #require(try markers(fixture, "/api/map").first)
    #expect(marker["title"] as? String == "<script>alert(1)</script>Desk")
    #expect(marker["place"] as? String == "\"><img src=x onerror=alert(4)>")
    #expect(marker["url"] == nil, "a javascript: address is not linked")
    #expect(marker["photo"] as? String == "https://images.example/1.jpg")
    let response = fixture.get("/api/map")
    #expect(fixture.header(response, "Content-Type") == "application/json")
    #expect(fixture.header(response, "X-Content-Type-Options") == "nosniff")
    // The page itself holds nothing of the listings: the script puts them in as text.
    let page = fixture.text(fixture.get("/map?q=%3Cscript%3E"))
    #expect(!page.contains("<script>alert") && !page.contains("onerror=alert"))
    #expect(page.contains("value=\"&lt;script&gt;\""))
  }

  @Test func withoutLeafletTheMapPageSaysWhatToInstallAndTheRestWorks() throws {
    let empty = FileManager.default.temporaryDirectory
      .appendingPathComponent("no-leaflet-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: empty) }
    let fixture = try ServeFixture(
      map: MapSettings(leafletFolder: empty.path),
      listings: ["desks": [Self.located("1", title: "Desk")]])
    let page = fixture.get("/map?search=desks")
    #expect(page.status == 200)
    let text = fixture.text(page)
    #expect(text.contains("apt-get install libjs-leaflet libjs-leaflet.markercluster"))
    #expect(text.contains("\(empty.path) lacks leaflet.css, MarkerCluster.css"))
    #expect(!text.contains("id=\"map\"") && !text.contains("/assets/leaflet/leaflet.js"))
    #expect(text.contains("href=\"/listings?search=desks\""), "the list is a link away")
    let script = fixture.get("/assets/leaflet/leaflet.js")
    #expect(script.status == 404)
    #expect(
      fixture.text(script).contains("apt-get install libjs-leaflet libjs-leaflet.markercluster"))
    #expect(fixture.get("/listings?search=desks").status == 200)
    #expect(fixture.get("/api/map").status == 200)
  }

  /// Debian's packages, which `.ci/run` installs (a machine without them skips; CI must run it).
  static var leafletInstalled: Bool {
    FileManager.default.fileExists(atPath: MapSettings.debianLeaflet + "/leaflet.markercluster.js")
      && FileManager.default.fileExists(atPath: MapSettings.debianLeaflet + "/leaflet.js")
  }

  @Test(
    .enabled(
      if: leafletInstalled || TestTools.underCI,
      "Debian's libjs-leaflet and libjs-leaflet.markercluster are not installed"))
  func debiansLeafletIsServedByNameAndNothingElse() throws {
    let fixture = try ServeFixture(listings: ["desks": [Self.located("1", title: "Desk")]])
    let page = fixture.get("/map?search=desks&max=500")
    let text = fixture.text(page)
    #expect(text.contains("<script src=\"/assets/leaflet/leaflet.markercluster.js\" defer>"))
    #expect(text.contains("data-api=\"/api/map?search=desks&amp;max=500.0\""))
    #expect(text.contains("data-tiles=\"https://tile.openstreetmap.org/{z}/{x}/{y}.png\""))
    #expect(text.contains("www.openstreetmap.org/copyright"))
    let script = fixture.get("/assets/leaflet/leaflet.js")
    #expect(script.status == 200 && fixture.header(script, "Content-Type") == "text/javascript")
    let file = try Data(contentsOf: URL(fileURLWithPath: MapSettings.debianLeaflet + "/leaflet.js"))
    #expect(script.body == Array(file))
    #expect(fixture.get("/assets/leaflet/images/marker-icon.png").status == 200)
    for target in [
      "/assets/leaflet/../../../../etc/passwd", "/assets/leaflet/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "/assets/leaflet/..%2F..%2F..%2Fetc%2Fpasswd", "/assets/leaflet/leaflet.js.map",
      "/assets/leaflet/images/../leaflet.js", "/assets/leaflet//etc/passwd",
    ] {
      #expect(fixture.get(target).status == 404, "\(target)")
    }
  }

  @Test func theMapsHeadersAllowTheTilesAndNothingMore() throws {
    let fixture = try ServeFixture(listings: ["desks": [Self.located("1", title: "Desk")]])
    let map = fixture.get("/map")
    let list = fixture.get("/listings")
    let policy = try #require(fixture.header(map, "Content-Security-Policy"))
    // Tiles are images, which every page may load from anywhere (the sites' photos); scripts,
    // styles and requests stay on this server.
    #expect(policy == fixture.header(list, "Content-Security-Policy"))
    #expect(policy.contains("img-src * data:") && policy.contains("script-src 'self';"))
    #expect(policy.contains("connect-src 'self';"))
    // A tile server is told the page's origin (OpenStreetMap's policy asks for a Referer).
    #expect(fixture.header(map, "Referrer-Policy") == "strict-origin-when-cross-origin")
    #expect(map.headers.filter { $0.name == "Referrer-Policy" }.count == 1)
    #expect(fixture.header(list, "Referrer-Policy") == "same-origin")
  }

  @Test func theListAndTheMapLinkToEachOtherWithTheSameFilters() throws {
    var flat = Self.located("7", title: "Flat")
    flat.rooms = 3
    flat.bedrooms = 2
    flat.bathrooms = 1.5
    flat.floorArea = 92.9
    flat.floorAreaUnit = .squareFeet
    flat.postcode = "94110"
    flat.facts = ["pets": "cats ok", "<b>floor</b>": "3 & up"]
    let fixture = try ServeFixture(
      listings: ["flats": [flat, ServeFixture.listing("8", title: "Unplaced")]])
    let list = fixture.text(fixture.get("/listings?search=flats&max=900&unviewed=1"))
    #expect(list.contains("href=\"/map?search=flats&amp;max=900.0&amp;unviewed=1\""))
    let map = fixture.text(fixture.get("/map?search=flats&max=900&unviewed=1"))
    #expect(
      map.contains("id=\"as-list\" href=\"/listings?search=flats&amp;max=900.0&amp;unviewed=1\""))
    #expect(map.contains("<form method=\"get\" action=\"/map\""))
    #expect(fixture.text(fixture.get("/")).contains("href=\"/map?search=flats\""))
    // A listing's page: its facts, its other facts as a table, and "on the map".
    let page = fixture.text(fixture.get("/listing/craigslist/7"))
    #expect(page.contains("<dt>rooms</dt><dd>3</dd><dt>bedrooms</dt><dd>2</dd>"))
    #expect(page.contains("<dt>bathrooms</dt><dd>1.5</dd><dt>floor area</dt><dd>1000 ft²</dd>"))
    #expect(page.contains("<dt>postcode</dt><dd>94110</dd>"))
    #expect(page.contains("<th scope=\"row\">&lt;b&gt;floor&lt;/b&gt;</th><td>3 &amp; up</td>"))
    #expect(page.contains("<th scope=\"row\">pets</th><td>cats ok</td>"))
    #expect(page.contains("href=\"/map?focus=craigslist%3A7\">on the map</a>"))
    let unplaced = fixture.text(fixture.get("/listing/craigslist/8"))
    #expect(!unplaced.contains("on the map") && !unplaced.contains("other-facts"))
    // The focus reaches the map's script, checked as a key (the map, and so its script, needs
    // Debian's Leaflet: without it the page says what to install, tested above).
    if Self.leafletInstalled || TestTools.underCI {
      #expect(
        fixture.text(fixture.get("/map?focus=craigslist%3A7"))
          .contains("data-focus=\"craigslist:7\""))
    }
  }

  @Test(
    arguments: [
      ("https://tile.openstreetmap.org/{z}/{x}/{y}.png", nil),
      ("http://127.0.0.1:8080/tiles/{z}/{x}/{y}.png", nil),
      ("https://{s}.tile.example/{z}/{x}/{y}@2x.png", nil),
      ("ftp://tiles.example/{z}/{x}/{y}.png", "is not an http: or https: address"),
      ("javascript:alert(1)//{z}{x}{y}", "is not an http: or https: address"),
      ("https://tiles.example/{z}/{x}.png", "does not name {y}"),
      ("https://tiles.example/{z}/{x}/{y}.png\" onload=\"x", "holds a space, a quote"),
    ] as [(String, String?)])
  func tileTemplatesAreChecked(template: String, problem: String?) {
    let found = MapSettings.problem(tiles: template)
    if let problem {
      #expect(found?.contains(problem) == true, "\(found ?? "none")")
    } else {
      #expect(found == nil)
    }
  }

  /// Whole prices are grouped without a NumberFormatter (the map words 10,000): as it does.
  @Test(arguments: [0, 7, 999, 1_000, 12_345, 999_999, 1_234_567, -1_234, 987_654_321_012])
  func wholePricesAreWordedAsTheFormatterWordsThem(amount: Double) {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    formatter.locale = Locale(identifier: "en_US")
    formatter.maximumFractionDigits = 0
    let expected = formatter.string(from: NSNumber(value: amount)) ?? ""
    #expect(Money.format(amount, "USD") == "$" + expected)
    #expect(Money.format(amount, "CHF") == expected + " CHF")
  }

  /// Addresses the markers' photos and links are checked with: the shortcut for plain ones
  /// agrees with the URL parser.
  @Test(arguments: [
    "https://images.craigslist.org/00h0h_4wHIC8zOZOa_600x450.jpg",
    "https://sfbay.craigslist.org/sfc/ele/d/san-francisco-apple/7915891289.html",
    "http://127.0.0.1:8080/tiles/1/2/3.png", "https://a.example/x?y=1&z=(2)#f",
    "javascript:alert(1)", "https://", "http:///path", "https://:80/", "https://-a.example/",
    "HTTPS://A.EXAMPLE/", "https://a b.example/", "https://a.example/%zz", "https://user@host/",
    "https://[::1]:8080/", "https://é.example/", "ftp://a.example/", "https://a.example/\n",
  ])
  func webAddressesAreCheckedAsTheParserChecksThem(text: String) {
    let parsed = URL(string: text).flatMap { url -> String? in
      guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
        url.host != nil
      else { return nil }
      return text
    }
    #expect(WebApp.webURL(text) == parsed, "\(text)")
  }
}
