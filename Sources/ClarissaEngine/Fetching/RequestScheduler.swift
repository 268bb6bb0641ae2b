public import ClarissaCore
public import Curl
public import Foundation
public import ListingStore

/// One request to make, for one search.
public struct FetchJob: Sendable {
  /// The search it serves.
  public var search: String
  /// The request.
  public var request: RequestSpec
  /// The politeness of the request's site.
  public var politeness: Politeness

  /// Creates a job.
  public init(search: String, request: RequestSpec, politeness: Politeness) {
    self.search = search
    self.request = request
    self.politeness = politeness
  }

  /// `host:port`, the unit politeness and cool-downs apply to.
  public var host: String { Self.host(of: request.url) }

  /// The source it fetches, as workers sharing a store lease it.
  public var source: SourceKey { SourceKey(search: search, url: request.url) }

  static func host(of url: String) -> String {
    guard let components = URLComponents(string: url), let host = components.host else {
      return url
    }
    return components.port.map { "\(host):\($0)" } ?? host
  }
}

/// What became of one job.
public struct FetchOutcome: Sendable {
  /// How it ended.
  public enum Status: Sendable {
    /// The server answered (any status but 304).
    case answered(HTTPResponse)
    /// 304: nothing changed since the validators were stored.
    case notModified
    /// No usable answer.
    case failed(String)
    /// The host refused us (403, a block page); it is cooling down.
    case blocked(String)
    /// Not sent: the host is cooling down after an earlier block or rate limit.
    case skipped(String)
  }

  /// The job.
  public var job: FetchJob
  /// How it ended.
  public var status: Status
  /// Validators to remember for the URL.
  public var validators: Validators?
  /// Attempts made (retries after 429/503 count).
  public var attempts: Int
  /// What was wrong with the answer's headers (a `Retry-After` out of range), for the report.
  public var notes: [String] = []
  /// When the answer came, on the machine's clock; nil: none came.
  public var receivedAt: Date? = nil

  /// The same outcome without the answer's body: what the scheduler keeps of an outcome once
  /// `each` has heard of it, so that a 15 MB feed is freed as soon as it is read, not at the end
  /// of the run.
  var withoutBody: FetchOutcome {
    guard case .answered(var response) = status else { return self }
    var kept = self
    response.body = []
    kept.status = .answered(response)
    return kept
  }
}

/// How the scheduler behaves; the defaults are the polite ones.
public struct SchedulerSettings: Sendable {
  /// Least time between two requests to one host (the larger of the site's and the config's).
  public var minimumDelay: Double?
  /// Random time added to each delay.
  public var jitter: Double?
  /// Hosts fetched from at the same time.
  public var maxConcurrentHosts: Int
  /// Attempts for a 429 or 503 before giving up for this run.
  public var maxAttempts: Int
  /// First backoff when the server gives no `Retry-After`.
  public var baseBackoff: Double
  /// Longest wait accepted inside a run; a longer `Retry-After` becomes a cool-down.
  public var maxRetryWait: Double
  /// How long a blocked host is left alone.
  public var blockCooldown: Double
  /// User-Agent sent with every request.
  public var userAgent: String
  /// Environment for `${SECRET}` references in URLs.
  public var environment: [String: String]
  /// A fixed delay that replaces the sites' floors: only for answers nobody sends (replay) and
  /// for benchmarks against a local server.
  public var delayOverride: Double?
  /// Called after each request with (done, total), for a progress line.
  public var progress: (@Sendable (Int, Int) -> Void)?
  /// The pace all workers of a shared store keep per host; nil: this process's own.
  public var pace: SharedPace?

  /// Creates settings.
  public init(
    minimumDelay: Double? = nil, jitter: Double? = nil, maxConcurrentHosts: Int = 4,
    maxAttempts: Int = 3, baseBackoff: Double = 2, maxRetryWait: Double = 60,
    blockCooldown: Double = 6 * 3600, userAgent: String = HTTPSettings.defaultUserAgent,
    environment: [String: String] = [:]
  ) {
    self.minimumDelay = minimumDelay
    self.jitter = jitter
    self.maxConcurrentHosts = maxConcurrentHosts
    self.maxAttempts = maxAttempts
    self.baseBackoff = baseBackoff
    self.maxRetryWait = maxRetryWait
    self.blockCooldown = blockCooldown
    self.userAgent = userAgent
    self.environment = environment
    self.progress = nil
    self.delayOverride = nil
    self.pace = nil
  }
}

