internal import ClarissaCore
internal import Foundation

/// Photo fingerprints (`photo_hashes`, ``PhotoMatch``): each fetched photo's hash kept by its
/// address, and the photos within 5 bits of one found through their bands (`photo_bands`).
extension ConnectedStore {
  public func photoHashes(_ urls: [String]) throws -> [String: PhotoHash] {
    try locked { database in
      try database.reading {
        var found: [String: PhotoHash] = [:]
        for url in Set(urls) {
          try database.run(
            "SELECT url, hash, width, height, fetched_at, note FROM photo_hashes WHERE url = ?",
            [.text(url)]
          ) { row in
            found[url] = PhotoHash(
              url: url,
              hash: row.optionalInt(PhotoHashColumn.hash).map { PhotoMatch.hash(stored: $0) },
              width: row.int(PhotoHashColumn.width), height: row.int(PhotoHashColumn.height),
              fetchedAt: row.date(PhotoHashColumn.fetchedAt),
              note: row.optionalText(PhotoHashColumn.note))
          }
        }
        return found
      }
    }
  }

  public func rememberPhotoHashes(_ photos: [PhotoHash]) throws {
    guard !photos.isEmpty else { return }
    try locked { database in
      try database.transaction {
        for photo in photos { try Self.remember(photo, in: database) }
      }
    }
  }

  /// Writes one photo's row and its bands (those of a hash it had before taken out).
  static func remember(_ photo: PhotoHash, in database: Connection) throws {
    try database.run("DELETE FROM photo_bands WHERE url = ?", [.text(photo.url)])
    try database.run(
      "INSERT INTO photo_hashes(url, image, hash, width, height, fetched_at, note) "
        + "VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(url) DO UPDATE SET image = excluded.image, "
        + "hash = excluded.hash, width = excluded.width, height = excluded.height, "
        + "fetched_at = excluded.fetched_at, note = excluded.note",
      [
        .text(photo.url), .text(Fingerprint.image(photo.url)),
        photo.hash.map { .int(PhotoMatch.stored($0)) } ?? .null, .int(photo.width),
        .int(photo.height), .time(photo.fetchedAt), .textOrNull(photo.note),
      ])
    guard let hash = photo.hash else { return }
    for band in PhotoMatch.bands(hash) {
      try database.run(
        "INSERT INTO photo_bands(band, url) VALUES(?, ?) ON CONFLICT DO NOTHING",
        [.int(band), .text(photo.url)])
    }
  }

  /// The hashes kept of these photo addresses (refused ones absent), on an open connection.
  static func hashes(of urls: some Sequence<String>, in database: Connection) throws
    -> [String: UInt64]
  {
    var found: [String: UInt64] = [:]
    for url in Set(urls) {
      try database.run(
        "SELECT hash FROM photo_hashes WHERE url = ? AND hash IS NOT NULL", [.text(url)]
      ) { found[url] = PhotoMatch.hash(stored: $0.int(PhotoHashColumn.hash)) }
    }
    return found
  }

  /// The kept photos within ``PhotoMatch/maxDistance`` bits of `hash` (the photo itself
  /// included): their addresses, ids and hashes. Read by the six bands, at most
  /// ``bandRows`` rows each: a band that many photos share (a flat grey picture's) is not
  /// read further, so a look-up reads at most 6 x 256 rows.
  static func similarPhotos(to hash: UInt64, in database: Connection) throws -> [(
    url: String, image: String, hash: UInt64
  )] {
    var found: [String: (url: String, image: String, hash: UInt64)] = [:]
    for band in PhotoMatch.bands(hash) {
      try database.run(
        "SELECT p.url, p.image, p.hash FROM photo_bands b "
          + "\(database.dialect.orderedJoin) photo_hashes p ON p.url = b.url "
          + "WHERE b.band = ? LIMIT \(bandRows)", [.int(band)]
      ) { row in
        let theirs = PhotoMatch.hash(stored: row.int(PhotoHashColumn.hash))
        guard PhotoMatch.same(hash, theirs) else { return }
        let url = row.text(PhotoHashColumn.url)
        found[url] = (url, row.text(PhotoHashColumn.image), theirs)
      }
    }
    return found.values.sorted { $0.url < $1.url }
  }

  /// Rows read per band, at most (``similarPhotos(to:in:)``).
  static var bandRows: Int { 256 }

  /// The ids of the photos each of `listing`'s photos is, with the kept hashes: per photo
  /// address, its own id and, when its hash is kept, the ids of the kept photos within 5 bits
  /// of it (at most ``similarIDs`` of them); and the hashes read, by address.
  static func photoGroups(of listing: Listing, in database: Connection) throws -> (
    groups: [(url: String, ids: [String])], hashes: [String: UInt64]
  ) {
    var hashes = try Self.hashes(of: listing.imageURLs, in: database)
    var groups: [(url: String, ids: [String])] = []
    for url in listing.imageURLs {
      var group = [Fingerprint.image(url)]
      guard !group[0].isEmpty else { continue }
      if let hash = hashes[url] {
        for photo in try similarPhotos(to: hash, in: database).prefix(similarIDs)
        where !group.contains(photo.image) {
          group.append(photo.image)
          hashes[photo.url] = photo.hash
        }
      }
      groups.append((url, group))
    }
    return (groups, hashes)
  }

  /// Photo ids within 5 bits of one photo read, at most.
  static var similarIDs: Int { 16 }
}
