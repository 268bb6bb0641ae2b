internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore
internal import Presentation

/// What one request brought back for a search.
struct SourceBatch: Sendable {
  /// The request's URL: what identifies a source across runs.
  var url: String
  /// The listings, in the site's order.
  var listings: [Listing]
  /// Listings of the search's last answer passed over unread, unchanged (``UnchangedItems``).
  var unchanged: [ListingKey] = []
  /// Of `listings`, the digest of the item each was read from, for those that may be passed
  /// over next time (none was cut to the limits).
  var digests: [ListingKey: String] = [:]

  /// How many listings the source answered with, read or passed over.
  var count: Int { listings.count + unchanged.count }
}

/// What one search's sources said.
struct SearchReading: Sendable {
  /// Listings per source that answered (a 304 answers with none).
  var batches: [SourceBatch] = []
  /// Sources that failed, with why.
  var failures: [String] = []
  /// What the sites recovered from or skipped.
  var notes: [String] = []
  /// A request was skipped because its host is cooling down.
  var cooling = false
  /// Validators to keep, by URL (kept with the listings they vouch for).
  var validators: [String: Validators] = [:]
  /// When the last of its answers came, on the run's clock: its listings were there then.
  var answeredAt: Date?

  /// An answer came at `time`.
  mutating func heard(at time: Date) { answeredAt = max(answeredAt ?? time, time) }

  /// The item digests of the listings read, the first source's where two gave one listing
  /// (the one the judge keeps).
  var digests: [ListingKey: String] {
    var all: [ListingKey: String] = [:]
    for batch in batches { all.merge(batch.digests) { first, _ in first } }
    return all
  }
}

/// What all the sources said: per search, and the cool-downs that changed.
struct Reading: Sendable {
  /// Per search name.
  var searches: [String: SearchReading] = [:]
  /// Refusals and cool-downs said once per host, for the report.
  var blocks: [String] = []
  /// Cool-downs to store (set or renewed this run), by host.
  var cooled: [String: Cooldown] = [:]
  /// Hosts asked once that answered: their cool-down is lifted.
  var lifted: [String] = []
  /// Requests the answers asked for next (a site that gives ids first, then listings).
  var followUps: [FetchJob] = []
  /// Per host: the requests made and how they ended.
  var hosts: [String: RunResult.HostTally] = [:]

  /// A later round's reading added to this one.
  mutating func merge(_ other: Reading) {
    for (name, more) in other.searches {
      var search = searches[name] ?? SearchReading()
      search.batches += more.batches
      search.failures += more.failures
      search.notes += more.notes
      search.cooling = search.cooling || more.cooling
      search.validators.merge(more.validators) { first, _ in first }
      if let time = more.answeredAt { search.heard(at: time) }
      searches[name] = search
    }
    blocks += other.blocks.filter { !blocks.contains($0) }
    for (host, tally) in other.hosts { hosts[host, default: RunResult.HostTally()].add(tally) }
    cooled.merge(other.cooled) { _, newer in newer }
    lifted += other.lifted.filter { !lifted.contains($0) }
    followUps = other.followUps
  }
}

/// Stage 3: the one place where HTTP statuses, the sites' errors, block pages and cool-downs
/// meet, every time measured on the run's clock. The only stage that calls the site adapters.
struct ReadStage {
  let sites: SiteCatalog
  let siteOf: [String: String]
  let options: RunOptions
  let blockCooldown: Double
  /// Per search, the items of its last answer its site may pass over (``UnchangedItems``).
  let known: [String: KnownItems]
  private(set) var reading = Reading()
  private var fetched: Fetched

  init(
    sites: SiteCatalog, searches: [Search], options: RunOptions, blockCooldown: Double,
    fetched: Fetched, known: [String: KnownItems] = [:]
  ) {
    self.sites = sites
    self.siteOf = Dictionary(searches.map { ($0.name, $0.site) }) { first, _ in first }
    self.options = options
    self.blockCooldown = blockCooldown
    self.fetched = fetched
    self.known = known
    reading.cooled = fetched.cooled
  }

