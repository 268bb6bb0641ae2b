public import ClarissaCore
public import Foundation
internal import ListingStore

/// What `clarissa explain` shows for one search: every listing its sources return, with the
/// verdict a run would reach (the same stages decide), and the sources that failed.
public struct Explanation: Sendable {
  /// One listing's story.
  public struct Entry: Sendable {
    /// The listing.
    public var listing: Listing
    /// Whether it passes the filters and price range.
    public var accepted: Bool
    /// Which filter decided, or why it was dropped.
    public var reason: String
    /// The verdict.
    public var verdict: Verdict

    /// The verdict in words: `new`, `held ...`, `seen since <date>, delivered to ...`,
    /// `would be recorded silently (...)`, or `ignored`.
    public var status: String {
      switch verdict {
      case .new: return "new"
      case .filtered: return "ignored"
      case .primed(let reason): return "would be recorded silently (\(reason.rawValue))"
      case .repost(let original, let firstSeen?):
        return
          "repost of \(original) (first seen \(MarkupText.timestamp(firstSeen))): not announced"
      case .repost(let original, nil):
        return "the same item as \(original), new in this run too: not announced twice"
      case .alsoOn(let other, let firstSeen):
        return "the same flat as \(other.site) \(other.id) (first seen "
          + "\(MarkupText.timestamp(firstSeen))): not announced again"
      case .changed(let event):
        var changed = listing
        changed.event = event
        return "\(event.kind.words): "
          + (Change.describe(changed) ?? "") + " (announced again)"
      case .hidden(nil): return "hidden: never announced"
      case .hidden(let original?): return "repost of \(original), hidden: never announced"
      case .seen(let sighting) where sighting.held: return "held until quiet hours end"
      case .seen(let sighting):
        let channels =
          sighting.deliveredTo.isEmpty
          ? "" : ", delivered to \(sighting.deliveredTo.joined(separator: ", "))"
        return "seen since \(MarkupText.timestamp(sighting.firstSeen))\(channels)"
      }
    }
  }

  /// The search.
  public var search: String
  /// Each listing, in the sources' order.
  public var entries: [Entry]
  /// Sources that failed.
  public var failures: [String]
  /// Explained from the store: when the search last ran (what it kept then is what is judged).
  public var fromStore: Date? = nil
}

extension Explanation.Entry {
  init(_ judgement: Judgement) {
    self.init(
      listing: judgement.listing, accepted: judgement.verdict != .filtered,
      reason: judgement.reason ?? "", verdict: judgement.verdict)
  }
}

extension Runner {
  /// Fetches one search (every city, no conditional GET) and judges each listing as a run
  /// would, through the same stages; reads the store without locking or changing it.
  public func explain(search name: String, now: Date) async throws -> Explanation {
    try await explaining(name, now: now) { search, options, memory in
      try await explain(search, options: options, memory: memory)
    }
  }

  /// The search named, its options and the store read without the lock, for `body`; a store
  /// error is a state error.
  private func explaining(
    _ name: String, now: Date,
    _ body: (Search, RunOptions, any ListingMemory) async throws -> Explanation
  ) async throws -> Explanation {
    var options = RunOptions(now: now, force: true, only: name, dryRun: true)
    // What a run reads of each answer, no more (`limits.items_per_source`).
    options.limits = config.limits
    guard let search = config.searches.first(where: { $0.name == name }) else {
      throw RunError(
        kind: .usage,
        message: "no search named '\(name)'"
          + Suggestions.hint(for: name, in: config.searches.map(\.name)))
    }
    guard sites.site(search.site) != nil else {
      throw RunError(kind: .usage, message: "search '\(name)' uses an unknown site")
    }
    let access = try StoreAccess.open(statePath, writing: false, lockWait: 0, config: config)
    defer { access.close() }
    do {
      return try await body(search, options, access.memory)
    } catch let error as RunError {
      throw error
    } catch {
      throw RunError(kind: .state, message: "\(error)")
    }
  }

