internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Serve
internal import WebServer

/// `clarissa serve`'s map over a store of 1,000,000 listings of which 10,000 have coordinates
/// (every hundredth, with a photo, rooms and a floor area): `/api/map` for the search (10,000
/// markers), beside the list's page and its JSON for the same search, the store's query alone by
/// each plan (the located listings' index of schema 11, and the newest-first walk it spares), and
/// a price bound. Measured in a fresh process, as `serve`.
struct MapBenchmark {
  let folder: URL
  static let located = 100

  func run() {
    print("\nclarissa serve's map (1,000,000 listings in one search, 10,000 with coordinates)")
    let path = folder.appendingPathComponent("map.db").path
    guard StateBenchmark.filled(path, listing: Self.listing) else { return }
    Bench.again(["map-run", path])
  }

  /// The `state` benchmark's million, every hundredth with a place and facts.
  static func listing(_ index: Int) -> Listing {
    var listing = StateBenchmark.listing(index)
    guard index % located == 0 else { return listing }
    let step = Double(index / located)
    listing.coordinates = Coordinates(
      latitude: 37.3 + (step.truncatingRemainder(dividingBy: 100)) / 150,
      longitude: -122.5 + (step / 100).rounded(.down) / 150)
    listing.imageURLs = ["https://images.craigslist.org/\(listing.id)_600x450.jpg"]
    listing.rooms = Double(index % 5 + 1)
    listing.floorArea = Double(index % 120 + 30)
    listing.postcode = "94\(100 + index % 60)"
    return listing
  }

  /// For profilers: `/api/map` for the search, `times` times, on the store at `path`.
  static func profile(_ path: String, times: Int) {
    guard let store = try? ListingStore.open(path: path, readOnly: false) else { return }
    let app = ServeBenchmark.app(store)
    for _ in 0..<times { _ = app.handle(WebRequest(method: "GET", target: "/api/map?search=big")) }
  }

  /// In the fresh process.
  static func measure(_ path: String) {
    guard let store = try? ListingStore.open(path: path, readOnly: false) else {
      print("  cannot open the store")
      return
    }
    let app = ServeBenchmark.app(store)
    func get(_ target: String) -> WebResponse {
      app.handle(WebRequest(method: "GET", target: target))
    }
    let answer = get("/api/map?search=big")
    let markers =
      ((try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any])?["count"]
      as? Int ?? 0
    let map = Bench.measure(runs: 11) { get("/api/map?search=big") }
    let page = Bench.measure(runs: 11) { get("/map?search=big") }
    let list = Bench.measure(runs: 11) { get("/listings?search=big") }
    let listJSON = Bench.measure(runs: 11) { get("/api/listings?search=big") }
    var query = ListingQuery()
    query.searches = ["big"]
    query.limit = 10_001
    let byIndex = Bench.measure(runs: 11) { (try? store.mapped(query)) as Any }
    let byWalk = Bench.measure(runs: 3) { (try? store.mappedByWalk(query)) as Any }
    let bound = Bench.measure(runs: 11) { get("/api/map?search=big&max=500") }
    print(
      "  the map's data (/api/map, \(markers) markers, \(answer.body.count / 1_000) KB): "
        + "\(Bench.format(map)) ms (target: under 100 ms)")
    print(
      "    beside the list's first page: HTML \(Bench.format(list)) ms, JSON "
        + "\(Bench.format(listJSON)) ms (48 listings); the map's page without its data: "
        + "\(Bench.format(page)) ms")
    print(
      "    the store's query alone: \(Bench.format(byIndex)) ms from the located listings' "
        + "index; \(Bench.format(byWalk)) ms by the newest-first walk over the million")
    print("    with a price bound (max=500): \(Bench.format(bound)) ms")
    priceChart(store, get: get)
    print("  peak memory of this process: \(StateBenchmark.peakMB()) MB")
  }

  /// A listing's page with its price chart (issue 43), and the search's weekly median alone: the
  /// million were first seen within the 90 days the median looks back, so it reads every one.
  static func priceChart(_ store: ListingStore, get: (String) -> WebResponse) {
    let key = ListingKey(site: "craigslist", id: "7000000000")
    guard let history = try? store.history(key) else { return }
    var counted = 0
    let weeks = Bench.measure(runs: 5) {
      let read = try? store.marketWeeks(
        search: "big", currency: "USD", from: history.firstSeen, through: history.lastSeen)
      counted = read?.weeks.map(\.count).max() ?? 0
      return read as Any
    }
    let page = Bench.measure(runs: 5) { get("/listing/craigslist/7000000000") }
    print(
      "  a listing's page with its price chart: \(Bench.format(page)) ms; the search's weekly "
        + "median alone: \(Bench.format(weeks)) ms (\(counted) listings in a week)")
  }
}
