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
    try checkSelection(options)
    let access = try StoreAccess.open(
      statePath, writing: !options.dryRun, lockWait: options.lockWait, config: config,
      shared: shared)
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
    let (planned, outcomes) = Plan.make(config: config, options: options, memories: memories)
    var result = RunResult(
      time: options.now, searches: outcomes, blocks: [], deliveryFailures: [],
      dryRun: options.dryRun)
    let (fetched, reading) = try await FetchStage.fetchAndRead(
      planned, sites: sites, scheduler: scheduler, memory: memory, options: options)
    result.blocks = reading.blocks
    result.hosts = reading.hosts
    if writing { try Self.storeCooldowns(reading, in: memory) }
    var judged: [String: [Judgement]] = [:]
    for entry in planned {
      let name = entry.search.name
      let searchReading = reading.searches[name] ?? SearchReading()
      let judgements = try Judge.judge(
        entry, reading: searchReading, memory: memory, options: options)
      judged[name] = judgements
      guard let index = result.searches.firstIndex(where: { $0.name == name }) else { continue }
      let (outcome, record) = Act.on(
        judgements, of: entry, reading: searchReading, asked: fetched.asked[name] ?? [],
        outcome: result.searches[index], options: options)
      result.searches[index] = outcome
      if writing { try memory.record(record) }
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
      statePath, writing: true, lockWait: 30, config: config
    ).releasing()
    return runner
  }

  /// When `watch` should wake next, from the open store (keys and small tables only).
  public func nextWake(now: Date) throws -> Date {
    let access = try StoreAccess.open(
      statePath, writing: false, lockWait: 0, config: config, shared: shared)
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
