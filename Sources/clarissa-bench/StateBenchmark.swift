import ClarissaCore
import ClarissaEngine
import Foundation

/// The state file with 1,000,000 seen ids: save, load, the diff a run does, and peak memory.
struct StateBenchmark {
  let folder: URL

  func run() {
    print("\nState file (1,000,000 seen ids)")
    let path = folder.appendingPathComponent("state.json").path
    let store = StateStore(path: path)
    let save = write(to: store)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let before = Self.peakMB()
    report(store: store, path: path, save: save, size: size, before: before)
  }

  /// Builds a state of a million seen ids and times saving it; the state is gone on return.
  private func write(to store: StateStore) -> Double {
    var state = State()
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    var seen: [String: SeenListing] = [:]
    seen.reserveCapacity(1_000_000)
    for index in 0..<1_000_000 {
      seen[String(7_000_000_000 + index)] = SeenListing(
        firstSeen: now.addingTimeInterval(Double(-index)), lastSeen: now,
        deliveredTo: index % 3 == 0 ? ["phone"] : [])
    }
    state.searches["big"] = SearchState(lastRun: now, seen: seen)
    seen = [:]
    return Bench.measure(runs: 3) { (try? store.save(state)) != nil }
  }

  /// Load, the diff a run does, and the totals; only the loaded state is in memory.
  private func report(store: StateStore, path: String, save: Double, size: Int, before: Int) {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    var loaded = State()
    let load = Bench.measure(runs: 3) {
      loaded = (try? store.load()) ?? State()
      return loaded.searches.count
    }
    // The diff a run does: 360 listings against the seen set, new ones recorded.
    let incoming = (0..<360).map { String(7_000_999_800 + $0) }
    let diff = Bench.measure(runs: 9) { () -> Int in
      var search = loaded.searches.removeValue(forKey: "big") ?? SearchState()
      defer { loaded.searches["big"] = search }
      var fresh = 0
      for id in incoming {
        if search.seen[id] != nil {
          search.seen[id]?.lastSeen = now
        } else {
          search.seen[id] = SeenListing(firstSeen: now, lastSeen: now)
          fresh += 1
        }
      }
      return fresh
    }
    // What a run also does before saving: forget ids not seen for 90 days. None of these is
    // that old, the common case: the whole table is scanned and nothing removed.
    let prune = Bench.measure(runs: 3) { () -> Int in
      loaded.prune(now: now, retention: 90 * 86_400)
      return loaded.searches.count
    }
    let total = save + load + diff + prune
    print("  file: \(size / 1_000_000) MB JSON")
    print("  save (encode, write, fsync, rename): \(Bench.format(save)) ms")
    print("  load (read, decode): \(Bench.format(load)) ms")
    print("  diff of 360 listings: \(Bench.format(diff)) ms")
    print("  prune (90-day retention, nothing old enough): \(Bench.format(prune)) ms")
    print("  load + diff + prune + save: \(Bench.format(total)) ms (target: under 2000 ms)")
    print(
      "  peak memory (max RSS of this process): \(Self.peakMB()) MB, \(before) MB before saving (target: under 400 MB)"
    )
    let raw = Bench.measure(runs: 3) {
      (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) as Any
    }
    print("    beside JSONSerialization of the same file: \(Bench.format(raw)) ms")
  }

  static func peakMB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss / 1024
  }
}
