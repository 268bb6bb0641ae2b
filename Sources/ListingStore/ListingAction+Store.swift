public import ClarissaCore
public import Foundation

extension BrowsableStore {
  /// Does `action` to the listing `key`, as a button of a notification asks: marks are
  /// idempotent, so a button pressed twice (or a link replayed) changes nothing the second
  /// time. Returns how many listings changed (0 or 1), or nil when the store has no such
  /// listing (forgotten since the message was sent).
  public func apply(_ action: ListingAction, to key: ListingKey, at now: Date) throws -> Int? {
    guard try holds(key) else { return nil }
    switch action {
    case .viewed: return try markViewed([key], at: now)
    case .star: return try setMark(.star, on: [key], at: now)
    case .hide: return try setMark(.hide, on: [key], at: now)
    case .unstar: return try setMark(.unstar, on: [key], at: now)
    case .unhide: return try setMark(.unhide, on: [key], at: now)
    }
  }

  /// Whether the store has the listing `key` (its key alone read, not its story).
  public func holds(_ key: ListingKey) throws -> Bool {
    try keys(matching: key.site + ":" + key.id).contains(key)
  }
}
