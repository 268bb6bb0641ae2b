internal import ClarissaCore
public import Foundation

/// One source of one search: the unit workers share (a lease is on it).
public struct SourceKey: Hashable, Sendable, Comparable {
  /// The search.
  public var search: String
  /// The request URL.
  public var url: String

  /// Creates a key.
  public init(search: String, url: String) {
    self.search = search
    self.url = url
  }

  public static func < (left: SourceKey, right: SourceKey) -> Bool {
    (left.search, left.url) < (right.search, right.url)
  }
}

/// A source a worker would fetch, and how long after it was last done it is due again.
public struct WantedSource: Sendable {
  /// The source.
  public var key: SourceKey
  /// Seconds after its last fetch (by any worker) before it is due again; 0: due now.
  public var every: Double

  /// Creates an entry.
  public init(key: SourceKey, every: Double) {
    self.key = key
    self.every = every
  }
}

/// What became of a worker's request to take sources.
public struct TakenSources: Sendable {
  /// The sources this worker holds now, until it finishes them or its lease ends.
  public var keys: [SourceKey]
  /// Of these, how many another worker had held and let lapse (it died, or hung).
  public var takeovers: Int
}

/// When a worker may send its next request to a host, by the pace every worker keeps.
public enum PaceSlot: Sendable, Equatable {
  /// Send after this many seconds (0: now).
  case wait(Double)
  /// The host was cooled down meanwhile (by another worker): ask it no more this run.
  case cooling(Cooldown)
}

/// What a store shared by several workers adds to ``ListingMemory`` (the PostgreSQL store):
/// leases on sources, so that no source is fetched twice in a round and a dead worker's are
/// taken over; and one pace per host for all workers.
public protocol SharedWork: AnyObject, Sendable {
  /// This worker's name (`CLARISSA_WORKER`, else host and process id).
  var worker: String { get }
  /// Whether requests keep one pace per host across workers (``StateSettings/Politeness``).
  var sharedPace: Bool { get }
  /// Seconds a worker holds what it took before another may take it over.
  var lease: Double { get }
  /// Takes up to `limit` of `wanted`: those due at `round` (when the worker's round began) and
  /// held by no live lease of another worker at `now` (`FOR UPDATE SKIP LOCKED`: workers asking
  /// at once never wait for one another). Due at the round's start, not now: a source another
  /// worker did during this round is not due again in it, however long the round lasts.
  func take(_ wanted: [WantedSource], limit: Int, round: Date, now: Date) throws -> TakenSources
  /// The sources were fetched (or failed) at `now`: due again after their interval.
  func finish(_ keys: [SourceKey], at now: Date) throws
  /// This worker is still at work on `keys`: their leases run a whole lease from `now` (the
  /// heartbeat of a batch, so that a live worker's batch is never taken over).
  func renew(_ keys: [SourceKey], now: Date) throws
  /// Workers seen within `seconds` or a lease's time, whichever is longer (this one included).
  /// A worker is seen when it takes work, so between rounds it is seen once per interval.
  func liveWorkers(seenWithin seconds: Double, now: Date) throws -> Int
  /// Reserves this worker's next request to `host`, `spacing` seconds after the last request
  /// any worker reserved; or says the host is cooling down.
  func reserve(host: String, spacing: Double, now: Date) throws -> PaceSlot
  /// No worker asks `host` before `until` (a 429's wait).
  func hold(host: String, until: Date) throws
}

/// Sends a request to a host when the shared pace allows: the scheduler's hook into
/// ``SharedWork``. A store that cannot be reached falls back to this worker's own pace.
public struct SharedPace: Sendable {
  let work: any SharedWork

  /// Creates the hook.
  public init(_ work: any SharedWork) { self.work = work }

  /// The slot for the next request to `host`; nil when the store could not say.
  package func reserve(host: String, spacing: Double) -> PaceSlot? {
    try? work.reserve(host: host, spacing: spacing, now: Date())
  }

  /// Holds every worker off `host` for `seconds`.
  package func hold(host: String, seconds: Double) {
    try? work.hold(host: host, until: Date().addingTimeInterval(seconds))
  }
}
