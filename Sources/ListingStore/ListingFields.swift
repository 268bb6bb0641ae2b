internal import ClarissaCore

/// A listing's row in `listings`: its fields as last seen, written by a run and by an import.
enum ListingFields {
  /// Inserts a listing (its key, every fact, its fingerprint, first seen, last seen and content
  /// hash: ``values(_:)`` then those) or, when it is there, updates its facts, fingerprint and
  /// hash, `times` saying what becomes of the times of one already there. The description is
  /// kept when the listing's text is pending (``ListingColumns/upsert(extra:update:keepingText:)``).
  static func upsert(times: String, keepingText: Bool) -> String {
    if times == seenNow { return keepingText ? seenKeepingText : seen }
    return made(times: times, keepingText: keepingText)
  }

  /// What a run's upsert does to the times of a listing already there: its last seen moves
  /// forward only (an older answer recorded late keeps the newer time).
  static let seenNow = "last_seen = " + LastSeen.later("listings.last_seen", "excluded.last_seen")
  // A run's two statements, made once: a run writes one for every new or changed listing.
  private static let seen = made(times: seenNow, keepingText: false)
  private static let seenKeepingText = made(times: seenNow, keepingText: true)

  private static func made(times: String, keepingText: Bool) -> String {
    ListingColumns.upsert(
      extra: ["fingerprint", "first_seen", "last_seen", "content_hash"],
      update: "fingerprint = excluded.fingerprint, content_hash = excluded.content_hash, "
        + times,
      keepingText: keepingText)
  }

  /// The values of a listing's facts after its key (``ListingColumns/values(_:)``), then its
  /// fingerprint.
  static func values(_ listing: Listing) -> [StoreValue] {
    ListingColumns.values(listing) + [.text(Fingerprint.key(listing))]
  }

  /// The listing's photo ids, for finding its reposts.
  static func storeImages(_ listing: Listing, in database: some StoreConnection) throws {
    for image in Fingerprint.images(listing) {
      try database.run(
        "INSERT INTO listing_images(site, image, id) VALUES(?, ?, ?) ON CONFLICT DO NOTHING",
        [.text(listing.site), .text(image), .text(listing.id)])
    }
  }
}