  /// Judges, without the network, the listings the search's last run kept (as the store holds
  /// them) against the config as it is now: what a changed filter would drop, which listing
  /// was delivered where. Listings a run drops are not kept, so they are not shown.
  public func explainFromStore(search name: String, now: Date) async throws -> Explanation {
    try await explaining(name, now: now) { search, options, store in
      let memory = try store.searches([name])[name]
      guard let lastRun = memory?.lastRun, let browsable = store as? any BrowsableStore else {
        throw RunError(
          kind: .usage,
          message: "search '\(name)' has not run yet, so the store has nothing to explain; "
            + "'clarissa explain --search \(name) --fetch' asks its sites now")
      }
      var query = ListingQuery()
      query.searches = [name]
      query.marked = .any  // the run judges hidden listings too
      // As many as its sources may give in one run.
      let sources = max(1, FetchStage.jobs(for: search, sites: sites).count)
      query.limit = config.limits.itemsPerSource * sources
      // What the last run saw: each listing it kept was seen then.
      let kept = try browsable.listings(query).filter { $0.lastSeen >= lastRun }.map(\.listing)
      let planned = Plan.planned(search, memory: memory, config: config, options: options)
      // Timed as a run would, from the engines' answers the store holds (nothing asked).
      let reading = await commuted(
        SearchReading(batches: [SourceBatch(url: "", listings: kept.reversed())]), for: search,
        by: commuting(), memory: store, now: now, asking: false)
      let judgements = try Judge.judge(
        planned, reading: reading, memory: store, options: options, explaining: true)
      var explanation = Explanation(
        search: name, entries: judgements.map(Explanation.Entry.init), failures: [])
      explanation.fromStore = lastRun
      return explanation
    }
  }

  /// Judges listings read from a saved answer (`inspect --search`) as the search's run would:
  /// its filters, its price range, and what the store remembers (read only). They count as the
  /// answer of the search's first source.
  public func explain(search name: String, listings: [Listing], now: Date) async throws
    -> Explanation
  {
    try await explaining(name, now: now) { search, options, store in
      let memory = try store.searches([name])[name]
      let planned = Plan.planned(search, memory: memory, config: config, options: options)
      let source = FetchStage.jobs(for: search, sites: sites).first?.request.url ?? ""
      // Placed as a run would, from the geocoder's answers the store holds (nothing asked).
      let placed = await located(
        SearchReading(batches: [SourceBatch(url: source, listings: listings)]), for: search,
        by: geocoding(), memory: store, now: now, asking: false)
      let reading = await commuted(
        placed, for: search, by: commuting(), memory: store, now: now, asking: false)
      let judgements = try Judge.judge(
        planned, reading: reading, memory: store, options: options, explaining: true)
      return Explanation(
        search: name, entries: judgements.map(Explanation.Entry.init), failures: [])
    }
  }

  private func explain(_ search: Search, options: RunOptions, memory: any ListingMemory)
    async throws -> Explanation
  {
    let memories = try memory.searches([search.name])
    let planned = Plan.planned(
      search, memory: memories[search.name], config: config, options: options)
    let reading = try await FetchStage.fetchAndRead(
      [planned], sites: sites, scheduler: scheduler, memory: memory, options: options,
      conditional: false)
    // Placed as a run would, from the geocoder's answers the store holds (nothing asked).
    let placed = await located(
      reading.searches[search.name] ?? SearchReading(), for: search, by: geocoding(),
      memory: memory, now: options.now, asking: false)
    let searchReading = await commuted(
      placed, for: search, by: commuting(), memory: memory, now: options.now, asking: false)
    let judgements = try Judge.judge(
      planned, reading: searchReading, memory: memory, options: options, explaining: true)
    let entries = judgements.map(Explanation.Entry.init)
    return Explanation(
      search: search.name, entries: entries,
      failures: searchReading.failures + (searchReading.cooling ? reading.blocks : []))
  }
}
