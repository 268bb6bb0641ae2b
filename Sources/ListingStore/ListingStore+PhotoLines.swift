internal import Foundation

/// `state export` and `state import` of the photo fingerprints (``PhotoHash``): one line
/// `{"type":"photoHash", "url", "hash" (16 hexadecimal digits, as `clarissa photos hash`
/// prints it), "width", "height", "fetchedAt", "note"}` per photo fetched, after the
/// listings. An import writes each photo's bands too, so the look-up finds it at once.
extension ListingStore {
  /// Writes every kept photo as a `photoHash` line, by address.
  static func exportPhotoHashes(_ database: SQLiteDatabase, _ write: (String) throws -> Void)
    throws
  {
    try database.run(
      "SELECT url, hash, width, height, fetched_at, note FROM photo_hashes ORDER BY url"
    ) { row in
      var object: [String: Any] = [
        "url": row.text(PhotoHashColumn.url), "width": row.int(PhotoHashColumn.width),
        "height": row.int(PhotoHashColumn.height),
      ]
      object["fetchedAt"] = StoreLine.time(row.double(PhotoHashColumn.fetchedAt))
      object["hash"] = row.optionalInt(PhotoHashColumn.hash).map {
        PhotoMatch.hex(PhotoMatch.hash(stored: $0))
      }
      object["note"] = row.optionalText(PhotoHashColumn.note)
      try write(StoreLine.text("photoHash", object))
    }
  }

  /// Reads a `photoHash` line into the store (a photo kept already is replaced).
  static func importPhotoHash(
    _ line: ImportedLine, _ database: SQLiteDatabase, _ counts: inout StoreCounts
  ) throws {
    let url = try line.required("url")
    var hash: UInt64?
    if line.object["hash"] != nil {
      let text = try line.required("hash")
      guard let value = PhotoMatch.hash(hex: text) else {
        throw line.problem("has a hash that is not 16 hexadecimal digits: '\(text.prefix(40))'")
      }
      hash = value
    }
    let note = line.object["note"] == nil ? nil : try line.required("note")
    let photo = PhotoHash(
      url: url, hash: hash, width: max(0, try line.int("width") ?? 0),
      height: max(0, try line.int("height") ?? 0), fetchedAt: try line.requiredDate("fetchedAt"),
      note: note)
    try remember(photo, in: database)
    counts.add(1, "photo_hashes")
  }
}
