import ClarissaCore
import Foundation

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
  /// Returns one outcome per job, and the cool-downs to store (a renewed one included).
  public func run(
    _ jobs: [FetchJob], validators: [String: Validators], cooldowns: [String: Cooldown],
    retrying: Set<String> = [], now: Date
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
            hostJobs, validators: validators, cooldown: cooldown, retry: retry, now: now)
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

  /// One host's jobs, in order, spaced politely; stops at a block.
  private func runHost(
    _ jobs: [FetchJob], validators: [String: Validators], cooldown: Cooldown?, retry: Bool,
    now: Date
  ) async -> ([FetchOutcome], Cooldown?) {
    var jobs = jobs
    if let cooldown, !retry {
      let reason =
        "\(jobs[0].host) is cooling down until "
        + "\(ISO8601DateFormatter().string(from: cooldown.until)) (\(cooldown.why))"
      return (jobs.map { FetchOutcome(job: $0, status: .skipped(reason), attempts: 0) }, nil)
    }
    if let cooldown, let asked = cooldown.urls {
      // The request the cool-down was not set by goes first: it is the one worth the retry.
      let known = Set(asked)
      jobs =
        jobs.filter { !known.contains($0.request.url) }
        + jobs.filter {
          known.contains($0.request.url)
        }
    }
    var outcomes: [FetchOutcome] = []
    var newCooldown: Cooldown?
    for (index, job) in jobs.enumerated() {
      if Task.isCancelled {
        outcomes.append(
          FetchOutcome(job: job, status: .skipped("clarissa is stopping"), attempts: 0))
        continue
      }
      if let newCooldown {
        outcomes.append(
          FetchOutcome(
            job: job, status: .skipped("\(job.host) blocked this run: \(newCooldown.reason)"),
            attempts: 0))
        continue
      }
      if index > 0 { await pause(delay(for: job.politeness)) }
      let (outcome, cooled) = await fetch(job, validators: validators[job.request.url], now: now)
      outcomes.append(outcome)
      // Remembered with every URL of the host this run, so that only a URL changed since is
      // worth asking again; a renewed refusal keeps the date of the first.
      newCooldown = cooled.map {
        var stored = $0
        stored.urls = jobs.map(\.request.url)
        stored.since = cooldown?.since ?? now
        return stored
      }
    }
    return (outcomes, newCooldown)
  }

  /// One job with its retries.
  private func fetch(_ job: FetchJob, validators: Validators?, now: Date) async -> (
    FetchOutcome, Cooldown?
  ) {
    var headers = ["User-Agent": settings.userAgent]
    if job.request.allowsConditionalGET, let validators {
      if let etag = validators.etag { headers["If-None-Match"] = etag }
      if let modified = validators.lastModified { headers["If-Modified-Since"] = modified }
    }
    var request = job.request
    request.url = expandSecrets(request)
    var attempt = 0
    while true {
      attempt += 1
      let result = await fetcher.fetch(request, headers: headers)
      switch result {
      case .failure(let error):
        return (FetchOutcome(job: job, status: .failed(error.message), attempts: attempt), nil)
      case .success(let response):
        switch response.status {
        case 304:
          return (
            FetchOutcome(job: job, status: .notModified, validators: validators, attempts: attempt),
            nil
          )
        case 403:
          let answer = Excerpt.oneLine(response.body, droppingTags: true, limit: 120)
          let cooldown = Cooldown(
            until: now.addingTimeInterval(settings.blockCooldown), reason: "answered 403 Forbidden",
            since: now, status: 403, answer: answer.isEmpty ? nil : answer)
          return (
            FetchOutcome(job: job, status: .blocked(cooldown.why), attempts: attempt), cooldown
          )
        case 429, 503:
          let wait =
            Self.retryAfter(response.headers["retry-after"], date: response.headers["date"], now: now)
            ?? settings.baseBackoff
            * pow(2, Double(attempt - 1))
          if wait > settings.maxRetryWait || attempt >= settings.maxAttempts {
            let reason =
              "answered \(response.status) \(attempt) times"
              + (wait > settings.maxRetryWait ? " and asked to wait \(Int(wait)) s" : "")
            let cooldown = Cooldown(
              until: now.addingTimeInterval(max(wait, 60)), reason: reason, since: now,
              status: response.status)
            return (
              FetchOutcome(job: job, status: .failed("\(job.host) \(reason)"), attempts: attempt),
              cooldown
            )
          }
          await pause(wait)
          continue
        default:
          let kept = Validators(
            etag: response.headers["etag"], lastModified: response.headers["last-modified"])
          let stored = kept.etag == nil && kept.lastModified == nil ? nil : kept
          return (
            FetchOutcome(
              job: job, status: .answered(response), validators: stored, attempts: attempt), nil
          )
        }
      }
    }
  }

  private func delay(for politeness: Politeness) -> Double {
    if let override = settings.delayOverride { return override }
    let base =
      settings.minimumDelay.map { max($0, politeness.minimumDelay) } ?? politeness.minimumDelay
    let jitter = settings.jitter.map { max($0, politeness.jitter) } ?? politeness.jitter
    return base + (jitter > 0 ? Double.random(in: 0...jitter) : 0)
  }

  private func pause(_ seconds: Double) async {
    guard seconds > 0 else { return }
    try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
  }

  /// `${NAME}` in a URL, for the names the site listed as secrets.
  private func expandSecrets(_ request: RequestSpec) -> String {
    guard let names = request.context["secrets"] else { return request.url }
    var url = request.url
    for name in names.split(separator: ",") {
      url = url.replacingOccurrences(
        of: "${\(name)}", with: URLQueryValue.escape(settings.environment[String(name)] ?? ""))
    }
    return url
  }

  /// Seconds from a `Retry-After` header: a number, or an HTTP date. A date is measured from
  /// the answer's own `Date` (the server's clock), else from the run's clock: never from this
  /// machine's clock, which a run under `--now` (and every cool-down) does not use.
  static func retryAfter(_ value: String?, date: String? = nil, now: Date) -> Double? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
      return nil
    }
    if let seconds = Double(value) { return max(0, seconds) }
    guard let until = httpDate(value) else { return nil }
    let from = date.flatMap(httpDate) ?? now
    return max(0, until.timeIntervalSince(from))
  }

  /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`).
  static func httpDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
  }
}

/// Percent-encoding for a value placed in a query string.
enum URLQueryValue {
  static func escape(_ text: String) -> String {
    text.addingPercentEncoding(
      withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
  }
}