/// Runs fetch jobs politely: one request at a time per host, spaced by the delay with jitter;
/// hosts in parallel up to a limit; 429 and 503 retried with backoff honouring `Retry-After`;
/// 403 taken as a block that cools the host down; conditional GET from stored validators.
public struct RequestScheduler: Sendable {
  let fetcher: any Fetcher
  let settings: SchedulerSettings

  /// Creates a scheduler over `fetcher`.
  public init(fetcher: any Fetcher, settings: SchedulerSettings) {
    self.fetcher = fetcher
    self.settings = settings
  }

  /// Runs every job; `cooldowns` and `validators` come from the state, `now` from the run's clock
  /// (every cool-down set is measured from it). A host in `retrying` is asked once despite its
  /// cool-down: its first request (one the cool-down was not set by, first) goes out, and only if
  /// that is not refused again do its other requests follow.
  /// Returns one outcome per job, and the cool-downs to store (a renewed one included). `each`
  /// hears of every outcome the moment it is known, with its host's cool-down set so far this
  /// run (from any host's task: the caller serialises); with `each`, the outcomes returned keep
  /// no answer's body (the caller had it).
  public func run(
    _ jobs: [FetchJob], validators: [String: Validators], cooldowns: [String: Cooldown],
    retrying: Set<String> = [], now: Date,
    each: (@Sendable (FetchOutcome, Cooldown?) -> Void)? = nil
  ) async -> (outcomes: [FetchOutcome], cooldowns: [String: Cooldown]) {
    var byHost: [String: [FetchJob]] = [:]
    var order: [String] = []
    for job in jobs {
      if byHost[job.host] == nil { order.append(job.host) }
      byHost[job.host, default: []].append(job)
    }
    var outcomes: [FetchOutcome] = []
    var newCooldowns: [String: Cooldown] = [:]
    await withTaskGroup(of: ([FetchOutcome], Cooldown?, String).self) { group in
      var pending = order[...]
      func startNext() {
        guard let host = pending.popFirst(), let hostJobs = byHost[host] else { return }
        let cooldown = cooldowns[host].flatMap { $0.until > now ? $0 : nil }
        let retry = retrying.contains(host)
        group.addTask {
          let (results, cooled) = await runHost(
            hostJobs, validators: validators, cooldown: cooldown, retry: retry, now: now,
            each: each)
          return (results, cooled, host)
        }
      }
      for _ in 0..<max(1, settings.maxConcurrentHosts) { startNext() }
      while let (results, cooled, host) = await group.next() {
        outcomes += results
        settings.progress?(outcomes.count, jobs.count)
        if let cooled { newCooldowns[host] = cooled }
        startNext()
      }
    }
    return (outcomes, newCooldowns)
  }

  /// The same scheduler, keeping `pace` with the other workers.
  public func pacing(_ pace: SharedPace) -> RequestScheduler {
    var settings = settings
    settings.pace = pace
    return RequestScheduler(fetcher: fetcher, settings: settings)
  }

  func delay(for politeness: Politeness) -> Double {
    if let override = settings.delayOverride { return override }
    let base =
      settings.minimumDelay.map { max($0, politeness.minimumDelay) } ?? politeness.minimumDelay
    let jitter = settings.jitter.map { max($0, politeness.jitter) } ?? politeness.jitter
    return base + (jitter > 0 ? Double.random(in: 0...jitter) : 0)
  }

  func pause(_ seconds: Double) async {
    guard seconds > 0 else { return }
    try? await Task.sleep(nanoseconds: CheckedNumber.nanoseconds(seconds))
  }

  /// `${NAME}` in a URL, for the names the site listed as secrets.
  func expandSecrets(_ request: RequestSpec) -> String {
    guard let names = request.context["secrets"] else { return request.url }
    var url = request.url
    for name in names.split(separator: ",") {
      url = url.replacingOccurrences(
        of: "${\(name)}", with: URLQueryValue.escape(settings.environment[String(name)] ?? ""))
    }
    return url
  }
}

/// Percent-encoding for a value placed in a query string.
enum URLQueryValue {
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
  }
}
