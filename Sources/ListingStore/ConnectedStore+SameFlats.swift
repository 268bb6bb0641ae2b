internal import ClarissaCore
public import Foundation

/// Cross-site folding (``SameFlat``): the listing on another site that a new one is the same
/// flat as, and the links kept between them. By the map pins (`listings_latitude`), or, where
/// one side has no coordinates, by a photo whose hash is kept (`photo_bands`, then
/// `listing_images_image`).
extension ConnectedStore {
  public func sameFlats(of listings: [Listing], since: Date) throws -> [ListingKey: CrossPost] {
    try locked { database in
      var result: [ListingKey: CrossPost] = [:]
      for listing in listings {
        var matched: [(listing: Listing, firstSeen: Date)] = []
        if let point = listing.coordinates {
          matched = try Self.candidates(around: point, of: listing, since, database)
            .filter { SameFlat.matches(listing, $0.listing) }
        }
        // Without coordinates on one side, by a photo (``SameFlat/matchesByPhoto``).
        if matched.isEmpty { matched = try Self.byPhoto(listing, since, database) }
        if let earliest = matched.min(by: {
          ($0.firstSeen, $0.listing.key) < ($1.firstSeen, $1.listing.key)
        }) {
          result[listing.key] = CrossPost(key: earliest.listing.key, firstSeen: earliest.firstSeen)
        }
      }
      return result
    }
  }

  /// The listings of other sites pinned in ``SameFlat/box(around:)`` that a search saw since
  /// `since`, each with the earliest first sighting (by `listings_latitude`).
  private static func candidates(
    around point: Coordinates, of listing: Listing, _ since: Date, _ database: Connection
  ) throws -> [(listing: Listing, firstSeen: Date)] {
    let box = SameFlat.box(around: point)
    let rows = try database.rows(
      """
      SELECT s.first_seen, \(ListingColumns.selected) FROM listings l
      \(database.dialect.orderedJoin) sightings s ON s.site = l.site AND s.id = l.id
      WHERE l.latitude BETWEEN ? AND ? AND l.longitude BETWEEN ? AND ? AND l.site != ?
      AND \(LastSeen.sighting("s")) >= ?
      """,
      [
        .double(box.latitudes.lowerBound), .double(box.latitudes.upperBound),
        .double(box.longitudes.lowerBound), .double(box.longitudes.upperBound),
        .text(listing.site), .time(since),
      ]
    ) { (listing: ListingColumns.listing($0), firstSeen: $0.double(SightingColumn.firstSeen)) }
    var earliest: [ListingKey: (listing: Listing, firstSeen: Double)] = [:]
    for row in rows where row.firstSeen < earliest[row.listing.key]?.firstSeen ?? .infinity {
      earliest[row.listing.key] = row
    }
    return earliest.values.map { ($0.listing, Date(timeIntervalSince1970: $0.firstSeen)) }
  }

  /// The listings of other sites that a search saw since `since` and that hold a photo one of
  /// `listing`'s hashed photos is (``ConnectedStore/photoGroups(of:in:)``), kept when
  /// ``SameFlat/matchesByPhoto(_:_:hashes:stock:)`` says they are the same flat; each with
  /// its earliest first sighting.
  private static func byPhoto(_ listing: Listing, _ since: Date, _ database: Connection) throws
    -> [(listing: Listing, firstSeen: Date)]
  {
    let found = try photoHolders(listing, since, hashedOnly: true, database)
    guard found.holders.contains(where: { $0.listing.site != listing.site }) else { return [] }
    return found.holders.filter {
      SameFlat.matchesByPhoto(listing, $0.listing, hashes: found.hashes, stock: found.stock)
    }.map { ($0.listing, Date(timeIntervalSince1970: $0.firstSeen)) }
  }

  /// The listings, of any site, that a search saw since `since` and that hold one of
  /// `listing`'s photos (by its hash within 5 bits when kept, ``ConnectedStore/photoGroups(of:in:)``,
  /// else by its id; `hashedOnly` asks only the hashed ones), each with its earliest first
  /// sighting; with the hashes read and the stock photos among them. A photo's holders are
  /// read at most ``photoHolders`` per id. The stock-photo rule
  /// (``Fingerprint/stockPhotos(_:hashes:)``) is asked per site: one flat on three sites,
  /// titled three ways, is not a stock photo, a campaign picture on a landlord's flats of one
  /// site is.
  static func photoHolders(
    _ listing: Listing, _ since: Date, hashedOnly: Bool, _ database: Connection
  ) throws -> (
    holders: [(listing: Listing, firstSeen: Double)], hashes: [String: UInt64], stock: Set<String>
  ) {
    let photos = try photoGroups(of: listing, in: database)
    var hashes = photos.hashes
    var holders: [ListingKey: (listing: Listing, firstSeen: Double)] = [:]
    for group in photos.groups where !hashedOnly || hashes[group.url] != nil {
      for image in group.ids {
        try database.run(
          """
          SELECT s.first_seen, \(ListingColumns.selected) FROM listing_images i
          \(database.dialect.orderedJoin) listings l ON l.site = i.site AND l.id = i.id
          \(database.dialect.orderedJoin) sightings s ON s.site = l.site AND s.id = l.id
          WHERE i.image = ? AND \(LastSeen.sighting("s")) >= ? LIMIT \(photoHolders)
          """, [.text(image), .time(since)]
        ) { row in
          let holder = ListingColumns.listing(row)
          let firstSeen = row.double(SightingColumn.firstSeen)
          guard holder.key != listing.key,
            firstSeen < holders[holder.key]?.firstSeen ?? .infinity
          else { return }
          holders[holder.key] = (holder, firstSeen)
        }
      }
    }
    guard !holders.isEmpty else { return ([], hashes, []) }
    let urls = holders.values.flatMap(\.listing.imageURLs).filter { hashes[$0] == nil }
    hashes.merge(try Self.hashes(of: urls, in: database)) { kept, _ in kept }
    var bySite: [String: [Listing]] = [listing.site: [listing]]
    for holder in holders.values { bySite[holder.listing.site, default: []].append(holder.listing) }
    let stock = bySite.values.reduce(into: Set<String>()) {
      $0.formUnion(Fingerprint.stockPhotos($1, hashes: hashes))
    }
    let sorted = holders.values.sorted {
      ($0.firstSeen, $0.listing.key) < ($1.firstSeen, $1.listing.key)
    }
    return (sorted, hashes, stock)
  }

