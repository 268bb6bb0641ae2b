internal import ClarissaCore
public import ListingStore

/// A search's similar listings, sorted once per batch (``DealContextBook``): per currency, their
/// prices, their prices per m², and their prices per bedroom and per room count. A listing's median is then
/// found by position, its own posts left out, without sorting again: one search's 90 days may
/// be 50,000 listings, and a batch asks for each of its listings.
public struct DealMarket: Sendable {
  /// Which of a currency's groups.
  enum Kind: Hashable, Sendable {
    case price
    case perArea
    case bedrooms(Double)
    case rooms(Double)
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
      if let rooms = peer.rooms {
        entries[Key(currency: peer.currency, kind: .rooms(rooms)), default: []].append(
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
  /// `minimum` are left. With `near`, only the values within a factor `within` of it count (a
  /// slice of the sorted values: rents and sales in one answer are two markets, some 200 times
  /// apart per m²).
  func median(
    currency: String?, _ kind: Kind, excluding excluded: [ListingKey], minimum: Int,
    near: Double? = nil, within factor: Double = 10
  ) -> (median: Double, count: Int)? {
    guard let group = groups[Key(currency: currency, kind: kind)] else { return nil }
    var slice = 0..<group.values.count
    if let near, near > 0, factor > 1 {
      let low = group.values.partitioningIndex(where: { $0 >= near / factor })
      let high = group.values.partitioningIndex(where: { $0 > near * factor })
      slice = low..<max(low, high)
    }
    let removed = Set(excluded.compactMap { group.positions[$0] }).filter(slice.contains).sorted()
    let count = slice.count - removed.count
    guard count >= minimum, count > 0 else { return nil }
    // The k-th value left: its position, stepped past every removed one at or before it.
    func value(_ rank: Int) -> Double {
      var position = slice.lowerBound + rank
      for gone in removed where gone <= position { position += 1 }
      return group.values[position]
    }
    let middle = count / 2
    let median = count % 2 == 1 ? value(middle) : (value(middle - 1) + value(middle)) / 2
    return (median, count)
  }
}

extension Array where Element == Double {
  /// The first index whose value satisfies `belongs`, for a predicate false then true along the
  /// (ascending) array: a binary search.
  fileprivate func partitioningIndex(where belongs: (Double) -> Bool) -> Int {
    var (low, high) = (0, count)
    while low < high {
      let middle = (low + high) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
