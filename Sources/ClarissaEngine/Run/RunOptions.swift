public import ClarissaCore
public import Foundation

/// What a run is asked to do.
public struct RunOptions: Sendable {
  /// When the run began, on its clock (`--now` in tests): what it plans, skips and is due by.
  public var now: Date
  /// Whether the run's clock moves on from `now` (``time()``); false when a time was given
  /// (`--now`, tests), which the run keeps still.
  public var clockMoves: Bool
  /// Run every enabled search, due or not.
  public var force: Bool
  /// Run only this search (due or not, enabled or not).
  public var only: String?
  /// Fetch and report, but change no state and send nothing.
  public var dryRun: Bool
  /// Record every current listing as seen without notifying.
  public var prime: Bool
  /// Notify a new search's current listings instead of priming it silently.
  public var notifyFirstRun: Bool
  /// How long to wait for another run's lock.
  public var lockWait: Double
  /// The zone report times are shown in (the machine's; fixed in tests).
  public var timeZone: TimeZone = .current
  /// Bounds on what sites bring in (the config's `limits`; the runner sets them).
  public var limits = Limits()
  /// Whether a site may pass over the items of a search's last answer that come again
  /// unchanged (docs/performance.md, "Unchanged items"); `--read-every-item` says no.
  public var passesUnchanged = true

  /// Creates options; without `now`, the run begins now and its clock moves on.
  public init(
    now: Date? = nil, force: Bool = false, only: String? = nil, dryRun: Bool = false,
    prime: Bool = false, notifyFirstRun: Bool = false, lockWait: Double = 5
  ) {
    self.now = now ?? Date()
    self.clockMoves = now == nil
    self.force = force
    self.only = only
    self.dryRun = dryRun
    self.prime = prime
    self.notifyFirstRun = notifyFirstRun
    self.lockWait = lockWait
  }
}

extension RunOptions {
  /// The run's clock at this moment: what the run records is stamped when it happens (an answer
  /// when it came, a record when written, a delivery when accepted), never before the run began.
  public func time() -> Date { time(at: Date()) }

  /// A moment of the machine's clock (an answer's arrival; nil: now) on the run's clock.
  func time(at moment: Date?) -> Date { clockMoves ? max(now, moment ?? Date()) : now }
}

/// Why a run could not start or finish.
public struct RunError: Error, Sendable, CustomStringConvertible {
  /// Which exit status it maps to.
  public enum Kind: Sendable {
    /// The store cannot be used: damaged, newer, out of reach.
    case state
    /// The command was asked for something that does not exist.
    case usage
    /// Another run held the store's lock for the whole wait: nothing is wrong, try later.
    case busy
  }
  /// The kind.
  public var kind: Kind
  /// What is wrong.
  public var message: String
  public var description: String { message }
}
