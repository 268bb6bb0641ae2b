internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation

/// A search the run will fetch, and how its new listings are treated.
struct PlannedSearch: Sendable {
  /// The search.
  var search: Search
  /// A `hold` quiet-hours window is on: new listings wait for its end.
  var hold: Bool
  /// Its current listings are recorded without notifying (first run, or `--prime`).
  var prime: Bool
  /// What the store remembers of it.
  var memory: SearchMemory?
  /// Its place in the run's outcomes (``RunResult/searches``, in config order): where what is
  /// made of its answers goes, without looking its name up.
  var slot = 0
}

/// Stage 1: which searches run, and for the others why not. A pure function of the config, the
/// options and what the store remembers of each search.
enum Plan {
  /// The searches to fetch, and every search's outcome so far (in config order).
  /// With `byLease`, a search is not skipped as not due: workers sharing a store find what is
  /// due per source, from the leases (``SharedWork``).
  static func make(
    config: Config, options: RunOptions, memories: [String: SearchMemory], byLease: Bool = false
  ) -> (planned: [PlannedSearch], outcomes: [RunResult.SearchOutcome]) {
    var planned: [PlannedSearch] = []
    var outcomes: [RunResult.SearchOutcome] = []
    for search in config.searches {
      let memory = memories[search.name]
      var outcome = RunResult.SearchOutcome(
        name: search.name, status: .ran, new: [], held: 0, delivered: [], fetched: 0,
        matched: 0, failures: [], notes: [])
      if let skipped = reasonNotToRun(
        search, memory: memory, config: config, options: options, byLease: byLease)
      {
        outcome.status = skipped.status
        outcome.detail = skipped.detail
        outcome.next = skipped.next
      } else {
        let entry = Self.planned(
          search, memory: memory, config: config, options: options, slot: outcomes.count)
        if entry.prime { outcome.status = .primed }
        if entry.hold { outcome.detail = "quiet hours: new listings are held" }
        planned.append(entry)
      }
      outcomes.append(outcome)
    }
    return (planned, outcomes)
  }

  /// How a search that runs treats its new listings; `slot` is its place in the run's outcomes.
  static func planned(
    _ search: Search, memory: SearchMemory?, config: Config, options: RunOptions, slot: Int = 0
  ) -> PlannedSearch {
    let hold = windows(of: search, config: config, at: options.now).contains { $0.mode == .hold }
    // A search whose sources have never answered is still new: priming it then keeps the
    // listings already up when a source first answers from arriving as a flood.
    let prime = options.prime || (!(memory?.hasRun ?? false) && !options.notifyFirstRun)
    return PlannedSearch(search: search, hold: hold, prime: prime, memory: memory, slot: slot)
  }

  private static func reasonNotToRun(
    _ search: Search, memory: SearchMemory?, config: Config, options: RunOptions, byLease: Bool
  ) -> (status: SearchStatus, detail: String?, next: Date?)? {
    let forced = options.only == search.name
    if options.only != nil, !forced { return (.notSelected, nil, nil) }
    if !search.enabled && !forced { return (.disabled, nil, nil) }
    let windows = windows(of: search, config: config, at: options.now)
    if let window = windows.first(where: { $0.mode == .skip }) {
      return (.quietHours, "quiet hours '\(window.name)' (skip)", nil)
    }
    if forced || options.force || byLease || isDue(search, memory: memory, now: options.now) {
      return nil
    }
    let next = memory?.nextDue(interval: search.interval.timeInterval)
    let detail = next.map { "next in \(ReportClock.span($0.timeIntervalSince(options.now)))" }
    return (.notDue, detail, next)
  }

  /// Due when its interval has passed since it last ran, less a little slack so that a cron job
  /// on the same interval is never a minute late and skipped.
  static func isDue(_ search: Search, memory: SearchMemory?, now: Date) -> Bool {
    let interval = search.interval.timeInterval
    guard let due = memory?.nextDue(interval: interval) else { return true }
    return now >= due.addingTimeInterval(-slack(interval))
  }

  /// How early a search counts as due.
  static func slack(_ interval: Double) -> Double { min(60, interval / 10) }

  /// The quiet-hours windows of `search` that are on at `now`.
  static func windows(of search: Search, config: Config, at now: Date) -> [BlackoutWindow] {
    search.blackout.compactMap { config.blackouts[$0] }
      .filter { $0.occurrence(containing: now) != nil }
  }
}
