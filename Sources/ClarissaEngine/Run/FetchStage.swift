import ClarissaCore
import Foundation
import ListingStore

/// What the fetch stage brought back: one outcome per request, and the cool-downs the
/// scheduler set or renewed (by host).
struct Fetched: Sendable {
  /// The requests made, per search: the URLs a search asks now.
  var asked: [String: Set<String>]
  /// One outcome per request.
  var outcomes: [FetchOutcome]
  /// Cool-downs set or renewed by answers this run (403, long 429/503).
  var cooled: [String: Cooldown]
  /// Cooling hosts asked once this run, with why.
  var retrying: [String: String]
  /// The cool-downs as they stood before the run.
  var cooldowns: [String: Cooldown]
  /// Per host, every URL this run asks of it (what a block page's cool-down names).
  var urls: [String: [String]] = [:]
}

/// The outcomes of a run's requests as they arrive, gathered per search until each search's
/// last request has ended.
private struct Streamed {
  /// Per search, its requests not yet ended.
  var pending: [String: Int]
  let urls: [String: [String]]
  let retrying: [String: String]
  let cooldowns: [String: Cooldown]
  /// The outcomes so far of searches still waiting for some.
  var outcomes: [String: [FetchOutcome]] = [:]
  /// Cool-downs set so far this run, by host.
  var cooled: [String: Cooldown] = [:]
  /// What the searches read so far said.
  var read = Reading()
  /// Searches whose answers asked for follow-up requests, read up to there.
  var waiting = Reading()

  /// Adds one outcome; returns the search's requests once its last one has ended.
  mutating func add(_ outcome: FetchOutcome, cooled host: Cooldown?) -> Fetched? {
    let name = outcome.job.search
    if let host { cooled[outcome.job.host] = host }
    outcomes[name, default: []].append(outcome)
    let left = (pending[name] ?? 1) - 1
    pending[name] = left
    guard left <= 0, let done = outcomes.removeValue(forKey: name) else { return nil }
    let hosts = Set(done.map(\.job.host))
    return Fetched(
      asked: [name: Set(done.map(\.job.request.url))], outcomes: done, cooled: cooled,
      retrying: retrying.filter { hosts.contains($0.key) }, cooldowns: cooldowns, urls: urls)
  }
}

/// Stage 2: the requests of the planned searches, made politely by the scheduler. The stored
/// validators make them conditional (not for `explain`, which shows every listing).
enum FetchStage {
  /// What a search is given once its requests have ended: its name, what its sources said, and
  /// the URLs it asks (all of them, whichever worker fetched each).
  typealias SearchDone = (String, SearchReading, Set<String>) async throws -> Void

  /// The fetch and read stages together, one search at a time: `each` is given a search's
  /// reading as soon as every request of that search has ended, while the other searches'
  /// requests go on (so its new listings can be judged and delivered at once). The follow-up
  /// requests answers ask for (a site that gives ids first, then the listings of those ids) are
  /// made after the first requests, up to ``followUpRounds`` rounds, each as polite as the
  /// first; their searches are given to `each` then. Returns everything fetched and read.
  /// `known` gives per search the items of its last answer its site may pass over.
  static func fetchAndRead(
    _ planned: [PlannedSearch], sites: SiteCatalog, scheduler: RequestScheduler,
    memory: any ListingMemory, options: RunOptions, conditional: Bool = true,
    only taken: Set<SourceKey>? = nil, known: [String: KnownItems] = [:],
    each: SearchDone = { _, _, _ in }
  ) async throws -> (Fetched, Reading) {
    let all = planned.flatMap { jobs(for: $0.search, sites: sites) }
    // A search asks all its sources, whichever worker fetches each.
    let asked = Dictionary(grouping: all, by: \.search).mapValues { Set($0.map(\.request.url)) }
    let work = taken.map { taken in all.filter { taken.contains($0.source) } } ?? all
    let cooldowns = try memory.cooldowns().mapValues { $0.bounded(from: options.now) }
    let retrying = retries(for: work, cooldowns: cooldowns, options: options)
    let validators = conditional ? try memory.validators(for: work.map(\.request.url)) : [:]
    let urls = Dictionary(grouping: work, by: \.host).mapValues { $0.map(\.request.url) }
    var stream = Streamed(
      pending: Dictionary(grouping: work, by: \.search).mapValues(\.count), urls: urls,
      retrying: retrying, cooldowns: cooldowns)
    for entry in planned where stream.pending[entry.search.name] == nil {
      // Nothing to ask (a site with no request for it): read at once, as having said nothing.
      try await each(entry.search.name, SearchReading(), asked[entry.search.name] ?? [])
    }
    let (outcomes, continuation) = AsyncStream.makeStream(of: (FetchOutcome, Cooldown?).self)
    async let finished: ([FetchOutcome], [String: Cooldown]) = {
      let done = await scheduler.run(
        work, validators: validators, cooldowns: cooldowns, retrying: Set(retrying.keys),
        now: options.now
      ) { continuation.yield(($0, $1)) }
      continuation.finish()
      return done
    }()
    let context = (sites, planned.map(\.search), options, scheduler.settings.blockCooldown)
    for await (outcome, cooled) in outcomes {
      guard let part = stream.add(outcome, cooled: cooled) else { continue }
      let name = outcome.job.search
      let reading = ReadStage.run(
        part, sites: context.0, searches: context.1, options: context.2, blockCooldown: context.3,
        known: known)
      if reading.followUps.isEmpty {
        stream.read.merge(reading)
        try await each(name, reading.searches[name] ?? SearchReading(), asked[name] ?? [])
      } else {
        let followUps = stream.waiting.followUps + reading.followUps
        stream.waiting.merge(reading)
        stream.waiting.followUps = followUps
      }
    }
    let (done, cooled) = await finished
    let fetched = Fetched(
      asked: asked, outcomes: done, cooled: cooled, retrying: retrying, cooldowns: cooldowns,
      urls: urls)
    if !stream.waiting.searches.isEmpty {
      let waiting = await followUp(
        stream.waiting, fetched: fetched, sites: sites, scheduler: scheduler, options: options,
        searches: context.1)
      for name in waiting.searches.keys.sorted() {
        try await each(name, waiting.searches[name] ?? SearchReading(), asked[name] ?? [])
      }
      stream.read.merge(waiting)
    }
    stream.read.cooled.merge(cooled) { kept, _ in kept }
    stream.read.followUps = []
    return (fetched, stream.read)
  }

