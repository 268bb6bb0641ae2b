internal import Channels
internal import ClarissaConfig
internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Sites

/// The listing store with 1,000,000 remembered listings: what one run costs it (look up 360
/// fetched listings, record them, owe and deliver the new ones, prune), opening it and planning
/// a `watch` wake, its size on disk, and the process's peak memory. The run's part is measured
/// in a fresh process, so its peak is the run's alone, not the filling's.
struct StateBenchmark {
  let folder: URL
  static let total = 1_000_000
  static let fetched = 360
  static let fresh = 20
  static let now = Date(timeIntervalSince1970: 1_780_000_000)

  /// The JSON state file this store replaced, measured on this machine by this benchmark
  /// (commit 549430b, `.ci/bench state`) for the same 1,000,000 ids: kept as the reference.
  static let jsonReference = (file: 83, runMilliseconds: 1900.0, peakMB: 303)

  func run() {
    print("\nListing store (SQLite, 1,000,000 remembered listings)")
    let path = folder.appendingPathComponent("clarissa.db").path
    guard Self.filled(path) else { return }
    let sizes = ["", "-wal"].map { suffix in
      ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0)
        / 1_000_000
    }
    print(
      "  size on disk: \(sizes[0]) MB, write-ahead log \(sizes[1]) MB (the JSON state file: "
        + "\(Self.jsonReference.file) MB, for ids and times alone; the store keeps every "
        + "listing's fields, its price history and indexes)")
    fflush(nil)
    Bench.again(["state-run", path])
  }

  /// Fills the store at `path` (``fill(_:listing:)``) and says how long it took; false, saying
  /// why, when it cannot.
  static func filled(_ path: String, listing: (Int) -> Listing = listing) -> Bool {
    let start = Date()
    do {
      try fill(path, listing: listing)
    } catch {
      print("  cannot fill the store: \(error)")
      return false
    }
    print("  filled in \(Bench.format(Date().timeIntervalSince(start))) s (one-off)")
    fflush(nil)
    return true
  }

  /// A million listings seen by one search, recorded as runs record them (in batches).
  static func fill(_ path: String, listing: (Int) -> Listing = listing) throws {
    let store = try ListingStore.open(path: path, readOnly: false)
    let batch = 5_000
    for first in stride(from: 0, to: total, by: batch) {
      let listings = (first..<min(first + batch, total)).map(listing)
      try store.record(
        SearchRecord(
          search: "big", now: now.addingTimeInterval(Double(first - total) / 100),
          seen: listings, reached: true))
    }
  }

  static func listing(_ index: Int) -> Listing {
    let id = String(7_000_000_000 + index)
    return Listing(
      id: id, site: "craigslist", url: "https://sfbay.craigslist.org/sby/ele/d/\(id).html",
      title: "Listing \(index)", price: Double(index % 900 + 100), currency: "USD",
      posted: now.addingTimeInterval(Double(-index)), area: "sfbay")
  }

  /// In the fresh process: open, plan a wake, then nine runs' store work.
  static func measureRun(_ path: String) {
    var store: ListingStore?
    let open = Bench.measure(runs: 9) {
      store = try? ListingStore.open(path: path, readOnly: false)
      return store as Any
    }
    guard let store, let config = config() else {
      print("  cannot open the store or read the benchmark's config")
      return
    }
    let wake = Bench.measure(runs: 9) {
      (try? WatchSchedule.nextWake(config: config, memory: store, now: now)) as Any
    }
    var phases: [[Double]] = []
    for round in 1...9 {
      guard let times = try? oneRun(store, round: round) else { continue }
      phases.append(times)
    }
    func median(_ column: Int) -> Double {
      let values = phases.map { $0[column] }.sorted()
      return values.isEmpty ? 0 : values[values.count / 2]
    }
    let run = median(0)
    print("  open the database: \(Bench.format(open)) ms")
    print("  plan a watch wake (searches, held, owed): \(Bench.format(wake)) ms")
    print("  open + plan a wake: \(Bench.format(open + wake)) ms (target: under 10 ms)")
    print(
      "  a run's store work for \(fetched) fetched listings (\(fresh) new): look up, record, "
        + "owe, deliver, prune: \(Bench.format(run)) ms (target: under 30 ms)")
    print(
      "    of which: look up and find reposts of the new \(Bench.format(median(1))) ms, record \(Bench.format(median(2))) ms, "
        + "\(fresh) deliveries recorded one by one \(Bench.format(median(3))) ms, prune "
        + "\(Bench.format(median(4))) ms; one row written in a transaction of its own (its fsync): "
        + "\(Bench.format(median(5))) ms")
    print(
      "  the same \(fetched) listings answered again (all known, unchanged): look up "
        + "\(Bench.format(median(6))) ms + record \(Bench.format(median(7))) ms = "
        + "\(Bench.format(median(6) + median(7))) ms of store work (target: under 2 ms)")
    print(
      "    beside the JSON state file's load + diff + prune + save: "
        + "\(Bench.format(jsonReference.runMilliseconds)) ms (recorded reference)")
    print(
      "  peak memory of this process: \(peakMB()) MB (target: under 60 MB; the JSON state "
        + "file's run: \(jsonReference.peakMB) MB)")
  }

  /// One run's store work: 340 known listings seen again, 20 new ones owed and delivered; then
  /// the same answer again a minute later, every listing known and unchanged. Returns
  /// milliseconds: the whole, look-up, record, deliveries, prune, one empty commit, and the
  /// second answer's look-up and record.
  private static func oneRun(_ store: ListingStore, round: Int) throws -> [Double] {
    let at = now.addingTimeInterval(Double(round) * 900)
    let known = (0..<(fetched - fresh)).map { listing(round * 1_000 + $0) }
    let new = (0..<fresh).map { listing(total + round * 100 + $0) }
    let seen = known + new
    let work = try storeWork(store, seen: seen, at: at)
    var clock = Clock()
    for owed in try store.owedDeliveries(maxAttempts: 10) {
      try store.markDelivered(
        search: owed.search, key: owed.listing.key, channel: owed.channel, at: at)
    }
    let deliver = clock.lap()
    try store.prune(now: at, retention: 90 * 86_400)
    let prune = clock.lap()
    let whole = work[0] + work[1] + deliver + prune
    try store.setCooldown(Cooldown(until: at, reason: "bench"), host: "bench.invalid")
    let commit = clock.lap()
    let again = try storeWork(store, seen: seen, at: at.addingTimeInterval(60))
    return [whole, work[0], work[1], deliver, prune, commit] + again
  }

  /// A run's store work for an answer: look up its listings, find reposts of the unknown, record.
  /// Returns milliseconds: the look-up, the record.
  private static func storeWork(_ store: ListingStore, seen: [Listing], at: Date) throws
    -> [Double]
  {
    var clock = Clock()
    _ = try store.searches(["big"])
    let sightings = try store.lookUp(search: "big", keys: seen.map(\.key))
    let unseen = seen.filter { sightings[$0.key] == nil }
    _ = try store.originals(
      search: "big", of: unseen, since: at.addingTimeInterval(-30 * 86_400))
    let lookUp = clock.lap()
    try store.record(
      SearchRecord(
        search: "big", now: at, seen: seen, owed: unseen, channels: ["phone"], recent: unseen,
        answered: ["https://sfbay.craigslist.org/"], asked: ["https://sfbay.craigslist.org/"],
        reached: true))
    return [lookUp, clock.lap()]
  }

  /// Milliseconds between laps.
  private struct Clock {
    var last = DispatchTime.now().uptimeNanoseconds
    mutating func lap() -> Double {
      let now = DispatchTime.now().uptimeNanoseconds
      defer { last = now }
      return Double(now - last) / 1e6
    }
  }

  private static func config() -> Config? {
    let yaml = "version: 1\nsearches:\n  - name: big\n    cities: [sfbay]\n    query: chair\n"
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "bench.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all
    ).config
  }

  static func peakMB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
  }
}
