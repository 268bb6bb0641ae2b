internal import ClarissaCore
public import Foundation

/// The delivery calls most callers make, on the protocol's general ones.
extension ListingMemory {
  /// Every delivery owed (never tried, or refused fewer than `maxAttempts` times).
  public func owedDeliveries(maxAttempts: Int) throws -> [OwedDelivery] {
    try owedDeliveries(maxAttempts: maxAttempts, searches: nil)
  }

  /// A channel accepted one message standing for all of `keys` of `search`, recorded in one
  /// transaction.
  public func markDelivered(search: String, keys: [ListingKey], channel: String, at now: Date)
    throws
  {
    try markDelivered([(search, keys)], channel: channel, at: now)
  }
}