  /// The follow-up rounds of the searches whose answers asked for more.
  private static func followUp(
    _ first: Reading, fetched: Fetched, sites: SiteCatalog, scheduler: RequestScheduler,
    options: RunOptions, searches: [Search]
  ) async -> Reading {
    var reading = first
    let cooldown = scheduler.settings.blockCooldown
    var round = 0
    while !reading.followUps.isEmpty {
      round += 1
      guard round <= followUpRounds else {
        for job in reading.followUps {
          reading.searches[job.search, default: SearchReading()].failures.append(
            "\(job.request.url): more than \(followUpRounds) requests in a row; not asked")
        }
        break
      }
      // The first request of a host in a round goes out at once: wait as between two requests,
      // since the round before just asked the same hosts.
      await scheduler.pause(
        reading.followUps.map { scheduler.delay(for: $0.politeness) }.max() ?? 0)
      var cooldowns = fetched.cooldowns
      cooldowns.merge(fetched.cooled) { _, newer in newer }
      cooldowns.merge(reading.cooled) { _, newer in newer }
      let (outcomes, cooled) = await scheduler.run(
        reading.followUps, validators: [:], cooldowns: cooldowns, retrying: [], now: options.now)
      let more = Fetched(
        asked: [:], outcomes: outcomes, cooled: cooled, retrying: [:], cooldowns: cooldowns,
        urls: fetched.urls)
      reading.merge(
        ReadStage.run(
          more, sites: sites, searches: searches, options: options, blockCooldown: cooldown))
    }
    reading.followUps = []
    return reading
  }

  /// How many requests may follow one another for one source.
  static let followUpRounds = 3

  /// One job per request of the search's site.
  static func jobs(for search: Search, sites: SiteCatalog) -> [FetchJob] {
    guard let site = sites.site(search.site) else { return [] }
    return site.requests(for: search).map {
      FetchJob(search: search.name, request: $0, politeness: site.politeness)
    }
  }

  /// Cooling hosts worth one request this run, with why: `--search NAME --force` asks each of
  /// the search's hosts once; a request URL the cool-down was not set by (the user fixed the
  /// URL) asks a refusing host once. A rate limit is the server asking for time: only the
  /// explicit `--force` asks it again.
  static func retries(
    for work: [FetchJob], cooldowns: [String: Cooldown], options: RunOptions
  ) -> [String: String] {
    var why: [String: String] = [:]
    for job in work where why[job.host] == nil {
      guard let cooldown = cooldowns[job.host], cooldown.until > options.now else { continue }
      if let only = options.only, options.force {
        why[job.host] = "of 'run --search \(only) --force'"
      } else if !cooldown.isRateLimit, let urls = cooldown.urls, !urls.contains(job.request.url) {
        why[job.host] = "a request URL changed"
      }
    }
    return why
  }
}

extension Search {
  /// The hosts this search's requests go to (`clarissa serve` shows their cool-downs).
  public func hosts(sites: SiteCatalog) -> [String] {
    var seen: [String] = []
    for job in FetchStage.jobs(for: self, sites: sites) where !seen.contains(job.host) {
      seen.append(job.host)
    }
    return seen
  }
}
