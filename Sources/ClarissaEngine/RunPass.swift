import ClarissaCore
import Foundation

/// One run's working state: which searches run, what the sources said, what is new, what was
/// delivered. Kept apart from ``Runner`` so that every step is a small function.
struct RunPass {
  let runner: Runner
  let options: RunOptions
  var state: State
  var result: RunResult
  /// Deliveries that happen when the result is shown (channels of the `stdout` kind).
  private var onPresent: [(search: String, id: String, channel: String)] = []
  private var planned: [(search: Search, hold: Bool, prime: Bool)] = []

  static let maxDeliveryAttempts = 10

  init(runner: Runner, options: RunOptions, state: State) {
    self.runner = runner
    self.options = options
    self.state = state
    self.result = RunResult(
      time: options.now, searches: [], blocks: [], deliveryFailures: [], dryRun: options.dryRun)
  }

  mutating func execute() async {
    plan()
    let work = planned.flatMap { jobs(for: $0.search) }
    let asked = Dictionary(grouping: work, by: \.search).mapValues { Set($0.map(\.request.url)) }
    let (outcomes, cooldowns) = await runner.scheduler.run(
      work, validators: state.validators, cooldowns: state.cooldowns, now: options.now)
    state.cooldowns.merge(cooldowns) { $1 }
    let batches = read(outcomes)
    // Earlier runs' refused deliveries first: this run's own failures wait for the next run.
    await retryUndelivered()
    await releaseHeld()
    for entry in planned {
      await record(
        entry.search, hold: entry.hold, prime: entry.prime,
        batches: batches[entry.search.name] ?? [], asked: asked[entry.search.name] ?? [])
    }
  }

  /// After the result was shown: the terminal channel has delivered.
  mutating func markPresented() {
    guard !options.dryRun else { return }
    for delivery in onPresent {
      state.searches[delivery.search]?.seen[delivery.id]?.deliveredTo.append(delivery.channel)
    }
  }

  // MARK: - Which searches run

  private mutating func plan() {
    for search in runner.config.searches {
      var outcome = RunResult.SearchOutcome(
        name: search.name, status: "ran", new: [], held: 0, delivered: [], fetched: 0, matched: 0,
        failures: [], notes: [])
      let forced = options.only == search.name
      if options.only != nil, !forced {
        outcome.status = "not-selected"
      } else if !search.enabled && !forced {
        outcome.status = "disabled"
      } else if let window = activeWindows(search).first(where: { $0.mode == .skip }) {
        outcome.status = "quiet-hours"
        outcome.detail = "quiet hours '\(window.name)' (skip)"
      } else if !forced && !options.force && !isDue(search) {
        outcome.status = "not-due"
        outcome.detail = nextRunDescription(search)
      } else {
        let hold = activeWindows(search).contains { $0.mode == .hold }
        // A search whose sources have never answered is still new: priming it then keeps the
        // listings already up when a source first answers from arriving as a flood.
        let prime =
          options.prime
          || (!(state.searches[search.name]?.hasRun ?? false) && !options.notifyFirstRun)
        if prime { outcome.status = "primed" }
        if hold { outcome.detail = "quiet hours: new listings are held" }
        planned.append((search, hold, prime))
      }
      result.searches.append(outcome)
    }
  }

  /// Due when its interval has passed since it last ran, less a little slack so that a cron job
  /// on the same interval is never a minute late and skipped.
  private func isDue(_ search: Search) -> Bool {
    let interval = Double(search.interval.seconds)
    guard let due = state.searches[search.name]?.nextDue(interval: interval) else { return true }
    return options.now >= due.addingTimeInterval(-min(60, interval / 10))
  }

  private func nextRunDescription(_ search: Search) -> String {
    let interval = Double(search.interval.seconds)
    guard let next = state.searches[search.name]?.nextDue(interval: interval) else {
      return "due"
    }
    let minutes = Int((next.timeIntervalSince(options.now) / 60).rounded(.up))
    return "next in \(minutes) min"
  }

  private func activeWindows(_ search: Search) -> [BlackoutWindow] {
    search.blackout.compactMap { runner.config.blackouts[$0] }
      .filter { $0.occurrence(containing: options.now) != nil }
  }

  private func jobs(for search: Search) -> [FetchJob] {
    guard let site = runner.sites.site(search.site) else { return [] }
    return site.requests(for: search).map {
      FetchJob(search: search.name, request: $0, politeness: site.politeness)
    }
  }

  // MARK: - What the sources said

