internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// Issue 44's figure: judging 100,000 flats around Berlin (``FactFilterBenchmark/listings(_:)``)
/// with a `commute:` limit against a warm cache (every grid cell's travel time already in the
/// store, as on a search's second run: no engine is asked), beside the same listings judged
/// without it, in the same run. The times are read from a SQLite store in a temporary folder
/// (``CommuteLookup/attach(_:limits:routing:memory:)``, the run's stage without its requests),
/// then the filter decides.
struct CommuteBenchmark {
  let folder: URL

  /// Berlin's Hauptbahnhof, and 30 minutes by transit to it (35 km in a straight line).
  static let work = NamedPlace(
    name: "work", coordinates: Coordinates(latitude: 52.5251, longitude: 13.3694))
  static let limit = CommuteLimit(place: work, mode: .transit, maxMinutes: 30)
  static let engine = RoutingEngine(
    kind: .motis, url: "https://api.transitous.org", depart: Departure(weekday: 1, minutes: 510))

  func run() {
    print("\nCommute (100,000 listings, a warm cache of travel times)")
    let listings = FactFilterBenchmark.listings(100_000)
    let routing = RoutingSettings(engines: [.transit: Self.engine])
    let store: ListingStore
    let cells: Int
    do {
      store = try ListingStore.open(
        path: folder.appendingPathComponent("commute.db").path, readOnly: false)
      let warming = Date()
      cells = try Self.warm(store, listings)
      print(
        "  the cache warmed: \(cells) cells in \(Bench.format(Date().timeIntervalSince(warming) * 1000)) ms "
          + "(one transaction)")
    } catch {
      print("  the store could not be made: \(error)")
      return
    }
    let price = PriceRange(max: 1_500)
    let plain = Search(name: "bench", site: "bench", price: price)
    var commuting = plain
    commuting.facts.commute = [Self.limit]
    _ = listings.reduce(0) { $0 + ($1.price ?? 0 > 1_500 ? 1 : 0) }
    var kept = 0
    let reference = Bench.measure(runs: 9) { () -> Int in
      kept = listings.reduce(0) { $0 + (ListingFilter.accepts($1, for: plain) ? 1 : 0) }
      return kept
    }
    print(
      "  without the commute filter (the reference): \(kept) kept in \(Bench.format(reference)) ms")
    var timed = listings
    let keys = listings.compactMap { $0.coordinates.map(CommuteGrid.key) }
    let read = Bench.measure(runs: 5) { () -> Int in
      return
        (try? store.travelTimes(
          engine: Self.engine.cacheName, mode: .transit,
          place: CommuteGrid.placeKey(Self.work.coordinates), cells: keys))?.count ?? -1
    }
    let attach = Bench.measure(runs: 5) { () -> Int in
      timed = listings
      try? CommuteLookup.attach(
        &timed, limits: [Self.limit], routing: routing, memory: store)
      return timed.count
    }
    var keptTimed = 0
    let judged = Bench.measure(runs: 9) { () -> Int in
      keptTimed = timed.reduce(0) { $0 + (ListingFilter.accepts($1, for: commuting) ? 1 : 0) }
      return keptTimed
    }
    let known = timed.filter { $0.commute.first?.minutes != nil }.count
    print(
      "  the times attached from the store (CommuteLookup): \(Bench.format(attach)) ms for "
        + "\(known) times (the store's read of \(cells) cells alone: \(Bench.format(read)) ms)")
    print(
      "  judged with commute {work: {by: transit, max: 30 min}}: \(keptTimed) kept in "
        + "\(Bench.format(judged)) ms (x\(Bench.format(judged / max(reference, 0.001))) the "
        + "reference)")
    let total = attach + judged
    print(
      "  attached and judged: \(Bench.format(total)) ms (x\(Bench.format(total / max(reference, 0.001))) "
        + "the reference)")
  }

  /// Every cell of the listings' positions kept with the time the loopback engines' rule gives
  /// (the straight line times 1.3 at 25 km/h after a 5-minute wait): returns the cells.
  static func warm(_ store: ListingStore, _ listings: [Listing]) throws -> Int {
    var times: [String: Double?] = [:]
    for listing in listings {
      guard let at = listing.coordinates else { continue }
      let cell = CommuteGrid.cell(at)
      let metres = work.coordinates.distance(to: cell).metres * 1.3
      times[CommuteGrid.key(at)] = 5 + metres / (25_000.0 / 60)
    }
    try store.rememberTravelTimes(
      engine: engine.cacheName, mode: .transit, place: CommuteGrid.placeKey(work.coordinates),
      times, at: Date())
    return times.count
  }
}
