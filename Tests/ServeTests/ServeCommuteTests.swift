import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

/// Travel times and `near:` circles where distances are: the map's data (`commute` with each
/// search's `max`, `near`, `limits`), the cards, and the stand-in file `.ci/browser` serves.
@Suite struct ServeCommuteTests {
  static let work = NamedPlace(
    name: "work", coordinates: Coordinates(latitude: 37.7, longitude: -122.4))
  static let limit = CommuteLimit(place: work, mode: .transit, maxMinutes: 30)
  /// Each listing's minutes to work by transit (nil: the engine found no route); listing 7 has
  /// none at all.
  static let minutes: [String: Double?] = [
    "1": 10, "2": 24, "3": 24.6, "4": 30, "5": 31.2, "6": nil,
  ]

  /// The times of ``minutes`` for `limits`, as the run's commute stage would attach them.
  static let times = TravelTimes { listings, limits, _ in
    for index in listings.indices {
      guard let known = minutes[listings[index].id] else { continue }
      listings[index].commute = limits.map {
        CommuteTime(
          place: $0.place.name, by: $0.mode, minutes: known, note: known == nil ? "no route" : nil)
      }
    }
  }

  /// Seven flats in one search with `near: {work: 3 km}` and `commute: {work: {by: transit,
  /// max: 30 min}}`, the third with rooms and a floor area.
  static func fixture() throws -> ServeFixture {
    var flats = (1...7).map { ServeMapTests.located("\($0)", title: "Flat \($0)") }
    flats[2].rooms = 2
    flats[2].floorArea = 54
    let fixture = try ServeFixture(travelTimes: times, listings: ["flats": flats])
    var served = fixture.app.config
    served.searches[0].places = [work]
    served.searches[0].near = [PlaceRadius(place: work, radius: Distance(3, .kilometres))]
    served.searches[0].commute = [limit]
    fixture.app.config = served
    return fixture
  }