  /// Reads every outcome.
  static func run(
    _ fetched: Fetched, sites: SiteCatalog, searches: [Search], options: RunOptions,
    blockCooldown: Double, known: [String: KnownItems] = [:]
  ) -> Reading {
    var stage = ReadStage(
      sites: sites, searches: searches, options: options, blockCooldown: blockCooldown,
      fetched: fetched, known: known)
    for name in fetched.asked.keys { stage.reading.searches[name] = SearchReading() }
    stage.liftAnswered()
    for outcome in fetched.outcomes { stage.read(outcome) }
    return stage.reading
  }

  /// Counts the request for its host.
  private mutating func tally(_ outcome: FetchOutcome) {
    var tally = reading.hosts[outcome.job.host] ?? RunResult.HostTally()
    switch outcome.status {
    case .skipped: tally.skipped += 1
    case .notModified: tally.notModified += 1
    case .failed, .blocked: tally.failures += 1
    case .answered(let response) where response.status >= 400: tally.failures += 1
    case .answered: break
    }
    if case .skipped = outcome.status {} else { tally.requests += max(outcome.attempts, 1) }
    reading.hosts[outcome.job.host] = tally
  }

  private mutating func read(_ outcome: FetchOutcome) {
    let job = outcome.job
    let label = job.request.city.map { "\(job.host) (\($0))" } ?? job.request.url
    tally(outcome)
    // What was wrong with a server's headers is said once for the run, naming the host.
    for note in outcome.notes where !reading.blocks.contains(note) { reading.blocks.append(note) }
    switch outcome.status {
    case .notModified:
      let received = options.time(at: outcome.receivedAt)
      add(job.search) {
        $0.batches.append(SourceBatch(url: job.request.url, listings: []))
        $0.heard(at: received)
      }
    case .failed(let reason):
      add(job.search) { $0.failures.append("\(label): \(reason)") }
    case .blocked(let reason):
      // A wall says "blocked by DataDome" itself.
      let said = reason.hasPrefix("blocked by ") ? reason : "blocked: \(reason)"
      add(job.search) { $0.failures.append("\(label): \(said)") }
      if let cooldown = reading.cooled[job.host] { report(job.host, cooldown) }
    case .skipped(let reason):
      skipped(job, label: label, reason: reason)
    case .answered(let response):
      answered(
        job, response, at: options.time(at: outcome.receivedAt), label: label,
        validators: outcome.validators)
    }
  }

  private mutating func skipped(_ job: FetchJob, label: String, reason: String) {
    add(job.search) { $0.notes.append("\(label): skipped: \(reason)") }
    // A host that refused earlier in this run is cooling down as much as one refused before.
    let cooldown = reading.cooled[job.host] ?? fetched.cooldowns[job.host]
    if let cooldown, cooldown.until > options.now {
      add(job.search) { $0.cooling = true }
      // A host that refused this run is reported once, by its refusal.
      if reading.cooled[job.host] == nil { reportCooling(job.host, cooldown, search: job.search) }
    } else if !reading.blocks.contains(reason) {
      reading.blocks.append(reason)
    }
  }

