import ClarissaCore
import Foundation

/// What one run did, for reports and the exit status.
public struct RunResult: Sendable, Codable {
  /// One search's part of the run.
  public struct SearchOutcome: Sendable, Codable {
    /// The search's name.
    public var name: String
    /// `ran`, `primed`, `not-due`, `quiet-hours`, `disabled`.
    public var status: String
    /// Why it did not run, or how it ran.
    public var detail: String?
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