  /// Listings per search, by the URL that answered with them; failures and notes go into the
  /// result.
  private mutating func read(_ outcomes: [FetchOutcome]) -> [String: [SourceBatch]] {
    var batches: [String: [SourceBatch]] = [:]
    for outcome in outcomes {
      let job = outcome.job
      let label = job.request.city.map { "\(job.host) (\($0))" } ?? job.request.url
      if let validators = outcome.validators, !options.dryRun {
        state.validators[job.request.url] = validators
      }
      switch outcome.status {
      case .notModified:
        batches[job.search, default: []].append(SourceBatch(url: job.request.url, listings: []))
      case .failed(let reason):
        note(job.search, failure: "\(label): \(reason)")
      case .blocked(let reason):
        note(job.search, failure: "\(label): blocked: \(reason)")
        block(job.host, reason)
      case .skipped(let reason):
        note(job.search, note: "\(label): skipped: \(reason)")
        if !result.blocks.contains(reason) { result.blocks.append(reason) }
      case .answered(let response):
        guard let site = runner.sites.site(searchSite(job.search)) else { continue }
        guard (200..<300).contains(response.status) || response.status == 403 else {
          note(job.search, failure: "\(label): HTTP \(response.status)")
          continue
        }
        let source = SourceResponse(
          request: job.request, status: response.status, headers: response.headers,
          body: response.body,
          finalURL: response.finalURL)
        do {
          let batch = try site.listings(from: source)
          batches[job.search, default: []].append(
            SourceBatch(url: job.request.url, listings: batch.listings))
          for text in batch.notes { note(job.search, note: "\(label): \(text)") }
        } catch let error as SiteError {
          note(job.search, failure: "\(label): \(error.message)")
          if error.isBlock { block(job.host, error.message) }
        } catch {
          note(job.search, failure: "\(label): \(error)")
        }
      }
    }
    return batches
  }

  private func searchSite(_ name: String) -> String {
    runner.config.searches.first { $0.name == name }?.site ?? ""
  }

  private mutating func block(_ host: String, _ reason: String) {
    let message =
      "\(host) blocked clarissa: \(reason). No requests to it for 6 hours; "
      + "if this keeps happening, lengthen intervals or run from a residential address"
    if !result.blocks.contains(message) { result.blocks.append(message) }
    if !options.dryRun {
      state.cooldowns[host] = Cooldown(
        until: options.now.addingTimeInterval(runner.scheduler.settings.blockCooldown),
        reason: reason)
    }
  }

  private mutating func note(_ search: String, failure: String? = nil, note: String? = nil) {
    guard let index = result.searches.firstIndex(where: { $0.name == search }) else { return }
    if let failure { result.searches[index].failures.append(failure) }
    if let note { result.searches[index].notes.append(note) }
  }

  // MARK: - What is new

  private mutating func record(
    _ search: Search, hold: Bool, prime: Bool, batches: [SourceBatch], asked: Set<String>
  ) async {
    guard let index = result.searches.firstIndex(where: { $0.name == search.name }) else { return }
    var unique: [Listing] = []
    var ids = Set<String>()
    for listing in batches.flatMap(\.listings) where ids.insert(listing.id).inserted {
      unique.append(listing)
    }
    let matches = unique.filter { ListingFilter.accepts($0, for: search) }
    result.searches[index].fetched = batches.reduce(0) { $0 + $1.listings.count }
    result.searches[index].matched = matches.count
    // Taken out of the state while it changes: a copy would duplicate every seen id (a million
    // for a heavy user). A dry run's state is never saved, so changing it is harmless.
    var searchState = state.searches.removeValue(forKey: search.name) ?? SearchState()
    // A source (a city, a feed) answering for the first time is primed like a new search: its
    // current listings are recorded, not notified.
    let answered = Set(batches.map(\.url))
    let newSources =
      options.notifyFirstRun ? [] : answered.filter { !searchState.knows(source: $0) }
    var fromKnown = Set<String>()
    for batch in batches where !newSources.contains(batch.url) {
      fromKnown.formUnion(batch.listings.map(\.id))
    }
    var fresh: [Listing] = []
    var primedHere = 0
    for listing in matches {
      if var seen = searchState.seen[listing.id] {
        seen.lastSeen = options.now
        searchState.seen[listing.id] = seen
      } else {
        searchState.seen[listing.id] = SeenListing(firstSeen: options.now, lastSeen: options.now)
        if prime {
          continue
        } else if fromKnown.contains(listing.id) {
          fresh.append(listing)
        } else {
          primedHere += 1
        }
      }
    }
    searchState.remember(sources: answered, current: asked)
    if primedHere > 0 {
      note(
        search.name,
        note: "\(primedHere) listings from \(newSources.count == 1 ? "a source" : "sources") "
          + "answering for the first time recorded, not notified")
    }
    let anySourceAnswered = !batches.isEmpty
    if anySourceAnswered || result.searches[index].failures.isEmpty {
      searchState.lastRun = options.now
    }
    searchState.lastAttempt = options.now
    state.searches[search.name] = searchState
    if prime && !anySourceAnswered && !options.prime {
      result.searches[index].status = "ran"
      result.searches[index].detail =
        "first run, but no source answered: the first run that reaches one records its listings "
        + "without notifying them"
      return
    }
    if prime {
      result.searches[index].detail =
        "first run: \(matches.count) current listings recorded, not notified"
      // Not notified, but shown: the page and feeds hold the search's latest listings from the
      // first run on, not an empty section until something new appears.
      if !options.dryRun {
        state.recent += matches.map {
          RecentListing(search: search.name, listing: $0, found: options.now)
        }
      }
      return
    }
    result.searches[index].new = fresh
    if !options.dryRun {
      state.recent += fresh.map {
        RecentListing(search: search.name, listing: $0, found: options.now)
      }
    }
    if hold {
      result.searches[index].held = fresh.count
      if !options.dryRun {
        state.held += fresh.map {
          HeldListing(search: search.name, listing: $0, heldAt: options.now)
        }
      }
      return
    }
    await deliver(fresh, of: search, to: search.notify)
  }