  @Test func theMapDataCarriesEachMarkersTravelTimeWithItsLimitAndTheNearCircles() throws {
    let fixture = try Self.fixture()
    let data = try ServeMapTests().data(fixture, "/api/map?search=flats")
    let markers = try #require(data["markers"] as? [[String: Any]])
    #expect(markers.count == 7)
    for marker in markers {
      let id = (marker["key"] as? String ?? "").replacingOccurrences(of: "craigslist:", with: "")
      let commute = marker["commute"] as? [[String: Any]]
      guard let known = Self.minutes[id] else {
        #expect(commute == nil, "listing \(id) has no time")
        continue
      }
      let time = try #require(commute?.first)
      #expect(commute?.count == 1)
      #expect(time["place"] as? String == "work" && time["by"] as? String == "transit")
      #expect(time["max"] as? Double == 30)
      // Whole minutes, as shown; null when unknown.
      let shown = known.map { max(1, Int($0.rounded())) }
      #expect(time["minutes"] as? Int == shown, "\(id): \(time)")
      #expect(
        time["words"] as? String
          == (shown.map { "\($0) min by transit to work" }
            ?? "travel time to work by transit unknown (no route)"))
    }
    let near = try #require(data["near"] as? [[String: Any]])
    #expect(near.count == 1)
    #expect(near.first?["name"] as? String == "work" && near.first?["radius"] as? Double == 3_000)
    #expect(near.first?["words"] as? String == "3 km")
    let limits = try #require(data["limits"] as? [[String: Any]])
    #expect(limits.count == 1 && limits.first?["max"] as? Double == 30)
    #expect(
      limits.first?["by"] as? String == "transit" && limits.first?["place"] as? String == "work")
  }

  @Test func aSearchWithoutLimitsHasNoTravelTimesOnTheMap() throws {
    let fixture = try ServeFixture(
      travelTimes: Self.times, listings: ["flats": [ServeMapTests.located("1", title: "Flat")]])
    let data = try ServeMapTests().data(fixture, "/api/map")
    let markers = try #require(data["markers"] as? [[String: Any]])
    #expect(markers.first?["commute"] == nil, "no limit: the times are not asked")
    #expect(
      (data["near"] as? [Any])?.isEmpty == true && (data["limits"] as? [Any])?.isEmpty == true)
  }

  @Test func theCardsShowRoomsAreaDistanceAndTravelTime() throws {
    let fixture = try Self.fixture()
    let page = fixture.text(fixture.get("/listings?search=flats"))
    let cards = page.components(separatedBy: "<article class=\"card").dropFirst()
    #expect(cards.count == 7)
    let third = try #require(cards.first { $0.contains("data-key=\"craigslist:3\"") })
    #expect(third.contains("<div class=\"card-facts\">2 rooms · 54 m²</div>"), "\(third)")
    #expect(third.contains("<div class=\"card-commute\">25 min by transit to work</div>"))
    // 0.0003° north and west of work (ServeMapTests.located): 40 m at 37.7°N.
    let distance = Self.work.coordinates.distance(
      to: Coordinates(latitude: 37.7003, longitude: -122.4003))
    #expect(distance.words(in: .kilometres) == "40 m")
    #expect(
      third.contains(
        "<div class=\"card-distances\">\(distance.words(in: .kilometres)) from work</div>"))
    let seventh = try #require(cards.first { $0.contains("data-key=\"craigslist:7\"") })
    #expect(!seventh.contains("card-commute"), "no time, no line")
  }

  /// `serve`'s own filling: the engine's answers the store keeps (the run's commute stage
  /// writes them), read back by `CommuteLookup` for the map and the listing's page.
  @Test func thePagesReadTheTimesTheStoreKeeps() throws {
    let fixture = try Self.fixture()
    let engine = RoutingEngine(
      kind: .motis, url: "http://127.0.0.1:8080", depart: Departure(weekday: 1, minutes: 510))
    // Listings 1-4 share a grid cell (37.700, -122.400), 6 and 7 the next one north-west.
    let cells = [
      CommuteGrid.key(Coordinates(latitude: 37.7001, longitude: -122.4001)): 18.4,
      CommuteGrid.key(Coordinates(latitude: 37.7006, longitude: -122.4006)): 33.0,
    ]
    try fixture.store.rememberTravelTimes(
      engine: engine.cacheName, mode: .transit,
      place: CommuteGrid.placeKey(Self.work.coordinates), cells, at: fixture.now)
    var served = fixture.app.config
    served.routing = RoutingSettings(engines: [.transit: engine])
    let store = fixture.store
    let app = WebApp(
      store: store, config: served, access: WebApp.Access(token: nil, hosts: []),
      travelTimes: TravelTimes { listings, limits, routing in
        try CommuteLookup.attach(&listings, limits: limits, routing: routing, memory: store)
      }, clock: { fixture.now.addingTimeInterval(600) })
    let map = app.handle(WebRequest(method: "GET", target: "/api/map?search=flats"))
    let data = try #require(
      try JSONSerialization.jsonObject(with: Data(map.body)) as? [String: Any])
    let markers = try #require(data["markers"] as? [[String: Any]])
    var minutes: [String: Int] = [:]
    for marker in markers {
      let times = marker["commute"] as? [[String: Any]]
      minutes[marker["key"] as? String ?? ""] = times?.first?["minutes"] as? Int
    }
    #expect(minutes["craigslist:1"] == 18 && minutes["craigslist:4"] == 18, "\(minutes)")
    #expect(minutes["craigslist:6"] == 33 && minutes["craigslist:7"] == 33, "\(minutes)")
    let page = String(
      decoding: app.handle(WebRequest(method: "GET", target: "/listing/craigslist/6")).body,
      as: UTF8.self)
    #expect(page.contains("33 min by transit to work"), "the listing's page reads the store too")
  }
}
