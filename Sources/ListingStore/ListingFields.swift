import ClarissaCore

/// A listing's row in `listings`: its fields as last seen, written by a run and by an import.
enum ListingFields {
  /// Inserts a listing (its key, every fact, its fingerprint, first seen, last seen and content
  /// hash: ``values(_:)`` then those) or, when it is there, updates its facts, fingerprint and
  /// hash, `times` saying what becomes of the times of one already there. The description is
  /// kept when the listing's text is pending (``ListingColumns/upsert(extra:update:keepingText:)``).
  static func upsert(times: String, keepingText: Bool) -> String {
    ListingColumns.upsert(
      extra: ["fingerprint", "first_seen", "last_seen", "content_hash"],
      update: "fingerprint = excluded.fingerprint, content_hash = excluded.content_hash, "
        + times,
      keepingText: keepingText)
  }

  /// Sixteen hex digits naming everything a run stores of a listing (and so its fingerprint and
  /// photo ids): ``ListingField/contentHash(_:)``, the description as the site gave it, HTML
  /// while pending. A listing first stored with its text made therefore differs once from its
  /// next, pending, sighting, which is then stored with the text kept and this hash.
  static func contentHash(_ listing: Listing) -> String {
    ListingField.contentHash(listing)
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
