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
  var onPresent: [(search: String, id: String, channel: String)] = []
  private var planned: [(search: Search, hold: Bool, prime: Bool)] = []
  /// Hosts asked once despite their cool-down, with why (for the report).
  var retrying: [String: String] = [:]
  /// Cool-downs set or renewed this run, by host.
  var cooled: [String: Cooldown] = [:]
  /// Searches with a request skipped because its host is cooling down.
  var coolingSearches = Set<String>()

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
    retrying = retries(for: work)
    let (outcomes, cooldowns) = await runner.scheduler.run(
      work, validators: state.validators, cooldowns: state.cooldowns,
      retrying: Set(retrying.keys), now: options.now)
    cooled = cooldowns
    state.cooldowns.merge(cooldowns) { $1 }
    liftAnswered(work)
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
        outcome.next = nextDue(search)
        outcome.detail = outcome.next.map {
          "next in \(ReportClock.span($0.timeIntervalSince(options.now)))"
        }
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

  private func nextDue(_ search: Search) -> Date? {
    state.searches[search.name]?.nextDue(interval: Double(search.interval.seconds))
  }

  func activeWindows(_ search: Search) -> [BlackoutWindow] {
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
        if let cooldown = cooled[job.host] { report(job.host, cooldown) }
      case .skipped(let reason):
        note(job.search, note: "\(label): skipped: \(reason)")
        if let cooldown = state.cooldowns[job.host], cooldown.until > options.now {
          coolingSearches.insert(job.search)
          // A host that refused this run is reported once, by its refusal.
          if cooled[job.host] == nil { reportCooling(job.host, cooldown, search: job.search) }
        } else if !result.blocks.contains(reason) {
          result.blocks.append(reason)
        }
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
          if error.isBlock {
            block(job.host, error.message, asked: asked(of: job.host, in: outcomes))
          }
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

  mutating func note(_ search: String, failure: String? = nil, note: String? = nil) {
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
    result.searches[index].primed = prime ? matches.count : primedHere
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
    if !anySourceAnswered, !result.searches[index].failures.isEmpty {
      result.searches[index].status = "failed"
    } else if !anySourceAnswered, coolingSearches.contains(search.name) {
      result.searches[index].status = "cooling-down"
      result.searches[index].detail = "every source's host is cooling down: nothing was asked"
      return
    }
    if prime && !anySourceAnswered && !options.prime {
      if result.searches[index].status == "primed" { result.searches[index].status = "ran" }
      result.searches[index].detail =
        "first run, but no source answered: the first run that reaches one records its listings "
        + "without notifying them"
      return
    }
    if prime {
      result.searches[index].detail =
        (options.prime ? "primed" : "first run")
        + ": \(matches.count) current \(matches.count == 1 ? "listing" : "listings") recorded, "
        + "not notified"
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
}

/// What one request brought back for a search.
struct SourceBatch {
  /// The request's URL: what identifies a source across runs.
  var url: String
  var listings: [Listing]
}
