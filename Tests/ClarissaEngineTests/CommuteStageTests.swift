import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing

@testable import ClarissaEngine
@testable import Curl

/// The run's commute stage (``Commuting``) against a loopback OSRM (``LoopbackOSRM``): 500
/// listings around Berlin Hauptbahnhof cost a handful of requests on the first run, none on
/// the second (the store's cache) and none for the listings beyond the straight-line bound; a
/// run's cap leaves the rest for the next run, a dry run asks nothing, and a failing engine
/// leaves every time unknown, with a note, and nothing guessed.
@Suite(.serialized) struct CommuteStageTests {
  /// Berlin Hauptbahnhof.
  static let station = NamedPlace(
    name: "work", coordinates: Coordinates(latitude: 52.5251, longitude: 13.3694))
  /// 20 minutes by car: 40 km in a straight line at the mode's 120 km/h.
  static let limit = CommuteLimit(place: station, mode: .car, maxMinutes: 20)
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  /// A position `kilometres` from the station at `degrees` from north (a flat-earth step,
  /// exact enough at this scale; the tests measure what they use with the haversine).
  static func position(kilometres: Double, degrees: Double) -> Coordinates {
    let radians = degrees * .pi / 180
    let north = kilometres * cos(radians) / 111.32
    let east =
      kilometres * sin(radians) / (111.32 * cos(station.coordinates.latitude * .pi / 180))
    return Coordinates(
      latitude: station.coordinates.latitude + north,
      longitude: station.coordinates.longitude + east)
  }

  /// 500 listings: 420 on 350 positions spread over 25 km around the station (a golden-angle
  /// spiral; 70 positions hold a second flat of the same building), and 80 between 45 and
  /// 85 km away, beyond the limit's 40 km.
  static func listings() -> [Listing] {
    let near = (0..<350).map { index in
      position(kilometres: 25 * (Double(index) / 350).squareRoot(), degrees: Double(index) * 137.5)
    }
    let far = (0..<80).map { index in
      position(kilometres: 45 + Double(index) / 2, degrees: Double(index) * 137.5)
    }
    let places = near + near.prefix(70) + far
    return places.enumerated().map { index, place in
      Listing(
        id: "\(index)", site: "feed", url: "https://example.org/\(index)", title: "Flat \(index)",
        price: 900, coordinates: place)
    }
  }

  static func reading(_ listings: [Listing]) -> SearchReading {
    // Two sources, as a search's answers come: the stage keeps each listing in its batch.
    SearchReading(batches: [
      SourceBatch(url: "https://example.org/a", listings: Array(listings.prefix(300))),
      SourceBatch(url: "https://example.org/b", listings: Array(listings.dropFirst(300))),
    ])
  }

