package import Channels
public import ClarissaCore
public import Foundation
internal import ListingStore
internal import Presentation

/// The run, in the order of the picture in docs/architecture.md: plan -> fetch -> read -> judge
/// -> (record) -> deliver, then the command shows the result and commits. One broken source
/// never stops the others; a listing is marked delivered only after its channel took it, the
/// moment it did.
public struct Runner: Sendable {
  let config: Config

  /// The searches by name, for the reports' facts and distances.
  public var searchesByName: [String: Search] { config.searchesByName }
  let sites: SiteCatalog
  let scheduler: RequestScheduler
  let statePath: String
  let channels: [String: any DeliveryChannel]
  let outputs: OutputPaths?
  /// The store kept open across runs (`watch`); nil: each run opens it.
  var shared: (any ListingMemory)?
  /// How a PostgreSQL store is reached and shared (`state.url`).
  public var sharing = StoreSharing()
  /// What makes a fetched photo its fingerprint, and the largest photo read in bytes (module
  /// Photos' decoder, handed over by the command line); nil: no photo is fetched.
  public var photoHasher: (hash: PhotoHasher, maxBytes: Int)?

  /// Creates a runner; `channels` maps channel names to senders (the `stdout` kind is the report).
  package init(
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
    var run = RunState(
      result: RunResult(
        time: options.now, searches: outcomes, blocks: [], deliveryFailures: [],
        dryRun: options.dryRun),
      delivery: writing
        ? Deliver(
          config: config, channels: channels, memory: memory, now: options.now,
          clock: { options.time() }) : nil)
    run.geocoding = geocoding()
    run.commuting = commuting(timeZone: options.timeZone)
    run.photosLeft = config.photos.enabled ? config.photos.perRun : 0
    if let shared {
      try await fetchShared(planned, work: shared, into: &run, memory: memory, options: options)
    } else {
      let began = Date()
      try await fetchAndJudge(planned, into: &run, memory: memory, options: options)
      run.result.behind = Self.behind(planned, took: Date().timeIntervalSince(began))
    }
    var terminal: [OwedDelivery] = []
    if var delivery = run.delivery {
      // What else is owed: released from quiet hours, refused before, and the digests.
      try releaseHeld(memory: memory, now: options.now, owed: options.time())
      try await delivery.deliverRest()
      terminal = run.result.apply(delivery.receipts)
    }
    var result = run.result
    try (run.delivery?.contexts ?? DealContextBook(memory: memory, now: options.now))
      .annotate(&result)
    let unviewed = try memory.unviewedCounts()
    for index in result.searches.indices {
      result.searches[index].unviewed = unviewed[result.searches[index].name] ?? 0
    }
    return PendingRun(
      result: result, judgements: run.judgementsByName, terminal: terminal, access: access,
      finish: finishing(options))
  }

  /// Fetches `planned` (only the `taken` sources, with a shared store); each search, as soon
  /// as its sources have answered, is judged, recorded and its new listings delivered.
  func fetchAndJudge(
    _ planned: [PlannedSearch], only taken: Set<SourceKey>? = nil,
    scheduler: RequestScheduler? = nil, into run: inout RunState, memory: any ListingMemory,
    options: RunOptions
  ) async throws {
    let searches = taken.map { Set($0.map(\.search)) }
    let known = try UnchangedReading.known(
      planned.filter { searches?.contains($0.search.name) ?? true }, sites: sites,
      memory: memory, options: options)
    let answers = try FetchStage.answers(
      planned, sites: sites, scheduler: scheduler ?? self.scheduler, memory: memory,
      options: options, only: taken, known: known)
    let fetching = answers.fetching
    do {
      // The requests go on in a task of their own: stopped with the run.
      try await withTaskCancellationHandler {
        for await answer in answers {
          try await take(
            answer, into: &run, memory: memory, options: options,
            scheduler: scheduler ?? self.scheduler)
        }
      } onCancel: {
        fetching.cancel()
      }
    } catch {
      await fetching.stop()
      throw error
    }
    let reading = answers.reading
    run.result.blocks += reading.blocks.filter { !run.result.blocks.contains($0) }
    for (host, tally) in reading.hosts {
      run.result.hosts[host, default: RunResult.HostTally()].add(tally)
    }
    if !options.dryRun { try Self.storeCooldowns(reading, in: memory) }
  }

