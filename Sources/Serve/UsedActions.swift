import Foundation

/// The `/act` tokens already used, until they expire: a button does its action once. Without
/// it a Star pressed again a day after the person unstarred the listing would star it again
/// (a mark's undoing leaves no trace in the store to compare with). Tokens are kept by their
/// text, at most ``capacity`` of them (only tokens signed with the server's key come in, one
/// a button pressed); when full, the expired go first, then the soonest to expire. The record
/// lives as long as the process: after a restart a token used before can be used once more.
final class UsedActions: @unchecked Sendable {
  /// Tokens remembered at most.
  let capacity: Int
  private let lock = NSLock()
  /// Token text: when it expires, when it was used.
  private var used: [String: (expires: Date, at: Date)] = [:]

  init(capacity: Int = 10_000) { self.capacity = capacity }

  /// When `token` was used; nil: not yet.
  func usedAt(_ token: String) -> Date? { lock.withLock { used[token]?.at } }

  /// Records `token` as used at `now`; false when it was already (nothing is to be done).
  func use(_ token: String, expires: Date, now: Date) -> Bool {
    lock.withLock {
      guard used[token] == nil else { return false }
      if used.count >= capacity {
        used = used.filter { $0.value.expires > now }
        if used.count >= capacity,
          let soonest = used.min(by: { $0.value.expires < $1.value.expires })?.key
        {
          used[soonest] = nil
        }
      }
      used[token] = (expires, now)
      return true
    }
  }

  /// Forgets `token`'s use (its action failed: it may be tried again).
  func forget(_ token: String) { lock.withLock { used[token] = nil } }

  /// Tokens remembered now.
  var count: Int { lock.withLock { used.count } }
}
