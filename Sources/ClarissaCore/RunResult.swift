public import Foundation

/// What one run did, for reports and the exit status.
public struct RunResult: Sendable, Codable {
  /// One search's part of the run.
  public struct SearchOutcome: Sendable, Codable {
    /// The search's name.
    public var name: String
    /// How the search fared.
    public var status: SearchStatus
    /// Why it did not run, or how it ran.
    public var detail: String?
    /// When a `not-due` search is next due.
    public var next: Date? = nil
    /// Listings that are new this run (delivered now, or held), in site order.
    public var new: [Listing]
    /// Of `new`, those held for the end of quiet hours.
    public var held: Int
    /// Listings delivered this run that were found earlier (held, or retried after a failure).
    public var delivered: [Listing]
    /// Listings the sources returned, before filters.
    public var fetched: Int
    /// Listings that passed the filters.
    public var matched: Int
    /// Sources (requests) that failed, with the reason.
    public var failures: [String]
    /// What the sites recovered from or skipped.
    public var notes: [String]
    /// Listings recorded without being notified: a first run's (or `--prime`'s), or those of a
    /// source answering for the first time.
    public var primed: Int = 0
    /// New ids that are the same item as another listing (reposts, cross-posts): recorded and
    /// linked to it, not announced (`duplicates: fold`).
    public var folded: [Repost] = []
    /// New listings that are the same flat as one on another site (cross-site folding):
    /// recorded and linked to it, not announced; nil when none.
    public var onOtherSites: Int? = nil
    /// Listings seen before and announced again, each with its ``Listing/event`` (a price
    /// drop or rise, a return).
    public var changed: [Listing] = []
    /// The search's listings nobody has viewed, after the run (from the store's counts).
    public var unviewed: Int? = nil

    /// An outcome; the counts the run adds to later start at nothing.
    public init(
      name: String, status: SearchStatus, new: [Listing] = [], held: Int = 0,
      delivered: [Listing] = [], fetched: Int = 0, matched: Int = 0, failures: [String] = [],
      notes: [String] = []
    ) {
      self.name = name
      self.status = status
      self.new = new
      self.held = held
      self.delivered = delivered
      self.fetched = fetched
      self.matched = matched
      self.failures = failures
      self.notes = notes
    }
  }

  /// A listing folded into the one it repeats.
  public struct Repost: Sendable, Codable, Equatable {
    /// The repost's id.
    public var id: String
    /// Its title.
    public var title: String
    /// Its page.
    public var url: String
    /// The id of the listing it repeats.
    public var repostOf: String
    /// When the search first saw that listing; absent when it is new in this run too (then the
    /// report says "also posted as" under it).
    public var firstSeen: Date?

    /// A repost of `repostOf`.
    public init(id: String, title: String, url: String, repostOf: String, firstSeen: Date?) {
      self.id = id
      self.title = title
      self.url = url
      self.repostOf = repostOf
      self.firstSeen = firstSeen
    }
  }

  /// When the run happened.
  public var time: Date
  /// Per search, in config order.
  public var searches: [SearchOutcome]
  /// Hosts that blocked us this run (reported once) or are cooling down.
  public var blocks: [String]
  /// Deliveries that failed (retried on the next run).
  public var deliveryFailures: [String]
  /// Whether state was left untouched (`--dry-run`).
  public var dryRun: Bool
  /// Feeds or pages that could not be written.
  public var outputProblems: [String] = []
  /// Per host: requests made this run and how they ended (for `/metrics`).
  public var hosts: [String: HostTally] = [:]
  /// Per channel: deliveries accepted and refused this run (for `/metrics`).
  public var channels: [String: ChannelTally] = [:]
  /// Sources this worker took over from a worker whose lease ran out (a shared store).
  public var takeovers = 0
  /// The worker that ran, when workers share the store: searches it took none of are said in
  /// one line, not one each.
  public var sharedBy: String?
  /// A worker whose round outlasted the interval says so, with the figures (once a round).
  public var behind: String?

  /// A run's result; the tallies start empty.
  public init(
    time: Date, searches: [SearchOutcome], blocks: [String] = [],
    deliveryFailures: [String] = [], dryRun: Bool
  ) {
    self.time = time
    self.searches = searches
    self.blocks = blocks
    self.deliveryFailures = deliveryFailures
    self.dryRun = dryRun
  }

  /// One host's requests in a run.
  public struct HostTally: Sendable, Codable, Equatable {
    /// Requests sent (each retry after 429/503 counts).
    public var requests = 0
    /// Requests that brought no usable answer (network errors, HTTP errors, blocks).
    public var failures = 0
    /// Requests answered 304 Not Modified.
    public var notModified = 0
    /// Jobs not sent because the host was cooling down.
    public var skipped = 0
    /// An empty tally.
    public init() {}

    /// Adds another tally of the same host.
    public mutating func add(_ other: HostTally) {
      requests += other.requests
      failures += other.failures
      notModified += other.notModified
      skipped += other.skipped
    }
  }

  /// One channel's deliveries in a run.
  public struct ChannelTally: Sendable, Codable, Equatable {
    /// Listings the channel accepted.
    public var delivered = 0
    /// Listings it refused (each retried on a later run).
    public var failed = 0
    /// An empty tally.
    public init() {}

    /// Adds another tally of the same channel.
    public mutating func add(_ other: ChannelTally) {
      delivered += other.delivered
      failed += other.failed
    }
  }

  /// Every listing new this run.
  public var newListings: [Listing] { searches.flatMap(\.new) }
  /// Whether any source failed.
  public var sourcesFailed: Bool { searches.contains { !$0.failures.isEmpty } }
  /// Whether searches were due but every host they ask was cooling down: nothing was checked.
  public var everySourceCoolingDown: Bool {
    let tried = searches.filter(\.status.wasTried)
    return !tried.isEmpty && tried.allSatisfy { $0.status == .coolingDown }
  }
}

/// How one search fared in a run; the raw values are the JSON report's strings.
public enum SearchStatus: String, Sendable, Codable, CaseIterable {
  /// It ran.
  case ran
  /// It ran and recorded its current listings without notifying them.
  case primed
  /// No source answered.
  case failed
  /// Every host it asks is cooling down: nothing was asked.
  case coolingDown = "cooling-down"
  /// Its interval has not passed.
  case notDue = "not-due"
  /// A `skip` quiet-hours window is on.
  case quietHours = "quiet-hours"
  /// `enabled: false`.
  case disabled
  /// `--search` named another.
  case notSelected = "not-selected"

  /// Whether the search was due and tried.
  public var wasTried: Bool { [.ran, .primed, .failed, .coolingDown].contains(self) }
}

extension RunResult {
  /// A result holding one new listing, for `notify test` on the terminal channel.
  public static func sample(_ listing: Listing, search: String) -> RunResult {
    RunResult(
      time: Date(),
      searches: [
        SearchOutcome(
          name: search, status: .ran, new: [listing], held: 0, delivered: [], fetched: 1,
          matched: 1, failures: [], notes: [])
      ], blocks: [], deliveryFailures: [], dryRun: false)
  }
}

extension RunResult.SearchOutcome {
  /// The ids of this run's other posts of a new listing (folded into it).
  public func alsoPosted(as id: String) -> [String] {
    folded.filter { $0.repostOf == id && $0.firstSeen == nil }.map(\.id)
  }
}
