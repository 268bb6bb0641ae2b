public import ClarissaCore
public import Foundation

/// Everything the store knows of one listing, for `clarissa show`.
public struct ListingHistory: Sendable, Codable, Equatable {
  /// A price it was seen at, and when.
  public struct Price: Sendable, Codable, Equatable {
    /// When.
    public var at: Date
    /// The price.
    public var price: Double
    /// Its currency.
    public var currency: String?
  }

  /// A search that saw it.
  public struct SearchSighting: Sendable, Codable, Equatable {
    /// The search.
    public var search: String
    /// First and last seen.
    public var firstSeen: Date
    /// Last seen.
    public var lastSeen: Date
    /// The listing it repeats, when it is a repost.
    public var repostOf: String?
    /// The reposts folded into it for this search.
    public var alsoPostedAs: [String]
    /// Per channel: `delivered`, `owed` or `failed`, and when or why.
    public var deliveries: [Delivery]
  }

  /// One channel's state.
  public struct Delivery: Sendable, Codable, Equatable {
    /// The channel.
    public var channel: String
    /// `new`, `price_drop`, ...
    public var event: String
    /// `owed`, `delivered`, `failed`.
    public var state: String
    /// When delivered or last refused.
    public var at: Date?
    /// Refusals so far.
    public var attempts: Int
    /// The last refusal.
    public var lastError: String?
  }

  /// The listing as last seen.
  public var listing: Listing
  /// First and last seen by any search.
  public var firstSeen: Date
  /// Last seen by any search.
  public var lastSeen: Date
  /// Every price it was seen at.
  public var prices: [Price]
  /// Per search.
  public var searches: [SearchSighting]
  /// When a person marked it viewed; nil while unviewed.
  public var viewedAt: Date? = nil
  /// The listings on other sites that are the same flat (``SameFlat``), both ways; nil when
  /// none.
  public var alsoOn: [AlsoOn]? = nil
  /// The marks a person set on it (starred, hidden, a note); nil when none.
  public var marks: ListingMarks? = nil
  /// What its text was before each change found, newest first; nil when none.
  public var textChanges: [TextChange]? = nil
}

extension ConnectedStore {
  /// The keys of listings with this id (`SITE:ID` picks one site).
  public func keys(matching id: String) throws -> [ListingKey] {
    let parts = id.split(separator: ":", maxSplits: 1).map(String.init)
    return try locked { database in
      if parts.count == 2 {
        let found = try database.rows(
          "SELECT site, id FROM listings WHERE site = ? AND id = ?",
          [.text(parts[0]), .text(parts[1])]
        ) { ListingKey(site: $0.text(ListingColumn.site), id: $0.text(ListingColumn.id)) }
        if !found.isEmpty { return found }
      }
      return try database.rows(
        "SELECT site, id FROM listings WHERE id = ? ORDER BY site", [.text(id)]
      ) {
        ListingKey(site: $0.text(ListingColumn.site), id: $0.text(ListingColumn.id))
      }
    }
  }

  /// The listing's whole story, or nil when the store does not have it.
  public func history(_ key: ListingKey) throws -> ListingHistory? {
    let values: [StoreValue] = [.text(key.site), .text(key.id)]
    return try locked { database in
      let found = try database.rows(
        "SELECT l.first_seen, \(LastSeen.listing("l")) AS last_seen, l.viewed_at, "
          + "\(ListingColumns.selected) "
          + "FROM listings l "
          + "WHERE l.site = ? AND l.id = ?", values
      ) { row in
        (
          row.date(ListingColumn.firstSeen), row.date(ListingColumn.lastSeen),
          ListingColumns.listing(row),
          row.optionalDate(ListingColumn.viewedAt)
        )
      }.first
      guard let head = found else { return nil }
      let prices = try Self.prices(of: key, in: database)
      let searches = try Self.sightings(key, database)
      let changes = try Self.textChanges(of: key, limit: nil, in: database)
      return ListingHistory(
        listing: head.2, firstSeen: head.0, lastSeen: head.1, prices: prices, searches: searches,
        viewedAt: head.3, alsoOn: try Self.alsoOn([key], in: database)[key],
        marks: try Self.marks(of: key, in: database),
        textChanges: changes.isEmpty ? nil : changes)
    }
  }

  /// Every price the listing was seen at, oldest first.
  static func prices(of key: ListingKey, in database: Connection) throws -> [ListingHistory.Price] {
    try database.rows(
      "SELECT seen_at, price, currency FROM prices WHERE site = ? AND id = ? ORDER BY seen_at",
      [.text(key.site), .text(key.id)]
    ) {
      ListingHistory.Price(
        at: $0.date(PriceColumn.seenAt), price: $0.double(PriceColumn.price),
        currency: $0.optionalText(PriceColumn.currency))
    }
  }

  private static func sightings(_ key: ListingKey, _ database: Connection) throws
    -> [ListingHistory.SearchSighting]
  {
    let values: [StoreValue] = [.text(key.site), .text(key.id)]
    let rows = try database.rows(
      "SELECT search, first_seen, \(LastSeen.sighting("s")) AS last_seen, repost_of "
        + "FROM sightings s "
        + "WHERE site = ? AND id = ? ORDER BY search", values
    ) {
      (
        $0.text(SightingColumn.search), $0.date(SightingColumn.firstSeen),
        $0.date(SightingColumn.lastSeen), $0.optionalText(SightingColumn.repostOf)
      )
    }
    return try rows.map { row in
      let search = StoreValue.text(row.0)
      let also = try database.rows(
        "SELECT id FROM sightings WHERE search = ? AND site = ? AND repost_of = ? ORDER BY id",
        [search, .text(key.site), .text(key.id)]
      ) { $0.text(SightingColumn.id) }
      let deliveries = try database.rows(
        "SELECT channel, event, state, at, attempts, last_error FROM deliveries "
          + "WHERE search = ? AND site = ? AND id = ? ORDER BY event_at, channel",
        [search] + values
      ) {
        ListingHistory.Delivery(
          channel: $0.text(DeliveryColumn.channel), event: $0.text(DeliveryColumn.event),
          state: $0.text(DeliveryColumn.state), at: $0.optionalDate(DeliveryColumn.at),
          attempts: $0.int(DeliveryColumn.attempts),
          lastError: $0.optionalText(DeliveryColumn.lastError))
      }
      return ListingHistory.SearchSighting(
        search: row.0, firstSeen: row.1, lastSeen: row.2, repostOf: row.3, alsoPostedAs: also,
        deliveries: deliveries)
    }
  }
}