  /// An answer that came at `received` (on the run's clock).
  private mutating func answered(
    _ job: FetchJob, _ response: HTTPResponse, at received: Date, label: String,
    validators: Validators?
  ) {
    guard let site = sites.site(siteOf[job.search] ?? "") else { return }
    // A 403 never arrives here: the scheduler makes it a block (`.blocked`) and cools the host
    // down. Any other status outside 2xx is a failure of the source; sites read 2xx answers
    // only (a block page in a 200 is theirs to recognise).
    guard (200..<300).contains(response.status) else {
      add(job.search) { $0.failures.append("\(label): HTTP \(response.status)") }
      return
    }
    var source = SourceResponse(
      request: job.request, status: response.status, headers: response.headers,
      body: response.body, finalURL: response.finalURL, receivedAt: received)
    // A follow-up's listings belong to the request that asked for it (the source).
    let origin = job.request.context[Self.sourceKey]
    if origin == nil { source.known = known[job.search] }
    do {
      var batch = try site.listings(from: source)
      if !batch.unchanged.isEmpty,
        batch.listings.count + batch.unchanged.count > options.limits.itemsPerSource
      {
        // The first items are kept, read or not: an answer over the limit is read whole.
        source.known?.ids = [:]
        batch = try site.listings(from: source)
      }
      // The listings handed over whole, so that they are checked where they are.
      let read = batch.listings
      batch.listings = []
      let (listings, bounded, cut) = ListingCheck.answerNamingCuts(
        consume read, limits: options.limits)
      var answer = SourceBatch(url: origin ?? job.request.url, listings: listings)
      answer.unchanged = batch.unchanged.map { ListingKey(site: site.id, id: $0) }
      if !batch.digests.isEmpty {
        // A listing cut to the limits is read again every time (its cut is reported).
        for listing in listings where !cut.contains(listing.id) {
          answer.digests[listing.key] = batch.digests[listing.id]
        }
      }
      add(job.search) {
        $0.notes += (batch.notes + bounded).map { "\(label): \($0)" }
        if let validators, origin == nil { $0.validators[job.request.url] = validators }
        if batch.followUps.isEmpty { $0.batches.append(answer) }
        $0.heard(at: received)
      }
      for request in batch.followUps {
        var next = request
        next.context[Self.sourceKey] = origin ?? job.request.url
        next.allowsPrivateRedirects = job.request.allowsPrivateRedirects
        reading.followUps.append(
          FetchJob(search: job.search, request: next, politeness: site.politeness))
      }
    } catch let error as SiteError {
      add(job.search) { $0.failures.append("\(label): \(error.message)") }
      if error.isBlock { block(job.host, error.message) }
    } catch {
      add(job.search) { $0.failures.append("\(label): \(error)") }
    }
  }

  /// The context key naming the request a follow-up was asked for.
  static let sourceKey = "clarissa.source"

  private mutating func add(_ search: String, _ change: (inout SearchReading) -> Void) {
    change(&reading.searches[search, default: SearchReading()])
  }

  /// A block page read from an answer (a 200 saying "blocked"): the host cools down as after a
  /// 403, measured on the run's clock.
  private mutating func block(_ host: String, _ reason: String) {
    let previous = fetched.cooldowns[host].flatMap { $0.until > options.now ? $0 : nil }
    let urls =
      fetched.urls[host] ?? fetched.outcomes.filter { $0.job.host == host }.map(\.job.request.url)
    let cooldown = Cooldown(
      until: options.now.addingTimeInterval(blockCooldown), reason: "answered with a block page",
      since: previous?.since ?? options.now, answer: reason, urls: urls)
    reading.cooled[host] = cooldown
    report(host, cooldown)
  }

  /// A host asked once that did not refuse again is cooling down no more.
  private mutating func liftAnswered() {
    for (host, why) in fetched.retrying.sorted(by: { $0.key < $1.key })
    where reading.cooled[host] == nil {
      reading.lifted.append(host)
      let searches = Set(fetched.outcomes.filter { $0.job.host == host }.map(\.job.search))
      for search in searches.sorted() {
        add(search) {
          $0.notes.append("\(host) was asked once because \(why), and answered: cool-down lifted")
        }
      }
    }
  }

  /// The refusal said once per host, with advice that fits the host.
  private mutating func report(_ host: String, _ cooldown: Cooldown) {
    let message = cooldown.advice(
      host: host, renewed: fetched.retrying[host], now: options.now, timeZone: options.timeZone)
    if !reading.blocks.contains(message) { reading.blocks.append(message) }
  }

  /// A host skipped because it is still cooling down: until when, why, and the two ways to ask
  /// it sooner.
  private mutating func reportCooling(_ host: String, _ cooldown: Cooldown, search: String) {
    let when = ReportClock.time(cooldown.until, now: options.now, timeZone: options.timeZone)
    let prefix = "\(host) is cooling down until \(when) (\(cooldown.why)): not asked this run"
    guard !reading.blocks.contains(where: { $0.hasPrefix(prefix) }) else { return }
    reading.blocks.append(
      prefix + "; ask it once with 'clarissa run --search \(search) --force', "
        + "or clear with 'clarissa state cooldowns --clear \(host)'")
  }
}