  // MARK: - Delivery

  /// Sends `listings` to `channelNames`; the terminal channel delivers when the result is shown.
  private mutating func deliver(_ listings: [Listing], of search: Search, to channelNames: [String])
    async
  {
    guard !listings.isEmpty, !options.dryRun else { return }
    for name in channelNames {
      guard let channel = runner.config.channels[name] else { continue }
      if channel.kind == .stdout {
        onPresent += listings.map { (search.name, $0.id, name) }
        continue
      }
      let sender = runner.channels[name] ?? UnavailableChannel(name: name, kind: channel.kind)
      do {
        try await sender.deliver(listings, search: search)
        for listing in listings {
          state.searches[search.name]?.seen[listing.id]?.deliveredTo.append(name)
        }
      } catch {
        let reason = (error as? DeliveryError)?.message ?? "\(error)"
        if !result.deliveryFailures.contains(reason) { result.deliveryFailures.append(reason) }
        for listing in listings {
          queueRetry(listing, of: search.name, channel: name, reason: reason)
        }
      }
    }
  }

  private mutating func queueRetry(
    _ listing: Listing, of search: String, channel: String, reason: String
  ) {
    if let index = state.undelivered.firstIndex(where: {
      $0.search == search && $0.listing.id == listing.id
    }) {
      if !state.undelivered[index].channels.contains(channel) {
        state.undelivered[index].channels.append(channel)
      }
      state.undelivered[index].lastError = reason
    } else {
      state.undelivered.append(
        Undelivered(
          search: search, listing: listing, channels: [channel], attempts: 1, lastError: reason))
    }
  }

  /// Held listings whose search is out of its quiet hours now.
  private mutating func releaseHeld() async {
    guard !options.dryRun, !state.held.isEmpty else { return }
    var keep: [HeldListing] = []
    var release: [String: [Listing]] = [:]
    for entry in state.held {
      guard let search = runner.config.searches.first(where: { $0.name == entry.search }) else {
        continue
      }
      if activeWindows(search).contains(where: { $0.mode == .hold }) {
        keep.append(entry)
      } else {
        release[entry.search, default: []].append(entry.listing)
      }
    }
    state.held = keep
    for search in runner.config.searches {
      guard let listings = release[search.name] else { continue }
      if let index = result.searches.firstIndex(where: { $0.name == search.name }) {
        result.searches[index].delivered += listings
      }
      await deliver(listings, of: search, to: search.notify)
    }
  }

  /// Deliveries that failed on an earlier run, tried again (up to a cap).
  private mutating func retryUndelivered() async {
    guard !options.dryRun, !state.undelivered.isEmpty else { return }
    let pending = state.undelivered
    state.undelivered = []
    for entry in pending {
      guard let search = runner.config.searches.first(where: { $0.name == entry.search }) else {
        continue
      }
      let channels = entry.channels.filter { runner.config.channels[$0] != nil }
      let before = state.undelivered.count
      await deliver([entry.listing], of: search, to: channels)
      // A new entry means it failed again: carry the attempt count forward, or give up.
      if state.undelivered.count > before,
        let index = state.undelivered.lastIndex(where: { $0.listing.id == entry.listing.id })
      {
        state.undelivered[index].attempts = entry.attempts + 1
        if entry.attempts + 1 >= Self.maxDeliveryAttempts {
          result.deliveryFailures.append(
            "gave up on '\(entry.listing.title)' (\(entry.search)) after \(entry.attempts + 1) attempts: \(entry.lastError)"
          )
          state.undelivered.remove(at: index)
        }
      } else if let index = result.searches.firstIndex(where: { $0.name == search.name }) {
        result.searches[index].delivered.append(entry.listing)
      }
    }
  }
}

/// What one request brought back for a search.
struct SourceBatch {
  /// The request's URL: what identifies a source across runs.
  var url: String
  var listings: [Listing]
}
