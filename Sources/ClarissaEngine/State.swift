import ClarissaCore
import Foundation

/// Everything clarissa remembers between runs, as written to the state file: JSON with a schema
/// version and sorted keys, readable and diff-friendly in git.
public struct State: Codable, Sendable, Equatable {
  /// The format version this build writes; a newer file is refused, never overwritten.
  /// Version 2 writes seen listings one per line (`StateCodec`); version 1 files still load.
  public static let currentVersion = 2

  /// The file's format version.
  public var version: Int
  /// Per search: when it last ran and what it has seen.
  public var searches: [String: SearchState]
  /// Per URL: the validators for conditional GET.
  public var validators: [String: Validators]
  /// Per host: blocked until this time.
  public var cooldowns: [String: Cooldown]
  /// Listings found during quiet hours, waiting for the window to end.
  public var held: [HeldListing]
  /// Deliveries a channel refused, retried on the next run.
  public var undelivered: [Undelivered]
  /// The latest new listings per search, for the Atom feeds and the HTML page.
  public var recent: [RecentListing]

  /// An empty state.
  public init() {
    version = Self.currentVersion
    searches = [:]
    validators = [:]
    cooldowns = [:]
    held = []
    undelivered = []
    recent = []
  }

  private enum CodingKeys: String, CodingKey {
    case version, searches, validators, cooldowns, held, undelivered, recent
  }

  /// Reads a state file; lists added in later versions of the format may be absent.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    version = try container.decode(Int.self, forKey: .version)
    searches = try container.decode([String: SearchState].self, forKey: .searches)
    validators =
      try container.decodeIfPresent([String: Validators].self, forKey: .validators) ?? [:]
    cooldowns = try container.decodeIfPresent([String: Cooldown].self, forKey: .cooldowns) ?? [:]
    held = try container.decodeIfPresent([HeldListing].self, forKey: .held) ?? []
    undelivered = try container.decodeIfPresent([Undelivered].self, forKey: .undelivered) ?? []
    recent = try container.decodeIfPresent([RecentListing].self, forKey: .recent) ?? []
  }
}

/// A listing some channels still have to accept.
public struct Undelivered: Codable, Sendable, Equatable {
  /// The search that found it.
  public var search: String
  /// The listing.
  public var listing: Listing
  /// Channels that have not accepted it yet.
  public var channels: [String]
  /// Attempts so far.
  public var attempts: Int
  /// The last failure.
  public var lastError: String

  /// Creates an entry.
  public init(
    search: String, listing: Listing, channels: [String], attempts: Int, lastError: String
  ) {
    self.search = search
    self.listing = listing
    self.channels = channels
    self.attempts = attempts
    self.lastError = lastError
  }
}

/// One search's memory.
public struct SearchState: Codable, Sendable, Equatable {
  /// When the search last ran and reached a source (or had none to reach).
  public var lastRun: Date?
  /// When a run last tried the search, whatever came of it.
  public var lastAttempt: Date?
  /// Listing ids with when they were first and last seen, and where they were delivered.
  public var seen: [String: SeenListing]
  /// The request URLs that have answered at least once: a source answering for the first time
  /// is primed. Nil in a state written before clarissa kept them (every source counts as known).
  public var sources: [String]?

  /// Retries after an attempt that reached no source wait this long at most (less when the
  /// search's own interval is shorter).
  public static let retryDelay: Double = 900

  /// When the search is next due, given its interval; nil when it is due now (it never ran).
  /// After an attempt that reached no source, it is retried after the interval or
  /// ``retryDelay``, whichever is shorter: never at once, which in `watch` would ask a failing
  /// host again every second.
  public func nextDue(interval: Double) -> Date? {
    let retry = min(interval, Self.retryDelay)
    switch (lastRun, lastAttempt) {
    case (nil, nil): return nil
    case (nil, let attempt?): return attempt.addingTimeInterval(retry)
    case (let run?, let attempt?) where attempt > run: return attempt.addingTimeInterval(retry)
    case (let run?, _): return run.addingTimeInterval(interval)
    }
  }

  /// Whether `url` has answered before: a source answering for the first time is primed. A
  /// state written before sources were kept knows every source.
  public func knows(source url: String) -> Bool { sources?.contains(url) ?? true }

  /// Adds the sources that answered, keeping only those the search still asks.
  mutating func remember(sources answered: Set<String>, current: Set<String>) {
    sources = Set(sources ?? Array(answered)).union(answered).intersection(current).sorted()
  }

  /// True once a run has reached the search's sources (or found it had none to reach): until
  /// then the next run primes it, whatever failed runs left behind.
  public var hasRun: Bool { lastRun != nil || !seen.isEmpty }

  /// Creates an empty search state.
  public init(
    lastRun: Date? = nil, lastAttempt: Date? = nil, seen: [String: SeenListing] = [:],
    sources: [String]? = []
  ) {
    self.lastRun = lastRun
    self.lastAttempt = lastAttempt
    self.seen = seen
    self.sources = sources
  }
}

/// A listing id's history.
public struct SeenListing: Codable, Sendable, Equatable {
  /// First time it was seen.
  public var firstSeen: Date
  /// Last time it was seen (retention counts from here).
  public var lastSeen: Date
  /// Channels that accepted it (at-least-once: recorded only after they did).
  public var deliveredTo: [String]
  /// Channels it still has to reach (a failed channel is retried on the next run).
  public var pending: [String]

  /// Creates a record.
  public init(firstSeen: Date, lastSeen: Date, deliveredTo: [String] = [], pending: [String] = []) {
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
    self.deliveredTo = deliveredTo
    self.pending = pending
  }
}
