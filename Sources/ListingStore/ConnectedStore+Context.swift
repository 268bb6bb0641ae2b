internal import ClarissaCore
public import Foundation

/// A priced listing a search saw: one point of the market a listing's price is compared with
/// (`DealContext`, module Presentation).
public struct DealPeer: Sendable, Equatable {
  /// The listing.
  public var key: ListingKey
  /// Its price as last seen.
  public var price: Double
  /// Its currency.
  public var currency: String?
  /// Its floor area in square metres, when known.
  public var floorArea: Double?
  /// Its bedrooms, when known.
  public var bedrooms: Double?
  /// Its rooms, when known (warning signs compare rooms where a site gives no bedrooms).
  public var rooms: Double? = nil

  /// Creates a peer.
  public init(
    key: ListingKey, price: Double, currency: String?, floorArea: Double?, bedrooms: Double?,
    rooms: Double? = nil
  ) {
    self.key = key
    self.price = price
    self.currency = currency
    self.floorArea = floorArea
    self.bedrooms = bedrooms
    self.rooms = rooms
  }
}

/// What a search's store knows of one listing's past (`DealContext`, module Presentation): the
/// posts of the same item (the listing, the one it reposts, and that one's other reposts) with
/// their prices.
public struct ListingStory: Sendable, Equatable {
  /// One post of the item.
  public struct Post: Sendable, Equatable {
    /// Its id (the listing's site).
    public var id: String
    /// When the search first saw it.
    public var firstSeen: Date
    /// Every price it was seen at, oldest first.
    public var prices: [ListingHistory.Price]
  }

  /// The listing, the one it reposts and that one's other reposts, first seen first.
  public var posts: [Post]
  /// When any search first saw any of them.
  public var firstSeen: Date
}

/// Deal context, in both stores alike: a search's market read once per batch, and each
/// listing's posts by the repost index (`sightings.repost_of`).
extension ConnectedStore {
  public func peers(search: String, since: Date) throws -> [DealPeer] {
    try locked { database in
      try database.rows(
        """
        SELECT l.site, l.id, l.price, l.currency, l.floor_area, l.bedrooms, l.rooms FROM sightings s
        \(database.dialect.orderedJoin) listings l ON l.site = s.site AND l.id = s.id
        WHERE s.search = ? AND s.repost_of IS NULL AND l.price > 0
          AND \(LastSeen.sighting("s")) >= ?
        """, [.text(search), .time(since)]
      ) {
        DealPeer(
          key: ListingKey(site: $0.text(PeerColumn.site), id: $0.text(PeerColumn.id)),
          price: $0.double(PeerColumn.price), currency: $0.optionalText(PeerColumn.currency),
          floorArea: $0.optionalDouble(PeerColumn.floorArea),
          bedrooms: $0.optionalDouble(PeerColumn.bedrooms),
          rooms: $0.optionalDouble(PeerColumn.rooms))
      }
    }
  }

  public func stories(search: String, keys: [ListingKey]) throws -> [ListingKey: ListingStory] {
    guard !keys.isEmpty else { return [:] }
    return try locked { database in
      try database.reading {
        var stories: [ListingKey: ListingStory] = [:]
        for key in Set(keys) {
          stories[key] = try Self.story(search: search, key: key, in: database)
        }
        return stories
      }
    }
  }

  private static func story(search: String, key: ListingKey, in database: Connection) throws
    -> ListingStory?
  {
    guard
      let own = try database.rows(
        "SELECT repost_of FROM sightings WHERE search = ? AND site = ? AND id = ?",
        [.text(search), .text(key.site), .text(key.id)],
        { $0.optionalText(SightingColumn.repostOf) }
      ).first
    else { return nil }
    let root = own ?? key.id
    let reposts = try database.rows(
      "SELECT id FROM sightings\(database.dialect.indexedBy("sightings_repost_of")) "
        + "WHERE search = ? AND site = ? AND repost_of = ?",
      [.text(search), .text(key.site), .text(root)]
    ) { $0.text(SightingColumn.id) }
    var posts: [ListingStory.Post] = []
    var firstSeen = Date.distantFuture
    for id in Set([root, key.id] + reposts) {
      let values: [StoreValue] = [.text(key.site), .text(id)]
      let seen = try database.rows(
        "SELECT s.first_seen, l.first_seen AS listing_first_seen FROM sightings s "
          + "LEFT JOIN listings l "
          + "ON l.site = s.site AND l.id = s.id WHERE s.search = ? AND s.site = ? AND s.id = ?",
        [.text(search)] + values
      ) {
        ($0.double(SightingColumn.firstSeen), $0.optionalDouble(ListingColumn.listingFirstSeen))
      }.first
      guard let seen else { continue }
      firstSeen = min(firstSeen, Date(timeIntervalSince1970: min(seen.0, seen.1 ?? seen.0)))
      let prices = try Self.prices(of: ListingKey(site: key.site, id: id), in: database)
      posts.append(
        .init(id: id, firstSeen: Date(timeIntervalSince1970: seen.0), prices: prices))
    }
    posts.sort { ($0.firstSeen, $0.id) < ($1.firstSeen, $1.id) }
    return ListingStory(posts: posts, firstSeen: firstSeen)
  }
}

/// The `listings` columns a deal's peer is read from (its key, and ``ListingField/all``'s
/// columns of those names).
private enum PeerColumn: String, TableColumns {
  case site, id, price, currency, floorArea = "floor_area", bedrooms, rooms
}
