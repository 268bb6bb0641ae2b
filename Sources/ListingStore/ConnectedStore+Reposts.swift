internal import ClarissaCore
internal import Foundation

/// Finding the listing a new one repeats: by the fingerprint's index, then by shared photos
/// (one photo: the same id, or hashes within 5 bits, ``PhotoMatch``).
/// The joins are ordered by hand (CROSS JOIN): the planner, with no statistics, would rather
/// walk the search's sightings (a million rows) than the fingerprint's index (a few): 16 s
/// instead of a fraction of a millisecond in `.ci/bench state`.
extension ConnectedStore {
  public func originals(
    search: String, of listings: [Listing], since: Date, present: Set<ListingKey>
  ) throws -> [ListingKey: Original] {
    try locked { database in
      var result: [ListingKey: Original] = [:]
      for listing in listings {
        let (candidates, hashes) = try Self.candidates(listing, search, since, database)
        let item = Fingerprint.Item(listing, hashes: hashes)
        var found: [Original] = []
        for (other, firstSeen) in candidates {
          // A photo that the listings sharing it say different things of counts for nothing.
          let stock = Fingerprint.stockPhotos([listing] + other.sharing, hashes: hashes)
          let twoOfOneAnswer = present.contains(other.listing.key)
          let evidence = Fingerprint.Item(other.listing, hashes: hashes).evidence(
            item, inOneAnswer: twoOfOneAnswer, stock: stock)
          if evidence != nil {
            found.append(Original(id: other.listing.id, firstSeen: firstSeen))
          }
        }
        if let earliest = found.min(by: { $0.firstSeen < $1.firstSeen }) {
          result[listing.key] = earliest
        }
      }
      return result
    }
  }

  /// The listings that share the fingerprint (title and price) or a photo with `listing`, with
  /// when the search first saw each; at most ``photoRows`` per photo id. A photo is its id and,
  /// when its hash is kept, the ids of the kept photos within 5 bits of it
  /// (``photoGroups(of:in:)``). Returns the kept hashes of every photo read, by address.
  private static func candidates(
    _ listing: Listing, _ search: String, _ since: Date, _ database: Connection
  ) throws -> ([(Candidate, Date)], [String: UInt64]) {
    let sql = database.dialect
    var rows: [(Listing, Date)] = try database.rows(
      """
      SELECT s.first_seen, \(ListingColumns.selected) FROM listings l\(sql.indexedBy("listings_fingerprint"))
      \(sql.orderedJoin) sightings s ON s.site = l.site AND s.id = l.id AND s.search = ?
      WHERE l.site = ? AND l.fingerprint = ? AND l.id != ? AND \(LastSeen.sighting("s")) >= ?
      ORDER BY s.first_seen LIMIT \(photoRows)
      """,
      [
        .text(search), .text(listing.site), .text(Fingerprint.key(listing)), .text(listing.id),
        .time(since),
      ]
    ) { (ListingColumns.listing($0), $0.date(SightingColumn.firstSeen)) }
    let photos = try photoGroups(of: listing, in: database)
    var hashes = photos.hashes
    var held: [String: [(Listing, Date)]] = [:]
    var sharing: [String: [Listing]] = [:]
    for group in photos.groups {
      var holders: [(Listing, Date)] = []
      for image in group.ids {
        if held[image] == nil {
          held[image] = try database.rows(
            """
            SELECT s.first_seen, \(ListingColumns.selected) FROM listing_images i
            \(sql.orderedJoin) listings l ON l.site = i.site AND l.id = i.id
            \(sql.orderedJoin) sightings s ON s.site = l.site AND s.id = l.id AND s.search = ?
            WHERE i.site = ? AND i.image = ? AND i.id != ? AND \(LastSeen.sighting("s")) >= ?
            ORDER BY s.first_seen LIMIT \(photoRows)
            """,
            [.text(search), .text(listing.site), .text(image), .text(listing.id), .time(since)]
          ) { (ListingColumns.listing($0), $0.date(SightingColumn.firstSeen)) }
        }
        holders += held[image] ?? []
      }
      for (holder, _) in holders { sharing[holder.id, default: []] += holders.map(\.0) }
      rows += holders
    }
    // The hashes of the candidates' photos, for the rule and the stock-photo check.
    let urls = rows.flatMap(\.0.imageURLs).filter { hashes[$0] == nil }
    hashes.merge(try Self.hashes(of: urls, in: database)) { kept, _ in kept }
    var seen = Set<String>()
    let candidates = rows.compactMap { other, firstSeen -> (Candidate, Date)? in
      guard seen.insert(other.id).inserted else { return nil }
      return (Candidate(listing: other, sharing: sharing[other.id] ?? []), firstSeen)
    }
    return (candidates, hashes)
  }
}

/// A listing the search saw that may be the same item as a new one, with the others that
/// share a photo with it (for the stock-photo check).
private struct Candidate {
  var listing: Listing
  var sharing: [Listing]
}

/// Rows read per fingerprint or photo, at most: past that many, a photo is a stock photo
/// whatever the others say.
private let photoRows = 64