  /// One search's answer placed, judged and recorded into its slot, and its owed deliveries
  /// sent: they are committed, so they leave now, not when the whole run ends.
  private func take(
    _ answer: SearchAnswer, into run: inout RunState, memory: any ListingMemory,
    options: RunOptions, scheduler: RequestScheduler
  ) async throws {
    let (planned, slot) = (answer.planned, answer.planned.slot)
    let placed = await located(
      answer.reading, for: planned.search, by: run.geocoding, memory: memory, now: options.now,
      asking: !options.dryRun)
    let reading = await commuted(
      placed, for: planned.search, by: run.commuting, memory: memory, now: options.now,
      asking: !options.dryRun)
    let photoNote = try await photographed(
      planned, reading: reading, run: &run, memory: memory, options: options,
      scheduler: scheduler)
    var (outcome, judgements) = try judgeAndRecord(
      planned, reading: reading, asked: answer.asked, outcome: run.result.searches[slot],
      memory: memory, options: options)
    if let photoNote { outcome.notes.append(photoNote) }
    run.result.searches[slot] = outcome
    if run.judged[slot] == nil {
      run.judged[slot] = judgements
    } else {
      run.judged[slot]?.append(contentsOf: judgements)
    }
    let fresh = Set(outcome.new.map(\.key) + outcome.changed.map(\.key))
    try await run.delivery?.deliver(planned.search, fresh: fresh)
  }

  /// The fingerprints of the photos of the search's new listings, fetched and kept before it
  /// is judged (``PhotoFetch``); none in a dry run, with `photos: off`, or past the run's cap.
  /// Returns the search's note on photos refused.
  private func photographed(
    _ planned: PlannedSearch, reading: SearchReading, run: inout RunState,
    memory: any ListingMemory, options: RunOptions, scheduler: RequestScheduler
  ) async throws -> String? {
    guard !options.dryRun, config.photos.enabled, run.photosLeft > 0, let photoHasher else {
      return nil
    }
    let fetch = PhotoFetch(
      settings: config.photos, hasher: photoHasher.hash, maxBytes: photoHasher.maxBytes)
    let listings = try PhotoFetch.candidates(
      planned, reading: reading, memory: memory, options: options)
    let done = try await fetch.fetch(
      listings, search: planned.search.name, left: run.photosLeft, scheduler: scheduler,
      memory: memory, now: options.now)
    run.photosLeft -= done.requested
    for (host, cooldown) in done.cooldowns.sorted(by: { $0.key < $1.key }) {
      try memory.setCooldown(cooldown, host: host)
    }
    return done.note
  }

  /// Judges a search's answers and records them. Whether it (or a source of it) is new, so
  /// primed, is decided from the store inside the transaction that records it: another worker
  /// may have primed it since this run started. A dry run judges from what the plan read.
  private func judgeAndRecord(
    _ entry: PlannedSearch, reading: SearchReading, asked: Set<String>,
    outcome: RunResult.SearchOutcome, memory: any ListingMemory, options: RunOptions
  ) throws -> (RunResult.SearchOutcome, [Judgement]) {
    let decide = {
      (current: SearchMemory?) throws -> (RunResult.SearchOutcome, [Judgement], SearchRecord) in
      let now = Plan.planned(
        entry.search, memory: current, config: config, options: options, slot: entry.slot)
      var outcome = outcome
      if outcome.status == .primed || outcome.status == .ran {
        outcome.status = now.prime ? .primed : .ran
      }
      let judged = try Judge.judged(now, reading: reading, memory: memory, options: options)
      let signed = try Signals.apply(
        judged.judgements, of: now.search, memory: memory, now: options.now)
      var (acted, record) = Act.on(
        signed.judgements, of: now, unchanged: judged.unchanged, reading: reading, asked: asked,
        outcome: outcome, options: options)
      record.alerts = judged.alerts
      record.signals = signed.signals
      acted.notes += judged.notes
      let judgements = signed.judgements
      return (acted, judgements, record)
    }
    guard !options.dryRun else {
      let (acted, judgements, _) = try decide(entry.memory)
      return (acted, judgements)
    }
    var made = (outcome, [Judgement]())
    try memory.record(search: entry.search.name) { current in
      let (acted, judgements, record) = try decide(current)
      made = (acted, judgements)
      return record
    }
    return made
  }

  /// A run longer than the interval of some of its searches says so: they are checked once a
  /// run, less often than asked.
  static func behind(_ planned: [PlannedSearch], took seconds: Double) -> String? {
    let late = planned.filter { $0.search.interval.timeInterval < seconds }
    guard let shortest = late.map(\.search.interval.timeInterval).min() else { return nil }
    return "this run took \(ReportClock.span(seconds)), longer than the "
      + "\(ReportClock.span(shortest)) interval of \(RunReport.count(late.count, "search")): "
      + "each is checked once a run, less often than asked (a longer interval, fewer searches, "
      + "or workers sharing a PostgreSQL store catch up; see docs/scaling.md)"
  }

  /// Held listings of searches out of their `hold` window now become owed deliveries.
  private func releaseHeld(memory: any ListingMemory, now: Date, owed: Date) throws {
    let held = try memory.held()
    let searches = Dictionary(config.searches.map { ($0.name, $0) }) { first, _ in first }
    for (name, entries) in Dictionary(grouping: held, by: \.search) {
      guard let search = searches[name] else { continue }
      let holding = Plan.windows(of: search, config: config, at: now).contains { $0.mode == .hold }
      if holding { continue }
      try memory.release(
        search: name, keys: entries.map(\.listing.key), to: search.notify, at: owed)
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
      dryRun: options.dryRun, now: options.now, clock: { options.time() },
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
