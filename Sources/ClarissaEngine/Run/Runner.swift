import ClarissaConfig
import ClarissaCore
import Foundation

/// The run, in the order of the picture in docs/architecture.md: plan -> fetch -> read -> judge
/// -> (record) -> deliver, then the command shows the result and commits. One broken source
/// never stops the others; a listing is marked delivered only after its channel took it, the
/// moment it did.
public struct Runner: Sendable {
  let config: Config
  let sites: SiteCatalog
  let scheduler: RequestScheduler
  let statePath: String
  let channels: [String: any DeliveryChannel]
  let outputs: OutputPaths?
  /// The store kept open across runs (`watch`); nil: each run opens it.
  var shared: (any ListingMemory)?
  /// How a PostgreSQL store is reached and shared (`state.url`).
  public var sharing = StoreSharing()

  /// Creates a runner; `channels` maps channel names to senders (the `stdout` kind is the report).
  public init(
    config: Config, sites: SiteCatalog, scheduler: RequestScheduler, statePath: String,
    channels: [String: any DeliveryChannel] = [:], outputs: OutputPaths? = nil
  ) {
    self.config = config
    self.sites = sites
    self.scheduler = scheduler
    self.statePath = statePath
    self.channels = channels
    self.outputs = outputs
  }

  /// Runs once, up to the terminal channel: the command shows the result, then calls
  /// ``PendingRun/commit()``. A crash in between repeats a notification; it never loses one.
  public func run(_ options: RunOptions) async throws -> PendingRun {
    var options = options
    options.limits = config.limits
    try checkSelection(options)
    let access = try StoreAccess.open(
      statePath, writing: !options.dryRun, lockWait: options.lockWait, config: config,
      shared: shared, sharing: sharing)
    do {
      return try await runStages(options, access: access)
    } catch let error as RunError {
      throw error
    } catch {
      // Only the store throws inside the stages (sources and channels fail into the report).
      throw RunError(kind: .state, message: "\(error)")
    }
  }

  private func runStages(_ options: RunOptions, access: StoreAccess) async throws -> PendingRun {
    let memory = access.memory
    let writing = !options.dryRun
    let memories = try memory.searches(config.searches.map(\.name))
    let shared = writing ? memory as? any SharedWork : nil
    let (planned, outcomes) = Plan.make(
      config: config, options: options, memories: memories, byLease: shared != nil)
    var result = RunResult(
      time: options.now, searches: outcomes, blocks: [], deliveryFailures: [],
      dryRun: options.dryRun)
    var judged: [String: [Judgement]] = [:]
    if let shared {
      try await fetchShared(
        planned, work: shared, into: &result, judged: &judged, memory: memory, options: options)
    } else {
      try await fetchAndJudge(
        planned, into: &result, judged: &judged, memory: memory, options: options)
    }
    var terminal: [OwedDelivery] = []
    if writing {
      terminal = try await deliver(&result, memory: memory, now: options.now)
    }
    let unviewed = try memory.unviewedCounts()
    for index in result.searches.indices {
      result.searches[index].unviewed = unviewed[result.searches[index].name] ?? 0
    }
    return PendingRun(
      result: result, judgements: judged, terminal: terminal, access: access,
      finish: finishing(options))
  }

  /// Fetches `planned` (only the `taken` sources, with a shared store), judges what came and
  /// records each search's part.
  private func fetchAndJudge(
    _ planned: [PlannedSearch], only taken: Set<SourceKey>? = nil,
    scheduler: RequestScheduler? = nil,
    into result: inout RunResult, judged: inout [String: [Judgement]], memory: any ListingMemory,
    options: RunOptions
  ) async throws {
    let writing = !options.dryRun
    let (fetched, reading) = try await FetchStage.fetchAndRead(
      planned, sites: sites, scheduler: scheduler ?? self.scheduler, memory: memory,
      options: options, only: taken)
    result.blocks += reading.blocks
    for (host, tally) in reading.hosts {
      result.hosts[host, default: RunResult.HostTally()].add(tally)
    }
    if writing { try Self.storeCooldowns(reading, in: memory) }
    for entry in planned {
      let name = entry.search.name
      let searchReading = reading.searches[name] ?? SearchReading()
      let judgements = try Judge.judge(
        entry, reading: searchReading, memory: memory, options: options)
      judged[name, default: []] += judgements
      guard let index = result.searches.firstIndex(where: { $0.name == name }) else { continue }
      let (outcome, record) = Act.on(
        judgements, of: entry, reading: searchReading, asked: fetched.asked[name] ?? [],
        outcome: result.searches[index], options: options)
      result.searches[index] = outcome
      if writing { try memory.record(record) }
    }
  }

