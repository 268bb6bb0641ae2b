internal import Channels
internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore
internal import Presentation

/// One host's requests: in order, spaced politely, each with its retries; a refusal stops the
/// host for the rest of the run.
extension RequestScheduler {
  /// What to do after one answer.
  enum Step {
    /// The job is done.
    case done(FetchOutcome, Cooldown?)
    /// Ask again after this many seconds (429, 503); `note` says what was wrong with the
    /// server's `Retry-After`.
    case retry(after: Double, note: String?)
  }

  /// One host's jobs, in order, spaced politely; stops at a block.
  func runHost(
    _ jobs: [FetchJob], validators: [String: Validators], cooldown: Cooldown?, retry: Bool,
    now: Date, each: (@Sendable (FetchOutcome, Cooldown?) -> Void)? = nil
  ) async -> ([FetchOutcome], Cooldown?) {
    if let cooldown, !retry {
      let reason = Self.cooling(jobs[0].host, cooldown)
      let skipped = jobs.map { FetchOutcome(job: $0, status: .skipped(reason), attempts: 0) }
      for outcome in skipped { each?(outcome, nil) }
      return (skipped, nil)
    }
    let jobs = Self.ordered(jobs, after: cooldown)
    var outcomes: [FetchOutcome] = []
    var newCooldown: Cooldown?
    // A cool-down another worker set during this run (a shared pace says so).
    var cooledElsewhere: String?
    for (index, job) in jobs.enumerated() {
      defer {
        if let each, let last = outcomes.last {
          each(last, newCooldown)
          // Heard and read by the caller: the body is not kept for the rest of the run.
          outcomes[outcomes.count - 1] = last.withoutBody
        }
      }
      if let reason = Self.skipReason(job, refused: newCooldown) ?? cooledElsewhere {
        outcomes.append(FetchOutcome(job: job, status: .skipped(reason), attempts: 0))
        continue
      }
      if let pace = settings.pace,
        let slot = pace.reserve(host: job.host, spacing: delay(for: job.politeness))
      {
        // Every worker's requests to the host, one pace: wait for this worker's turn.
        if case .cooling(let cooldown) = slot {
          let reason = Self.cooling(job.host, cooldown)
          cooledElsewhere = reason
          outcomes.append(FetchOutcome(job: job, status: .skipped(reason), attempts: 0))
          continue
        }
        if case .wait(let seconds) = slot { await pause(seconds) }
      } else if index > 0 {
        await pause(delay(for: job.politeness))
      }
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

  /// Why a cooling host's requests are not sent.
  static func cooling(_ host: String, _ cooldown: Cooldown) -> String {
    "\(host) is cooling down until \(DateFormat.internet.string(from: cooldown.until)) "
      + "(\(cooldown.why))"
  }

  /// A host asked once despite its cool-down: the request the cool-down was not set by goes
  /// first, as it is the one worth the retry.
  static func ordered(_ jobs: [FetchJob], after cooldown: Cooldown?) -> [FetchJob] {
    guard let asked = cooldown?.urls else { return jobs }
    let known = Set(asked)
    return jobs.filter { !known.contains($0.request.url) }
      + jobs.filter { known.contains($0.request.url) }
  }

  /// Why a job is not sent: clarissa is stopping, or its host refused earlier in this run.
  static func skipReason(_ job: FetchJob, refused: Cooldown?) -> String? {
    if Task.isCancelled { return "clarissa is stopping" }
    return refused.map { "\(job.host) blocked this run: \($0.reason)" }
  }

  /// One job with its retries.
  func fetch(_ job: FetchJob, validators: Validators?, now: Date) async -> (
    FetchOutcome, Cooldown?
  ) {
    // A site that must be asked as its own app asks (ImmoScout's mobile API) names its
    // User-Agent in the request; every other request carries clarissa's (or the config's).
    var headers: [String: String] = [:]
    if !job.request.headers.keys.contains(where: { $0.lowercased() == "user-agent" }) {
      headers["User-Agent"] = settings.userAgent
    }
    if job.request.allowsConditionalGET, let validators {
      if let etag = validators.etag { headers["If-None-Match"] = etag }
      if let modified = validators.lastModified { headers["If-Modified-Since"] = modified }
    }
    var request = job.request
    request.url = expandSecrets(request)
    var attempt = 0
    var notes: [String] = []
    while true {
      attempt += 1
      let result = await fetcher.fetch(request, headers: headers)
      let received = Date()
      switch step(result, job, validators: validators, attempt: attempt, now: now) {
      case .done(var outcome, let cooldown):
        outcome.notes = notes + outcome.notes.filter { !notes.contains($0) }
        if case .success = result { outcome.receivedAt = received }
        return (outcome, cooldown)
      case .retry(let wait, let note):
        if let note, !notes.contains(note) { notes.append(note) }
        settings.pace?.hold(host: job.host, seconds: wait)
        await pause(wait)
      }
    }
  }

  /// What one answer means: done (with a cool-down for a refusal), or ask again.
  func step(
    _ result: Result<HTTPResponse, FetchError>, _ job: FetchJob, validators: Validators?,
    attempt: Int, now: Date
  ) -> Step {
    let response: HTTPResponse
    switch result {
    case .failure(let error):
      return .done(FetchOutcome(job: job, status: .failed(error.message), attempts: attempt), nil)
    case .success(let answer): response = answer
    }
    // A bot wall's page is a refusal whatever its status (200, 403, 429): not retried, not
    // read by the site, the host cools down (`SiteWall.recognised`).
    if let wall = SiteWall.recognised(
      status: response.status, headers: response.headers, body: response.body)
    {
      let cooldown = Cooldown.wall(
        wall, status: response.status, at: now, for: settings.blockCooldown)
      return .done(
        FetchOutcome(job: job, status: .blocked(cooldown.why), attempts: attempt), cooldown)
    }
    switch response.status {
    case 304:
      return .done(
        FetchOutcome(job: job, status: .notModified, validators: validators, attempts: attempt),
        nil)
    case 403:
      let answer = Excerpt.oneLine(response.body, droppingTags: true, limit: 120)
      let cooldown = Cooldown(
        until: now.addingTimeInterval(settings.blockCooldown), reason: "answered 403 Forbidden",
        since: now, status: 403, answer: answer.isEmpty ? nil : answer)
      return .done(
        FetchOutcome(job: job, status: .blocked(cooldown.why), attempts: attempt), cooldown)
    case 429, 503:
      return rateLimited(response, job, attempt: attempt, now: now)
    default:
      let kept = Validators(
        etag: response.headers["etag"], lastModified: response.headers["last-modified"])
      let stored = kept.etag == nil && kept.lastModified == nil ? nil : kept
      return .done(
        FetchOutcome(job: job, status: .answered(response), validators: stored, attempts: attempt),
        nil)
    }
  }

  /// A 429 or 503: wait as asked (or back off) and ask again, unless the wait is too long or
  /// the attempts are spent: then the host cools down for as long as it asked.
  func rateLimited(_ response: HTTPResponse, _ job: FetchJob, attempt: Int, now: Date) -> Step {
    let asked = RetryAfter(
      response.headers["retry-after"], date: response.headers["date"], now: now)
    let wait = asked.seconds ?? settings.baseBackoff * pow(2, Double(attempt - 1))
    let note = asked.problem.map { "\(job.host) answered \(response.status): \($0)" }
    guard wait > settings.maxRetryWait || attempt >= settings.maxAttempts else {
      return .retry(after: wait, note: note)
    }
    let reason =
      "answered \(response.status) \(attempt) times"
      + (wait > settings.maxRetryWait ? " and asked to wait \(ReportClock.span(wait))" : "")
    let cooldown = Cooldown(
      until: now.addingTimeInterval(min(max(wait, 60), Cooldown.ceiling)), reason: reason,
      since: now, status: response.status)
    var outcome = FetchOutcome(
      job: job, status: .failed("\(job.host) \(reason)"), attempts: attempt)
    outcome.notes = note.map { [$0] } ?? []
    return .done(outcome, cooldown)
  }
}
