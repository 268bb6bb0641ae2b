import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The routing engines' travel times on both stores (`travel_times`, schema step
/// `21-travel-times`): kept per engine, mode, place and grid cell, "no route" kept as such,
/// read back in batches, and forgotten by the prune 30 days after they were asked.
@Suite(.serialized) struct StoreTravelTimesTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  static let osrm = RoutingEngine(kind: .osrm, url: "http://127.0.0.1:5000", profile: "driving")
  static let motis = RoutingEngine(
    kind: .motis, url: "https://api.transitous.org",
    depart: Departure(weekday: 1, minutes: 510))
  /// Berlin Hauptbahnhof.
  static let work = CommuteGrid.placeKey(Coordinates(latitude: 52.525, longitude: 13.369))

  /// 250 cells east of Alexanderplatz, one a 0.001° step: more than one read's batch.
  static let cells = (0..<250).map {
    CommuteGrid.key(Coordinates(latitude: 52.521, longitude: 13.413 + Double($0) * 0.001))
  }

  @Test(arguments: StoreKind.built)
  func timesAreKeptPerEngineModeAndPlaceAndNoRouteIsKept(kind: StoreKind) throws {
    let store = try kind.open()
    var times: [String: Double?] = [:]
    for (index, cell) in Self.cells.enumerated() { times[cell] = Double(index) / 4 }
    times[Self.cells[7]] = .some(nil)
    try store.rememberTravelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work, times, at: Self.now)
    let asked = Self.cells + ["52.600,13.500"]
    let read = try store.travelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work, cells: asked)
    #expect(read.count == 250, "the cell never asked is absent")
    #expect(read["52.600,13.500"] == nil)
    #expect(read[Self.cells[1]] == .some(0.25))
    #expect(read[Self.cells[249]] == .some(62.25))
    // Kept as "no route": present, with no minutes.
    #expect(read[Self.cells[7]] == .some(nil))
    // Another engine, mode or place knows nothing of them.
    #expect(
      try store.travelTimes(
        engine: Self.motis.cacheName, mode: .car, place: Self.work, cells: asked
      ).isEmpty)
    #expect(
      try store.travelTimes(
        engine: Self.osrm.cacheName, mode: .bike, place: Self.work, cells: asked
      ).isEmpty)
    let moved = CommuteGrid.placeKey(Coordinates(latitude: 52.525001, longitude: 13.369))
    #expect(
      try store.travelTimes(
        engine: Self.osrm.cacheName, mode: .car, place: moved, cells: asked
      ).isEmpty)
    // A later answer replaces the earlier; a time that is no number is not kept.
    try store.rememberTravelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work,
      [Self.cells[7]: 12.5, "52.600,13.500": .infinity, "52.601,13.500": -3],
      at: Self.now.addingTimeInterval(60))
    let again = try store.travelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work,
      cells: [Self.cells[7], "52.600,13.500", "52.601,13.500", Self.cells[7]])
    #expect(again == [Self.cells[7]: 12.5])
    #expect(
      try store.travelTimes(engine: Self.osrm.cacheName, mode: .car, place: Self.work, cells: [])
        .isEmpty)
  }

  @Test(arguments: StoreKind.built)
  func manyCellsAreReadInOneWalkWithTheSameAnswers(kind: StoreKind) throws {
    let store = try kind.open()
    // A grid of 50 x 50 cells around Alexanderplatz; every third kept, one in seven "no route".
    let grid = (0..<2_500).map {
      CommuteGrid.key(
        Coordinates(
          latitude: 52.500 + Double($0 / 50) * 0.001, longitude: 13.400 + Double($0 % 50) * 0.001))
    }
    var times: [String: Double?] = [:]
    for (index, cell) in grid.enumerated() where index % 3 == 0 {
      times[cell] = index % 7 == 0 ? .some(nil) : Double(index) / 10
    }
    try store.rememberTravelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work, times, at: Self.now)
    // Another place's rows are not read with these.
    try store.rememberTravelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: "0.000000,0.000000", [grid[1]: 5],
      at: Self.now)
    #expect(grid.count >= TravelTimeCache.scanFrom)
    let walked = try store.travelTimes(
      engine: Self.osrm.cacheName, mode: .car, place: Self.work, cells: grid)
    #expect(walked == times)
    // The same cells asked a few at a time give the same answers.
    var batched: [String: Double?] = [:]
    for start in stride(from: 0, to: grid.count, by: 500) {
      batched.merge(
        try store.travelTimes(
          engine: Self.osrm.cacheName, mode: .car, place: Self.work,
          cells: Array(grid[start..<start + 500]))
      ) { first, _ in first }
    }
    #expect(batched == walked)
  }

  @Test(arguments: StoreKind.built)
  func thePruneForgetsTimesAskedMoreThanThirtyDaysAgo(kind: StoreKind) throws {
    let store = try kind.open()
    let day = 86_400.0
    let old = Self.now.addingTimeInterval(-31 * day)
    let recent = Self.now.addingTimeInterval(-29 * day)
    try store.rememberTravelTimes(
      engine: Self.motis.cacheName, mode: .transit, place: Self.work,
      [Self.cells[0]: 21, Self.cells[1]: nil], at: old)
    try store.rememberTravelTimes(
      engine: Self.motis.cacheName, mode: .transit, place: Self.work, [Self.cells[2]: 24],
      at: recent)
    // Whatever the retention of listings: the age is the travel times' own.
    let counts = try store.prune(now: Self.now, retention: 365 * day)
    #expect(counts["travel_times"] == 2)
    #expect(counts.description.contains("2 travel times"))
    let kept = try store.travelTimes(
      engine: Self.motis.cacheName, mode: .transit, place: Self.work,
      cells: Array(Self.cells.prefix(3)))
    #expect(kept == [Self.cells[2]: 24])
    #expect(TravelTimeCache.maxAge == 30 * day)
  }
}
