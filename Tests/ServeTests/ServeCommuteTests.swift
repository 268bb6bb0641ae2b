import ClarissaCore
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
  static let times = TravelTimes { listings, limits in
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

  @Test func theRecordedFileGivesEachListingItsLimitsTimesInTheirOrderAndItsSearchesLimits() throws
  {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("travel-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data(
      """
      {"times": {"craigslist:1": [{"place": "gym", "by": "bike", "minutes": 12},
                                  {"place": "work", "by": "transit", "minutes": 24}],
                 "craigslist:2": [{"place": "work", "by": "car", "minutes": 9}]},
       "limits": {"flats": [{"place": "work", "by": "transit", "max": 30},
                            {"place": "nowhere", "by": "car", "max": 10}]}}
      """.utf8
    ).write(to: file)
    let recorded = try TravelTimes.Recorded.read(file: file.path)
    #expect(recorded.limits(of: "flats", places: [Self.work]) == [Self.limit], "no place, no limit")
    #expect(recorded.limits(of: "rooms", places: [Self.work]).isEmpty)
    let times = recorded.travelTimes
    let gym = NamedPlace(name: "gym", coordinates: Coordinates(latitude: 37.8, longitude: -122.4))
    var listings = ["1", "2", "3"].map { ServeFixture.listing($0, title: "Flat") }
    try times.attach(
      &listings, [Self.limit, CommuteLimit(place: gym, mode: .bike, maxMinutes: 20)])
    #expect(listings[0].commuteWords == "24 min by transit to work · 12 min by bike to gym")
    #expect(listings[1].commute.isEmpty, "by car is not a limit's mode")
    #expect(listings[2].commute.isEmpty)
  }
}