  static func commuting(_ engine: RoutingEngine) -> Commuting {
    Commuting(
      routing: RoutingSettings(engines: [.car: engine]),
      fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 21)),
      userAgent: "clarissa-test", timeout: 10, timeZone: .gmt)
  }

  static func engine(_ osrm: LoopbackOSRM, perRun: Int = 20) -> RoutingEngine {
    RoutingEngine(
      kind: .osrm, url: osrm.base, profile: "driving", perRun: perRun,
      delay: Interval(milliseconds: 0))
  }

  /// The minutes the loopback's rule gives from the listing's grid cell to the station, as
  /// OSRM answers them (seconds to one decimal), computed here.
  static func expectedMinutes(_ listing: Listing) -> Double? {
    guard let at = listing.coordinates else { return nil }
    let cell = CommuteGrid.cell(at)
    guard LoopbackRoutingRule.connected(cell, station.coordinates) else { return nil }
    let seconds =
      LoopbackRoutingRule.metres(cell, station.coordinates) / LoopbackRoutingRule.speed(.car)
    return (seconds * 10).rounded() / 10 / 60
  }

  /// The cells within the straight-line bound: what the engine must be asked, once each.
  static func cellsWithinReach(_ listings: [Listing]) -> Set<String> {
    Set(
      listings.compactMap { listing in
        guard let here = listing.coordinates else { return nil }
        let metres = station.coordinates.distance(to: here).metres
        return metres <= 40_000 ? CommuteGrid.key(here) : nil
      })
  }

  @Test func fiveHundredListingsCostAHandfulOfRequestsThenNoneFromTheCache() async throws {
    let osrm = try LoopbackOSRM()
    let store = try GeocodingTests.store()
    let listings = Self.listings()
    let cells = Self.cellsWithinReach(listings)
    #expect(cells.count == 350, "one cell per building")
    let first = await Self.commuting(Self.engine(osrm)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    // 350 cells, 100 a request; the 80 beyond 40 km and the 70 second flats cost nothing.
    #expect(osrm.requests == 4)
    #expect(osrm.homesPerRequest == [100, 100, 100, 50])
    #expect(first.notes.isEmpty, "\(first.notes)")
    #expect(first.batches.map(\.listings.count) == [300, 200])
    let timed = first.batches.flatMap(\.listings)
    #expect(timed.map(\.id) == listings.map(\.id))
    for (listing, given) in zip(listings, timed) {
      let time = try #require(given.commute.first)
      #expect(given.commute.count == 1 && time.place == "work" && time.by == .car)
      let at = try #require(listing.coordinates)
      if cells.contains(CommuteGrid.key(at)) {
        let expected = try #require(Self.expectedMinutes(listing))
        #expect(abs((time.minutes ?? -1) - expected) < 0.002, "\(listing.id)")
        #expect(time.note == nil)
      } else {
        #expect(time.minutes == nil && time.note == "beyond 40 km in a straight line")
      }
    }
    // The next run reads every time from the store: no request.
    let second = await Self.commuting(Self.engine(osrm)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store,
      now: Self.now.addingTimeInterval(3_600), asking: true)
    #expect(osrm.requests == 4)
    #expect(second.batches.flatMap(\.listings).map(\.commute) == timed.map(\.commute))
    // What `listings`, `show` and the pages show: the same times, from the store alone.
    var looked = listings
    try CommuteLookup.attach(
      &looked, limits: [Self.limit], routing: RoutingSettings(engines: [.car: Self.engine(osrm)]),
      memory: store)
    #expect(looked.map(\.commute) == timed.map(\.commute))
    #expect(osrm.requests == 4)
    // The filter then decides by the times: within 20 minutes, kept; beyond, dropped.
    var search = Search(name: "flats", site: "feed")
    search.facts.commute = [Self.limit]
    let kept = timed.filter { ListingFilter.accepts($0, for: search) }
    let expectedKept = listings.filter { (Self.expectedMinutes($0) ?? .infinity) <= 20 }
    #expect(kept.map(\.id) == expectedKept.map(\.id))
    #expect(!kept.isEmpty && kept.count < 420)
  }

  /// An engine's "no route" is an answer: kept, said, and not asked again (a flat on
  /// Heligoland, the loopback's island, and a place in Cuxhaven across the water).
  @Test func noRouteIsKeptAsAnAnswerAndNotAskedAgain() async throws {
    let osrm = try LoopbackOSRM()
    let store = try GeocodingTests.store()
    let harbour = NamedPlace(
      name: "harbour", coordinates: Coordinates(latitude: 53.8700, longitude: 8.6900))
    let limit = CommuteLimit(place: harbour, mode: .car, maxMinutes: 60)
    let island = Listing(
      id: "h", site: "feed", url: "https://example.org/h", title: "Flat on the island",
      price: 900, coordinates: Coordinates(latitude: 54.1800, longitude: 7.8850))
    let mainland = Listing(
      id: "m", site: "feed", url: "https://example.org/m", title: "Flat in Cuxhaven",
      price: 900, coordinates: Coordinates(latitude: 53.8600, longitude: 8.7000))
    let reading = SearchReading(batches: [
      SourceBatch(url: "https://example.org/a", listings: [island, mainland])
    ])
    for hour in 0..<2 {
      let timed = await Self.commuting(Self.engine(osrm)).attach(
        reading, limits: [limit], memory: store,
        now: Self.now.addingTimeInterval(Double(hour) * 3_600), asking: true)
      let times = timed.batches.flatMap(\.listings).compactMap(\.commute.first)
      #expect(times.map { $0.minutes == nil } == [true, false], "hour \(hour): \(times)")
      #expect(times.first?.note == "no route", "hour \(hour): \(times)")
    }
    #expect(osrm.requests == 1, "the second run reads both answers from the store")
  }

  @Test func theRunsCapLeavesTheRestForTheNextRunAndADryRunAsksNothing() async throws {
    let osrm = try LoopbackOSRM()
    let store = try GeocodingTests.store()
    let listings = Self.listings()
    let dry = await Self.commuting(Self.engine(osrm)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: false)
    #expect(osrm.requests == 0)
    let unasked = dry.batches[0].listings[0].commute
    #expect(unasked.map(\.words) == ["travel time to work by car unknown (not asked yet)"])
    let capped = await Self.commuting(Self.engine(osrm, perRun: 2)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    #expect(osrm.requests == 2)
    let notes = capped.batches.flatMap(\.listings).compactMap { $0.commute.first?.note }
    // The nearest 200 cells were asked first; 150 wait, and the 80 far ones are not asked.
    #expect(notes.filter { $0 == "left for the next run" }.count == 150)
    #expect(notes.filter { $0.hasPrefix("beyond") }.count == 80)
    #expect(
      capped.notes == [
        "OSRM \(osrm.base) (car): waiting for the next run (2 requests a run) "
          + "(150 positions without a time)"
      ])
    let rest = await Self.commuting(Self.engine(osrm, perRun: 2)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    #expect(osrm.requests == 4)
    #expect(rest.notes.isEmpty)
    #expect(
      rest.batches.flatMap(\.listings).allSatisfy {
        $0.commute.first?.note != "left for the next run"
      })
  }

  @Test func aFailingEngineLeavesTimesUnknownAndTheListingsKept() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer(Array(repeating: .status(503), count: 3))
    let store = try GeocodingTests.store()
    let listings = Self.listings()
    let failed = await Self.commuting(Self.engine(osrm)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    // Three failures in a row pause the engine for the run.
    #expect(osrm.requests == 3)
    let timed = failed.batches.flatMap(\.listings)
    #expect(timed.allSatisfy { $0.commute.first?.minutes == nil })
    #expect(timed.filter { $0.commute.first?.note == "engine failed" }.count == 420)
    #expect(failed.notes.contains { $0.contains("answered HTTP 503") }, "\(failed.notes)")
    #expect(failed.notes.contains { $0.contains("not asked again in this run") })
    // Nothing guessed, nothing kept: the filter keeps what it cannot time and says why.
    var search = Search(name: "flats", site: "feed")
    search.facts.commute = [Self.limit]
    let (accepted, reason) = ListingFilter.verdict(timed[0], for: search)
    #expect(accepted)
    #expect(reason.hasSuffix("travel time to work by car unknown (engine failed): kept"))
    #expect(timed.filter { ListingFilter.accepts($0, for: search) }.count == 420)
    #expect(
      try store.travelTimes(
        engine: Self.engine(osrm).cacheName, mode: .car,
        place: CommuteGrid.placeKey(Self.station.coordinates),
        cells: Array(Self.cellsWithinReach(listings))
      ).isEmpty)
    // The next run asks again, and the engine answers.
    _ = await Self.commuting(Self.engine(osrm)).attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    #expect(osrm.requests == 7)
  }

  @Test func theLookUpAsksNothingAndSaysWhatIsUnknown() throws {
    let store = try GeocodingTests.store()
    var listings = Array(Self.listings().prefix(2)) + Array(Self.listings().suffix(1))
    listings[1].coordinates = nil
    let osrm = RoutingEngine(kind: .osrm, url: "http://127.0.0.1:9", profile: "driving")
    try CommuteLookup.attach(
      &listings, limits: [Self.limit], routing: RoutingSettings(engines: [.car: osrm]),
      memory: store)
    #expect(
      listings.map { $0.commuteWords ?? "-" } == [
        "travel time to work by car unknown (not asked yet)", "-",
        "travel time to work by car unknown (beyond 40 km in a straight line)",
      ])
    try CommuteLookup.attach(
      &listings, limits: [Self.limit], routing: RoutingSettings(), memory: store)
    #expect(listings[0].commute.first?.note == "no engine in routing:")
    // No limits: nothing read, nothing changed.
    try CommuteLookup.attach(&listings, limits: [], routing: RoutingSettings(), memory: store)
    #expect(listings[0].commute.first?.note == "no engine in routing:")
  }

  @Test func withoutAnEngineForTheModeNothingIsAskedAndTheSearchIsTold() async throws {
    let store = try GeocodingTests.store()
    let commuting = Commuting(
      routing: RoutingSettings(),
      fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      userAgent: "t", timeout: 10, timeZone: .current)
    let listings = Array(Self.listings().prefix(3))
    let reading = await commuting.attach(
      Self.reading(listings), limits: [Self.limit], memory: store, now: Self.now, asking: true)
    #expect(
      reading.notes == [
        "commute: no engine for car in routing:, so no travel time to work is known"
      ])
    #expect(
      reading.batches[0].listings[1].commute.first?.words
        == "travel time to work by car unknown (no engine in routing:)")
  }
}
