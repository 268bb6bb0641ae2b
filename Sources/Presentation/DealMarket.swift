internal import ClarissaCore
public import ListingStore

/// A search's similar listings, sorted once per batch (``DealContextBook``): per currency, their
/// prices, their prices per m², and their prices per bedroom count. A listing's median is then
/// found by position, its own posts left out, without sorting again: one search's 90 days may
/// be 50,000 listings, and a batch asks for each of its listings.
public struct DealMarket: Sendable {
  /// Which of a currency's groups.
  enum Kind: Hashable, Sendable {
    case price
    case perArea
    case bedrooms(Double)
  }

  struct Group: Sendable {
    /// The values, ascending.
    var values: [Double] = []
    /// Each listing's position in `values`.
    var positions: [ListingKey: Int] = [:]
  }

  struct Key: Hashable, Sendable {
    var currency: String?
    var kind: Kind
  }

  private var groups: [Key: Group] = [:]

  /// The market of `peers`.
  public init(_ peers: [DealPeer]) {
    var entries: [Key: [(Double, ListingKey)]] = [:]
    for peer in peers where peer.price > 0 {
      entries[Key(currency: peer.currency, kind: .price), default: []].append(
        (peer.price, peer.key))
      if let area = peer.floorArea, area > 0 {
        entries[Key(currency: peer.currency, kind: .perArea), default: []].append(
          (peer.price / area, peer.key))
      }
      if let bedrooms = peer.bedrooms {
        entries[Key(currency: peer.currency, kind: .bedrooms(bedrooms)), default: []].append(
          (peer.price, peer.key))
      }
    }
    for (key, values) in entries {
      let sorted = values.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
      var group = Group(values: sorted.map(\.0))
      for (position, entry) in sorted.enumerated() { group.positions[entry.1] = position }
      groups[key] = group
    }
  }

  /// The median of a group and how many it counts, `excluded` left out; nil when fewer than
  /// `minimum` are left.
  func median(
    currency: String?, _ kind: Kind, excluding excluded: [ListingKey], minimum: Int
  ) -> (median: Double, count: Int)? {
    guard let group = groups[Key(currency: currency, kind: kind)] else { return nil }
    let removed = Set(excluded.compactMap { group.positions[$0] }).sorted()
    let count = group.values.count - removed.count
    guard count >= minimum, count > 0 else { return nil }
    // The k-th value left: its position, stepped past every removed one at or before it.
    func value(_ rank: Int) -> Double {
      var position = rank
      for gone in removed where gone <= position { position += 1 }
      return group.values[position]
    }
    let middle = count / 2
    let median = count % 2 == 1 ? value(middle) : (value(middle - 1) + value(middle)) / 2
    return (median, count)
  }
}