  /// For each of `listings`, the other listings (any site, seen by any search since `since`)
  /// that show one of its photos, stock photos left out (``photoHolders(_:_:hashedOnly:_:)``):
  /// what the warning sign `photo-elsewhere` is made of, earliest first.
  public func photoTwins(of listings: [Listing], since: Date) throws -> [ListingKey: [Listing]] {
    try locked { database in
      var result: [ListingKey: [Listing]] = [:]
      for listing in listings where !listing.imageURLs.isEmpty {
        let found = try Self.photoHolders(listing, since, hashedOnly: false, database)
        let mine = Fingerprint.Item(listing, hashes: found.hashes)
        let twins = found.holders.map(\.listing).filter {
          mine.sharedPhoto(Fingerprint.Item($0, hashes: found.hashes), stock: found.stock) != nil
        }
        if !twins.isEmpty { result[listing.key] = twins }
      }
      return result
    }
  }

  /// Listings read per photo id, at most, by ``photoHolders(_:_:hashedOnly:_:)``.
  static var photoHolders: Int { 64 }

  /// The cross-site links of a record, inside its transaction.
  static func writeCrossPosts(_ record: SearchRecord, at now: StoreValue, in database: Connection)
    throws
  {
    for (key, other) in record.crossPosts.sorted(by: { $0.key < $1.key }) {
      try database.run(
        "INSERT INTO cross_posts(site, id, other_site, other_id, found_at) VALUES(?, ?, ?, ?, ?) "
          + "ON CONFLICT DO NOTHING",
        [.text(key.site), .text(key.id), .text(other.site), .text(other.id), now])
    }
  }

  /// The listings on other sites each of `keys` is the same flat as, both ways (a names b, b
  /// names a), with their pages, in key order.
  public func alsoOn(_ keys: [ListingKey]) throws -> [ListingKey: [AlsoOn]] {
    try locked { database in try Self.alsoOn(keys, in: database) }
  }

  /// ``alsoOn(_:)`` on an open connection.
  static func alsoOn(_ keys: [ListingKey], in database: Connection) throws -> [ListingKey: [AlsoOn]]
  {
    var result: [ListingKey: [AlsoOn]] = [:]
    for key in Set(keys) {
      let others = try database.rows(
        """
        SELECT c.other_site AS site, c.other_id AS id, l.url FROM cross_posts c
        LEFT JOIN listings l ON l.site = c.other_site AND l.id = c.other_id
        WHERE c.site = ? AND c.id = ?
        UNION SELECT c.site, c.id, l.url FROM cross_posts c
        LEFT JOIN listings l ON l.site = c.site AND l.id = c.id
        WHERE c.other_site = ? AND c.other_id = ?
        """,
        [.text(key.site), .text(key.id), .text(key.site), .text(key.id)]
      ) {
        AlsoOn(
          key: ListingKey(site: $0.text(AlsoOnColumn.site), id: $0.text(AlsoOnColumn.id)),
          url: $0.optionalText(AlsoOnColumn.url))
      }
      if !others.isEmpty { result[key] = others.sorted { $0.key < $1.key } }
    }
    return result
  }
}

/// The listing on another site that a new one is the same flat as (``SameFlat``).
public struct CrossPost: Sendable, Equatable {
  /// Its key.
  public var key: ListingKey
  /// When a search first saw it.
  public var firstSeen: Date

  /// Creates an entry.
  public init(key: ListingKey, firstSeen: Date) {
    self.key = key
    self.firstSeen = firstSeen
  }
}

/// A listing on another site that is the same flat: its site, id, and page when stored.
public struct AlsoOn: Sendable, Equatable, Codable {
  /// Its site.
  public var site: String
  /// Its id there.
  public var id: String
  /// Its page on its site.
  public var url: String?

  /// Creates an entry.
  public init(key: ListingKey, url: String?) {
    self.site = key.site
    self.id = key.id
    self.url = url
  }

  /// Its key.
  public var key: ListingKey { ListingKey(site: site, id: id) }
}

/// What a cross-post is read as: the other listing's key (a `cross_posts` row's either side) and
/// its URL (``ListingField/all``'s `url`).
private enum AlsoOnColumn: String, TableColumns { case site, id, url }
