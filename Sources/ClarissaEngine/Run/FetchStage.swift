public import ClarissaCore
internal import Foundation
internal import ListingStore

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

/// Stage 2: the requests of the planned searches, made politely by the scheduler. The stored
/// validators make them conditional (not for `explain`, which shows every listing).
enum FetchStage {
  /// The fetch and read stages together, one search at a time (``FetchAnswers``): each search's
  /// answer as soon as every request of that search has ended, while the other searches'
  /// requests go on (so its new listings can be judged and delivered at once). Only the `taken`
  /// sources are asked, when given (workers sharing a store); `known` gives per search the
  /// items of its last answer its site may pass over.
  static func answers(
    _ planned: [PlannedSearch], sites: SiteCatalog, scheduler: RequestScheduler,
    memory: any ListingMemory, options: RunOptions, conditional: Bool = true,
    only taken: Set<SourceKey>? = nil, known: [String: KnownItems] = [:]
  ) throws -> FetchAnswers {
    let perSearch = planned.map { jobs(for: $0.search, sites: sites) }
    let all = perSearch.flatMap { $0 }
    let work = taken.map { taken in all.filter { taken.contains($0.source) } } ?? all
    let cooldowns = try memory.cooldowns().mapValues { $0.bounded(from: options.now) }
    let retrying = retries(for: work, cooldowns: cooldowns, options: options)
    let validators = conditional ? try memory.validators(for: work.map(\.request.url)) : [:]
    return FetchAnswers(
      planned, jobs: perSearch, work: work, cooldowns: cooldowns, retrying: retrying,
      validators: validators, sites: sites, scheduler: scheduler, options: options, known: known)
  }

  /// Every search's answers read to the end (`explain`): what all the sources said.
  static func fetchAndRead(
    _ planned: [PlannedSearch], sites: SiteCatalog, scheduler: RequestScheduler,
    memory: any ListingMemory, options: RunOptions, conditional: Bool = true
  ) async throws -> Reading {
    let answers = try Self.answers(
      planned, sites: sites, scheduler: scheduler, memory: memory, options: options,
      conditional: conditional)
    let fetching = answers.fetching
    await withTaskCancellationHandler {
      for await _ in answers {}
    } onCancel: {
      fetching.cancel()
    }
    return answers.reading
  }

  /// The follow-up rounds of the searches whose answers asked for more.
  static func followUp(
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
