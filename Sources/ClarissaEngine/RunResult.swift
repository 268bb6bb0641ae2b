import ClarissaCore
import Foundation

/// What one run did, for reports and the exit status.
public struct RunResult: Sendable, Codable {
  /// One search's part of the run.
  public struct SearchOutcome: Sendable, Codable {
    /// The search's name.
    public var name: String
    /// `ran`, `primed`, `failed` (no source answered), `cooling-down` (every host it asks is
    /// cooling down), `not-due`, `quiet-hours`, `disabled`, `not-selected`.
    public var status: String
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

  /// Every listing new this run.
  public var newListings: [Listing] { searches.flatMap(\.new) }
  /// Whether any source failed.
  public var sourcesFailed: Bool { searches.contains { !$0.failures.isEmpty } }
  /// Whether searches were due but every host they ask was cooling down: nothing was checked.
  public var everySourceCoolingDown: Bool {
    let tried = searches.filter { Self.triedStatuses.contains($0.status) }
    return !tried.isEmpty && tried.allSatisfy { $0.status == "cooling-down" }
  }
  /// The statuses of searches that were due and tried.
  static let triedStatuses: Set<String> = ["ran", "primed", "failed", "cooling-down"]
}

extension RunResult {
  /// A result holding one new listing, for `notify test` on the terminal channel.
  public static func sample(_ listing: Listing, search: String) -> RunResult {
    RunResult(
      time: Date(),
      searches: [
        SearchOutcome(
          name: search, status: "ran", new: [listing], held: 0, delivered: [], fetched: 1,
          matched: 1, failures: [], notes: [])
      ], blocks: [], deliveryFailures: [], dryRun: false)
  }
}