  /// Workers sharing a store: takes due sources in batches (leases), fetches and records each
  /// batch, marks its sources done, and takes again until none is left; a batch is a share of
  /// what is due, so that idle workers take what a busy one has not reached.
  private func fetchShared(
    _ planned: [PlannedSearch], work: any SharedWork, into result: inout RunResult,
    judged: inout [String: [Judgement]], memory: any ListingMemory, options: RunOptions
  ) async throws {
    let scheduler = work.sharedPace ? self.scheduler.pacing(SharedPace(work)) : self.scheduler
    let wanted = planned.flatMap { entry in
      let interval = entry.search.interval.timeInterval
      let every = options.force || options.only != nil ? 0 : interval - Plan.slack(interval)
      return FetchStage.jobs(for: entry.search, sites: sites).map {
        WantedSource(key: $0.source, every: every)
      }
    }
    // The workers of the last rounds: each is seen when it takes work, once per round at least.
    let longest = planned.map(\.search.interval.timeInterval).max() ?? 0
    let workers = max(1, try work.liveWorkers(seenWithin: 2 * longest, now: Date()))
    let batch = max(1, (wanted.count + workers * 4 - 1) / (workers * 4))
    var fetchedBy: Set<String> = []
    var remaining = wanted
    while !Task.isCancelled, !remaining.isEmpty {
      let taken = try work.take(remaining, limit: batch, now: Date())
      guard !taken.keys.isEmpty else { break }
      let keys = Set(taken.keys)
      // Once a round: a source done now is not due again before the next.
      remaining.removeAll { keys.contains($0.key) }
      result.takeovers += taken.takeovers
      let searches = Set(taken.keys.map(\.search))
      fetchedBy.formUnion(searches)
      try await fetchAndJudge(
        planned.filter { searches.contains($0.search.name) }, only: keys, scheduler: scheduler,
        into: &result, judged: &judged, memory: memory, options: options)
      try work.finish(taken.keys, at: Date())
    }
    for entry in planned where !fetchedBy.contains(entry.search.name) {
      guard let index = result.searches.firstIndex(where: { $0.name == entry.search.name }) else {
        continue
      }
      result.searches[index].status = .notDue
      result.searches[index].detail =
        "not due, or another worker has it (\(work.worker) took none of its sources)"
    }
  }

  /// Releases held listings whose quiet hours ended, then delivers everything owed.
  private func deliver(_ result: inout RunResult, memory: any ListingMemory, now: Date)
    async throws -> [OwedDelivery]
  {
    try releaseHeld(memory: memory, now: now)
    var fresh: [String: Set<ListingKey>] = [:]
    for search in result.searches {
      fresh[search.name] = Set(search.new.map(\.key) + search.changed.map(\.key))
    }
    let receipts = try await Deliver(config: config, channels: channels, memory: memory, now: now)
      .run(fresh: fresh)
    for index in result.searches.indices {
      result.searches[index].delivered += receipts.delivered[result.searches[index].name] ?? []
      result.searches[index].notes += receipts.notes[result.searches[index].name] ?? []
    }
    result.deliveryFailures += receipts.failures
    result.channels = receipts.channels
    return receipts.terminal
  }

  /// Held listings of searches out of their `hold` window now become owed deliveries.
  private func releaseHeld(memory: any ListingMemory, now: Date) throws {
    let held = try memory.held()
    let searches = Dictionary(config.searches.map { ($0.name, $0) }) { first, _ in first }
    for (name, entries) in Dictionary(grouping: held, by: \.search) {
      guard let search = searches[name] else { continue }
      let holding = Plan.windows(of: search, config: config, at: now).contains { $0.mode == .hold }
      if holding { continue }
      try memory.release(
        search: name, keys: entries.map(\.listing.key), to: search.notify, at: now)
    }
  }

  /// Cool-downs set this run are stored, and those of hosts that answered again lifted.
  private static func storeCooldowns(_ reading: Reading, in memory: any ListingMemory) throws {
    for host in reading.lifted where reading.cooled[host] == nil {
      try memory.setCooldown(nil, host: host)
    }
    for (host, cooldown) in reading.cooled.sorted(by: { $0.key < $1.key }) {
      try memory.setCooldown(cooldown, host: host)
    }
  }

  /// What ``PendingRun/commit()`` does after the result was shown.
  private func finishing(_ options: RunOptions) -> PendingRun.Finish {
    PendingRun.Finish(
      dryRun: options.dryRun, now: options.now,
      retention: config.state.retention.timeInterval, keep: config.output.keep,
      outputs: outputs.map { OutputWriter(paths: $0, config: config) },
      searches: config.searches.map(\.name))
  }

  /// The same runner with its store opened once and kept open for every run (`watch`): each
  /// run still takes the writers' lock, so a manual `run` can share the store between them.
  public func keepingStoreOpen() throws -> Runner {
    var runner = self
    runner.shared = try StoreAccess.open(
      statePath, writing: true, lockWait: 30, config: config, sharing: sharing
    ).releasing()
    return runner
  }

  /// When `watch` should wake next, from the open store (keys and small tables only).
  public func nextWake(now: Date) throws -> Date {
    let access = try StoreAccess.open(
      statePath, writing: false, lockWait: 0, config: config, shared: shared, sharing: sharing)
    defer { access.close() }
    do {
      return try WatchSchedule.nextWake(config: config, memory: access.memory, now: now)
    } catch {
      throw RunError(kind: .state, message: "\(error)")
    }
  }

  private func checkSelection(_ options: RunOptions) throws {
    guard let only = options.only, !config.searches.contains(where: { $0.name == only }) else {
      return
    }
    throw RunError(
      kind: .usage,
      message: "no search named '\(only)'"
        + Suggestions.hint(for: only, in: config.searches.map(\.name)))
  }
}
