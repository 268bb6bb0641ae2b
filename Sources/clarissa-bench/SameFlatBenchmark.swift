internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// Cross-site folding's look-up (``ListingMemory/sameFlats(of:since:)``) over the map's store of
/// 1,000,000 listings, 10,000 of them with coordinates: 100 new listings of another site, each
/// the same flat as one stored, with the latitude index of schema 12 and without it (the
/// located listings' partial index alone). Measured in a fresh process each.
struct SameFlatBenchmark {
  let folder: URL
  static let probes = 100

  func run() {
    print("\ncross-site folding's look-up (1,000,000 listings, 10,000 with coordinates)")
    let path = folder.appendingPathComponent("same-flat.db").path
    guard StateBenchmark.filled(path, listing: MapBenchmark.listing) else { return }
    Bench.again(["same-flat-run", path, "with the latitude index"])
    guard let sqlite = Bench.onPath("sqlite3"),
      Bench.spawn(sqlite, [path, "DROP INDEX listings_latitude"]) == 0
    else {
      print("  (no sqlite3 to drop the index with: the figure without it is left out)")
      return
    }
    Bench.again(["same-flat-run", path, "without it"])
  }

  /// In the fresh process: the median of 9 look-ups of ``probes`` listings.
  static func measure(_ path: String, label: String) {
    guard let store = try? ListingStore.open(path: path, readOnly: false) else {
      print("  cannot open the store")
      return
    }
    let probes = (0..<probes).map { step in
      var listing = MapBenchmark.listing(step * 97 * MapBenchmark.located)
      listing.site = "immoscout"
      listing.id = "probe-\(step)"
      return listing
    }
    let since = Date(timeIntervalSince1970: 0)
    let found = (try? store.sameFlats(of: probes, since: since))?.count ?? -1
    let time = Bench.measure { (try? store.sameFlats(of: probes, since: since)) as Any }
    print(
      "  \(probes.count) new listings looked up, \(found) found, \(label): \(Bench.format(time)) ms "
        + "(\(Bench.format(time / Double(probes.count))) ms each)")
  }
}
