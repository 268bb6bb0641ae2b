internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation

extension Runner {
  /// Workers sharing a store: takes due sources in batches (leases), fetches, records and
  /// delivers each batch (each search as soon as it is judged), marks its sources done, and
  /// takes again until none is left. A batch is a share of what is due among the workers
  /// present now, small enough to end well inside a lease, and renewed while it is worked on:
  /// a live worker's batch is never taken over.
  func fetchShared(
    _ planned: [PlannedSearch], work: any SharedWork, into run: inout RunState,
    memory: any ListingMemory, options: RunOptions
  ) async throws {
    let scheduler = work.sharedPace ? self.scheduler.pacing(SharedPace(work)) : self.scheduler
    let wanted = planned.flatMap { entry in
      let interval = entry.search.interval.timeInterval
      let every = options.force || options.only != nil ? 0 : interval - Plan.slack(interval)
      return FetchStage.jobs(for: entry.search, sites: sites).map {
        WantedSource(key: $0.source, every: every)
      }
    }
    let intervals = planned.map(\.search.interval.timeInterval)
    // The workers of the last rounds: each is seen when it takes work and while it works.
    let longest = intervals.max() ?? 0
    var sizing = BatchSizing(
      lease: work.lease, interval: intervals.min() ?? 0, sources: wanted.count)
    let started = Date()
    var fetchedBy: Set<String> = []
    var remaining = wanted
    while !Task.isCancelled, !remaining.isEmpty {
      let workers = max(1, try work.liveWorkers(seenWithin: 2 * longest, now: Date()))
      let batch = sizing.size(
        remaining: remaining.count, workers: workers, elapsed: Date().timeIntervalSince(started))
      // Due when the round began: what another worker did meanwhile is done for this round.
      let taken = try work.take(remaining, limit: batch, round: started, now: Date())
      guard !taken.keys.isEmpty else { break }
      let keys = Set(taken.keys)
      // Once a round: a source done now is not due again before the next.
      remaining.removeAll { keys.contains($0.key) }
      run.result.takeovers += taken.takeovers
      let searches = Set(taken.keys.map(\.search))
      fetchedBy.formUnion(searches)
      let begun = Date()
      try await Self.renewing(taken.keys, of: work) {
        try await fetchAndJudge(
          planned.filter { searches.contains($0.search.name) }, only: keys, scheduler: scheduler,
          into: &run, memory: memory, options: options)
      }
      sizing.done(taken.keys.count, seconds: Date().timeIntervalSince(begun))
      try work.finish(taken.keys, at: Date())
    }
    run.result.behind = sizing.behind(worker: work.worker)
    run.result.sharedBy = work.worker
    // The leases name their searches, as the store does.
    for entry in planned where !fetchedBy.contains(entry.search.name) {
      run.result.searches[entry.slot].status = .notDue
      run.result.searches[entry.slot].detail =
        "not due, or another worker has it (\(work.worker) took none of its sources)"
    }
  }

  /// Runs `body` while a heartbeat renews the leases on `keys` every third of a lease.
  static func renewing(
    _ keys: [SourceKey], of work: any SharedWork, _ body: () async throws -> Void
  ) async throws {
    let every = max(0.5, work.lease / 3)
    let heartbeat = Task.detached {
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: CheckedNumber.nanoseconds(every))
        if Task.isCancelled { break }
        // A store out of reach for a moment: the lease may lapse, and another worker takes
        // the rest of the batch over (the deliveries are claimed, so none is sent twice).
        try? work.renew(keys, now: Date())
      }
    }
    defer { heartbeat.cancel() }
    try await body()
  }
}

/// How many sources a worker takes at a time: a quarter of its share of what is due among the
/// workers present, and when measured, no more than a third of a lease's work; an eighth once
/// the round has outlasted the interval (the worker is behind).
struct BatchSizing {
  let lease: Double
  let interval: Double
  let sources: Int
  /// Seconds one source took in this round's batches so far.
  private var perSource: Double?
  private var sourcesDone = 0
  private var seconds = 0.0
  /// When the round outlasted the interval: its length then, the sources left, and the batch
  /// sizes before and after.
  private var late: (elapsed: Double, left: Int, before: Int, after: Int)?

  init(lease: Double, interval: Double, sources: Int) {
    self.lease = lease
    self.interval = interval
    self.sources = sources
  }

  /// The next batch's size.
  mutating func size(remaining: Int, workers: Int, elapsed: Double) -> Int {
    func share(_ parts: Int) -> Int {
      var size = (remaining + workers * parts - 1) / (workers * parts)
      if let perSource, perSource > 0 {
        size = min(size, Int(min(Double(Int.max / 2), lease / 3 / perSource)))
      }
      return max(1, size)
    }
    if late == nil, interval > 0, elapsed > interval {
      late = (elapsed, remaining, share(4), share(8))
    }
    return share(late == nil ? 4 : 8)
  }

  /// A batch of `count` sources took `seconds`.
  mutating func done(_ count: Int, seconds taken: Double) {
    sourcesDone += count
    seconds += taken
    perSource = sourcesDone > 0 ? seconds / Double(sourcesDone) : nil
  }

  /// What a worker behind says, once a round, with the figures.
  func behind(worker: String) -> String? {
    guard let late else { return nil }
    return "\(worker): this round had run \(ReportClock.span(late.elapsed)), longer "
      + "than the \(ReportClock.span(interval)) interval, with \(late.left) of \(sources) "
      + "sources still to take; batches of \(late.after) instead of \(late.before) from then "
      + "on (more workers, a longer interval or fewer sources catch up)"
  }
}
