public import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Synchronization

/// A run done up to the terminal channel. The command shows ``result`` (that is the terminal
/// channel's delivery), then calls ``commit()``: the terminal deliveries are recorded, old
/// listings pruned, the feeds and page written, and the store's lock released.
public final class PendingRun: Sendable {
  /// What the last step needs.
  struct Finish: Sendable {
    var dryRun: Bool
    /// When the run began.
    var now: Date
    /// The run's clock: the terminal's deliveries are accepted when the result is shown.
    var clock: @Sendable () -> Date
    var retention: TimeInterval
    var keep: Int
    var outputs: OutputWriter?
    var searches: [String]
  }

  /// What the run did, as shown before the commit.
  public let result: RunResult
  /// Per search, the verdict on every listing its sources returned (what `explain` prints).
  public let judgements: [String: [Judgement]]
  private let terminal: [OwedDelivery]
  private let access: StoreAccess
  private let finish: Finish
  /// What ``commit()`` returned, once it did.
  private let committed = Mutex<RunResult?>(nil)

  init(
    result: RunResult, judgements: [String: [Judgement]], terminal: [OwedDelivery],
    access: StoreAccess, finish: Finish
  ) {
    self.result = result
    self.judgements = judgements
    self.terminal = terminal
    self.access = access
    self.finish = finish
  }

  deinit { access.close() }

  /// Records what the terminal channel showed, prunes, writes the outputs and releases the
  /// store; returns the result with any output problems. Calling it again returns the same.
  @discardableResult
  public func commit() throws -> RunResult {
    if let done = committed.withLock({ $0 }) { return done }
    defer { access.close() }
    var final = result
    if !finish.dryRun {
      do {
        try record()
      } catch {
        throw RunError(kind: .state, message: "\(error)")
      }
      if let outputs = finish.outputs {
        let recent = (try? access.memory.recent(searches: finish.searches, limit: finish.keep))
        final.outputProblems = outputs.write(recent ?? [], now: finish.now)
      }
    }
    committed.withLock { $0 = final }
    return final
  }

  private func record() throws {
    let memory = access.memory
    let shown = finish.clock()
    for owed in terminal {
      try memory.markDelivered(
        search: owed.search, key: owed.listing.key, channel: owed.channel, at: shown)
    }
    try memory.prune(now: finish.now, retention: finish.retention)
  }
}
