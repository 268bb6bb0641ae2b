public import Foundation
internal import Synchronization

/// Each search's market (``DealMarket``) kept between the pages of `clarissa serve`, so a page
/// of 48 cards does not read the search's whole 90 days again: on the map bench's store (one
/// search of 1,000,000 listings) that read was over nine tenths of the list page's 112-118 ms.
///
/// A kept market is used while the store's last attempt (``stamp``, which every run moves) is
/// the one it was read at and it is younger than ``maxAge``; anything else that changes the
/// store's sightings (`state import`, `state forget`) is seen within that age. At most
/// ``capacity`` searches are kept, the least recently read dropped first.
public final class DealMarketCache: Sendable {
  /// The longest a market is kept, in seconds.
  public static let maxAge: TimeInterval = 600
  /// How many searches' markets are kept.
  public static let capacity = 16

  private struct Entry {
    var market: DealMarket
    var stamp: Date?
    var readAt: Date
  }

  private let entries = Mutex<[String: Entry]>([:])

  /// An empty cache.
  public init() {}

  /// `search`'s market as of `now` for a store last attempted at `stamp`: the kept one when it
  /// still holds, else `read()`'s, kept.
  func market(
    of search: String, stamp: Date?, now: Date, read: () throws -> DealMarket
  ) rethrows -> DealMarket {
    if let kept = entries.withLock({ $0[search] }), kept.stamp == stamp,
      now.timeIntervalSince(kept.readAt) >= 0, now.timeIntervalSince(kept.readAt) < Self.maxAge
    {
      return kept.market
    }
    let market = try read()
    entries.withLock { entries in
      entries[search] = Entry(market: market, stamp: stamp, readAt: now)
      while entries.count > Self.capacity,
        let oldest = entries.min(by: { $0.value.readAt < $1.value.readAt })?.key
      {
        entries[oldest] = nil
      }
    }
    return market
  }
}
