import ClarissaCore

/// A listing's row in `listings`: its fields as last seen, written by a run and by an import.
enum ListingFields {
  /// Inserts a listing (key, ``values(_:)`` with its fingerprint, first seen, last seen, its
  /// ``contentHash(_:)`` or null, ``keepsText(_:)``) or updates its fields, with `times` saying
  /// what becomes of the times of one already there.
  static func upsert(times: String) -> String {
    """
    INSERT INTO listings(site, id, url, title, description, price, currency, posted, location,
      area, latitude, longitude, images, category, fingerprint, first_seen, last_seen,
      content_hash)
    VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(site, id) DO UPDATE SET url = excluded.url, title = excluded.title,
      fingerprint = excluded.fingerprint,
      description = CASE WHEN ?19 THEN listings.description ELSE excluded.description END,
      price = excluded.price, currency = excluded.currency,
      posted = excluded.posted, location = excluded.location, area = excluded.area,
      latitude = excluded.latitude, longitude = excluded.longitude, images = excluded.images,
      category = excluded.category, content_hash = excluded.content_hash, \(times)
    """
  }

  /// Sixteen hex digits naming everything a run stores of a listing (and so its fingerprint and
  /// photo ids): the description as the site gave it, HTML while pending. A listing first
  /// stored with its text made therefore differs once from its next, pending, sighting, which
  /// is then stored with the text kept (``keepsText(_:)``) and this hash.
  static func contentHash(_ listing: Listing) -> String {
    func part(_ value: String?) -> String { value.map { "=" + $0 } ?? "" }
    func part(_ value: Double?) -> String { value.map { "=\($0)" } ?? "" }
    return ContentHash.hex(
      [
        listing.url, listing.title,
        listing.descriptionHTML.map { "html:" + $0 }
          ?? "text:" + listing.description,
        part(listing.price), part(listing.currency),
        part(listing.posted?.timeIntervalSince1970), part(listing.location), part(listing.area),
        part(listing.coordinates?.latitude), part(listing.coordinates?.longitude),
        part(listing.category),
      ] + listing.imageURLs)
  }

  /// Whether the stored text stays: a listing seen again arrives with its description not
  /// converted (only unseen listings pay for that), and must not blank the text kept.
  static func keepsText(_ listing: Listing) -> StoreValue {
    .int(listing.isDescriptionPending ? 1 : 0)
  }

  /// The values of a listing's stored fields after its key, in the order of the `listings`
  /// table (url through category, then the fingerprint).
  static func values(_ listing: Listing) -> [StoreValue] {
    [
      .text(listing.url), .text(listing.title), .text(listing.description),
      .doubleOrNull(listing.price), .textOrNull(listing.currency), .time(listing.posted),
      .textOrNull(listing.location), .textOrNull(listing.area),
      .doubleOrNull(listing.coordinates?.latitude), .doubleOrNull(listing.coordinates?.longitude),
      .text(StoreJSON.text(listing.imageURLs)), .textOrNull(listing.category),
      .text(Fingerprint.key(listing)),
    ]
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
