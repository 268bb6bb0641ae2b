import ClarissaCore
import Foundation

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
}

/// Stage 2: the requests of the planned searches, made politely by the scheduler. The stored
/// validators make them conditional (not for `explain`, which shows every listing).
enum FetchStage {
  static func run(
    _ planned: [PlannedSearch], sites: SiteCatalog, scheduler: RequestScheduler,
    memory: any ListingMemory, options: RunOptions, conditional: Bool = true,
    only taken: Set<SourceKey>? = nil
  ) async throws -> Fetched {
    let all = planned.flatMap { jobs(for: $0.search, sites: sites) }
    // A search asks all its sources, whichever worker fetches each.
    let asked = Dictionary(grouping: all, by: \.search).mapValues { Set($0.map(\.request.url)) }
    let work = taken.map { taken in all.filter { taken.contains($0.source) } } ?? all
    let cooldowns = try memory.cooldowns().mapValues { $0.bounded(from: options.now) }
    let retrying = retries(for: work, cooldowns: cooldowns, options: options)
    let validators = conditional ? try memory.validators(for: work.map(\.request.url)) : [:]
    let (outcomes, cooled) = await scheduler.run(
      work, validators: validators, cooldowns: cooldowns, retrying: Set(retrying.keys),
      now: options.now)
    return Fetched(
      asked: asked, outcomes: outcomes, cooled: cooled, retrying: retrying, cooldowns: cooldowns)
  }

  /// The fetch and read stages together, with the follow-up requests answers ask for (a site
  /// that gives ids first, then the listings of those ids), up to ``followUpRounds`` rounds,
  /// each as polite as the first.
  static func fetchAndRead(
    _ planned: [PlannedSearch], sites: SiteCatalog, scheduler: RequestScheduler,
    memory: any ListingMemory, options: RunOptions, conditional: Bool = true,
    only taken: Set<SourceKey>? = nil
  ) async throws -> (Fetched, Reading) {
    let fetched = try await run(
      planned, sites: sites, scheduler: scheduler, memory: memory, options: options,
      conditional: conditional, only: taken)
    let searches = planned.map(\.search)
    let cooldown = scheduler.settings.blockCooldown
    var reading = ReadStage.run(
      fetched, sites: sites, searches: searches, options: options, blockCooldown: cooldown)
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
      cooldowns.merge(reading.cooled) { _, newer in newer }
      let (outcomes, cooled) = await scheduler.run(
        reading.followUps, validators: [:], cooldowns: cooldowns, retrying: [], now: options.now)
      let more = Fetched(
        asked: [:], outcomes: outcomes, cooled: cooled, retrying: [:], cooldowns: cooldowns)
      reading.merge(
        ReadStage.run(
          more, sites: sites, searches: searches, options: options, blockCooldown: cooldown))
    }
    return (fetched, reading)
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
