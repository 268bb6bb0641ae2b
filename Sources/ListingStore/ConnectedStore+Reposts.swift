import ClarissaCore
import Foundation

/// Finding the listing a new one repeats: by the fingerprint's index, then by shared photos.
/// The joins are ordered by hand (CROSS JOIN): the planner, with no statistics, would rather
/// walk the search's sightings (a million rows) than the fingerprint's index (a few): 16 s
/// instead of a fraction of a millisecond in `.ci/bench state`.
extension ConnectedStore {
  public func originals(search: String, of listings: [Listing], since: Date) throws
    -> [ListingKey: Original]
  {
    try locked { database in
      var result: [ListingKey: Original] = [:]
      for listing in listings {
        let found =
          try Self.byFingerprint(listing, search, since, database)
          + Self.byPhotos(listing, search, since, database)
        if let earliest = found.min(by: { $0.firstSeen < $1.firstSeen }) {
          result[listing.key] = earliest
        }
      }
      return result
    }
  }

  private static func byFingerprint(
    _ listing: Listing, _ search: String, _ since: Date, _ database: Connection
  ) throws -> [Original] {
    let sql = database.dialect
    return try database.rows(
      """
      SELECT l.id, s.first_seen FROM listings l\(sql.indexedBy("listings_fingerprint"))
      \(sql.orderedJoin) sightings s ON s.site = l.site AND s.id = l.id AND s.search = ?
      WHERE l.site = ? AND l.fingerprint = ? AND l.id != ? AND \(LastSeen.sighting("s")) >= ?
      ORDER BY s.first_seen LIMIT 1
      """,
      [
        .text(search), .text(listing.site), .text(Fingerprint.key(listing)), .text(listing.id),
        .time(since),
      ]
    ) { Original(id: $0.text(0), firstSeen: Date(timeIntervalSince1970: $0.double(1))) }
  }

  /// Listings with a photo in common, kept when their title or price agrees too.
  private static func byPhotos(
    _ listing: Listing, _ search: String, _ since: Date, _ database: Connection
  ) throws -> [Original] {
    let join = database.dialect.orderedJoin
    var found: [Original] = []
    for image in Set(Fingerprint.images(listing)) {
      found += try database.rows(
        """
        SELECT s.first_seen, \(ListingColumns.selected) FROM listing_images i
        \(join) listings l ON l.site = i.site AND l.id = i.id
        \(join) sightings s ON s.site = l.site AND s.id = l.id AND s.search = ?
        WHERE i.site = ? AND i.image = ? AND i.id != ? AND \(LastSeen.sighting("s")) >= ?
        """,
        [.text(search), .text(listing.site), .text(image), .text(listing.id), .time(since)]
      ) { row -> Original? in
        let other = ListingColumns.listing(row, from: 1)
        guard Fingerprint.sameItem(listing, other) else { return nil }
        return Original(id: other.id, firstSeen: Date(timeIntervalSince1970: row.double(0)))
      }.compactMap { $0 }
    }
    return found
  }
}
