internal import ClarissaCore
public import Foundation

/// What waits for a channel's scheduled digest (``DigestSchedule``): how many deliveries are
/// owed to it, and since when.
public struct PendingDigest: Sendable, Equatable {
  /// Deliveries owed (a listing of a search, an event).
  public var count: Int
  /// When the oldest of them was owed: the digest goes at the first scheduled time after it.
  public var oldest: Date

  /// Creates an entry.
  public init(count: Int, oldest: Date) {
    self.count = count
    self.oldest = oldest
  }
}

/// Scheduled digests, in both stores alike: read from the deliveries still owed (never tried,
/// or refused fewer than `maxAttempts` times), by the index of the open ones. No table of its
/// own: a digest is due when a scheduled time has passed since its oldest owed delivery, so a
/// digest a kill kept from being accepted is due again on the next run.
extension ConnectedStore {
  public func pending(channels: [String], maxAttempts: Int) throws -> [String: PendingDigest] {
    guard !channels.isEmpty else { return [:] }
    let names = Array(Set(channels)).sorted()
    return try locked { database in
      var found: [String: PendingDigest] = [:]
      try database.run(
        "SELECT channel, count(*) AS count, min(owed_at) AS earliest FROM deliveries "
          + "WHERE state != 'delivered' "
          + "AND (state = 'owed' OR attempts < ?) AND channel IN ("
          + names.map { _ in "?" }.joined(separator: ", ") + ") GROUP BY channel",
        [.int(maxAttempts)] + names.map { .text($0) }
      ) {
        found[$0.text(DeliveryColumn.channel)] = PendingDigest(
          count: $0.int(ComputedColumn.count), oldest: $0.date(ComputedColumn.earliest))
      }
      return found
    }
  }
}
