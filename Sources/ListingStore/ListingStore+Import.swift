internal import ClarissaCore
public import Foundation

/// `clarissa state import`: the lines of `state export` back into a store.
extension ListingStore {
  /// Reads the JSON lines of `data` (as `state export` writes them; `file` names them in
  /// errors) into the store, in one transaction: a bad line changes nothing. Importing twice
  /// changes nothing more; a delivery is never taken back. Returns the rows written by table.
  public func importLines(_ data: Data, file: String) throws -> StoreCounts {
    var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
    return try importing(file) { lines.popFirst().map { Data($0) } }
  }

  /// Reads the JSON lines of the file at `path` as ``importLines(_:file:)`` does, a piece at a
  /// time: an export of a million listings is never in memory whole.
  public func importLines(path: String) throws -> StoreCounts {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw StoreProblem("cannot read '\(path)'")
    }
    defer { try? handle.close() }
    var buffer = Data()
    var start = 0
    var ended = false
    return try importing(path) {
      while true {
        if let end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
          defer { start = end + 1 }
          return Data(buffer[start..<end])
        }
        if ended {
          defer { start = buffer.endIndex }
          return start == buffer.endIndex ? nil : Data(buffer[start...])
        }
        // Only the part of a line not yet read is carried into the next piece.
        buffer = Data(buffer[start...])
        start = 0
        let piece = try handle.read(upToCount: 1 << 20) ?? Data()
        ended = piece.isEmpty
        buffer.append(piece)
      }
    }
  }

  /// Imports the lines `next` gives, until nil.
  private func importing(_ file: String, _ next: () throws -> Data?) throws -> StoreCounts {
    try locked { database in
      try database.transaction {
        var counts = StoreCounts()
        var number = 0
        while let line = try next() {
          number += 1
          guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
          let fields = try ImportedLine(line, file: file, line: number)
          try Self.importLine(fields, into: database, counts: &counts)
        }
        return counts
      }
    }
  }

  private static func importLine(
    _ line: ImportedLine, into database: SQLiteDatabase, counts: inout StoreCounts
  ) throws {
    switch line.type {
    case "clarissa":
      let format = try line.int("format") ?? 0
      guard format <= exportFormat else {
        throw line.problem(
          "is an export of format \(format); this clarissa reads format \(exportFormat)")
      }
    case "search": try importSearch(line, database, &counts)
    case "listing": try importListing(line, database, &counts)
    case "photoHash": try importPhotoHash(line, database, &counts)
    default:
      guard let table = StoreLine.tables.first(where: { $0.type == line.type }) else {
        throw line.problem(
          "has an unknown type '\(line.type)' (known: clarissa, search, listing, photoHash, "
            + StoreLine.tables.map(\.type).joined(separator: ", ") + ")")
      }
      try database.run(table.insert, try table.columns.map(line.value))
      counts.add(database.changes, table.table)
    }
  }

  private static func importSearch(
    _ line: ImportedLine, _ database: SQLiteDatabase, _ counts: inout StoreCounts
  ) throws {
    let name = SQLiteDatabase.Value.text(try line.required("name"))
    let allKnown = line.object["allSourcesKnown"] as? Bool ?? false
    try database.run(
      "INSERT INTO searches(name, last_run, last_attempt, all_sources_known) VALUES(?, ?, ?, ?) "
        + "ON CONFLICT DO UPDATE SET last_run = \(newer("last_run")), "
        + "last_attempt = \(newer("last_attempt")), "
        + "all_sources_known = excluded.all_sources_known",
      [
        name, .time(try line.date("lastRun")), .time(try line.date("lastAttempt")),
        .int(allKnown ? 1 : 0),
      ])
    counts.add(database.changes, "searches")
    for url in try line.strings("sources") {
      try database.run(
        "INSERT OR IGNORE INTO sources(search, url) VALUES(?, ?)", [name, .text(url)])
      counts.add(database.changes, "sources")
    }
  }

  /// A sighting's last seen on import: the later of the one it has (``LastSeen``, taken out of
  /// its search's answer to hold it) and the imported one.
  static var laterLastSeen: String {
    "last_seen = max(\(LastSeen.sighting("sightings")), excluded.last_seen), in_answer = FALSE"
  }

  /// The later of a column and the imported value (either may be null).
  private static func newer(_ column: String) -> String {
    "max(coalesce(\(column), excluded.\(column)), coalesce(excluded.\(column), \(column)))"
  }

  private static func importListing(
    _ line: ImportedLine, _ database: SQLiteDatabase, _ counts: inout StoreCounts
  ) throws {
    let listing = try line.listing()
    let key: [SQLiteDatabase.Value] = [.text(listing.site), .text(listing.id)]
    let seen: [SQLiteDatabase.Value] = [
      .time(try line.requiredDate("firstSeen")), .time(try line.requiredDate("lastSeen")),
    ]
    // An older export never moves the times back.
    try database.run(
      ListingFields.upsert(
        times: "first_seen = min(first_seen, excluded.first_seen), "
          + "last_seen = max(last_seen, excluded.last_seen)",
        keepingText: listing.isDescriptionPending),
      key + ListingFields.values(listing) + seen + [.null])
    counts.add(database.changes, "listings")
    // A listing viewed in either state stays viewed, from the earlier time.
    if let viewed = try line.date("viewedAt") {
      try database.run(
        "UPDATE listings SET viewed_at = min(coalesce(viewed_at, ?1), ?1) WHERE site = ?2 AND id = ?3",
        [.time(viewed)] + key)
    }
    try ListingFields.storeImages(listing, in: database)
    for price in try line.objects("prices") {
      try database.run(
        "INSERT OR REPLACE INTO prices(site, id, seen_at, price, currency) VALUES(?, ?, ?, ?, ?)",
        key + [
          .time(try price.requiredDate("at")), .double(try price.number("price") ?? 0),
          .textOrNull(price.object["currency"] as? String),
        ])
      counts.add(database.changes, "prices")
    }
    for sighting in try line.objects("sightings") {
      try database.run(
        // An export without the price last announced (format 1 before schema 3): the price
        // imported is the one changes count from.
        "INSERT INTO sightings(search, site, id, first_seen, last_seen, announced_price, "
          + "repost_of) VALUES(?1, ?2, ?3, ?4, ?5, "
          + "coalesce(?6, (SELECT price FROM listings WHERE site = ?2 AND id = ?3)), ?7) "
          + "ON CONFLICT DO UPDATE SET first_seen = min(first_seen, excluded.first_seen), "
          + Self.laterLastSeen,
        [.text(try sighting.required("search"))] + key
          + [
            .time(try sighting.requiredDate("firstSeen")),
            .time(try sighting.requiredDate("lastSeen")),
            .doubleOrNull(try sighting.number("announcedPrice")),
            .textOrNull(sighting.object["repostOf"] as? String),
          ])
      counts.add(database.changes, "sightings")
    }
  }
}

extension ListingStore {
  /// Whether `path` holds a JSON state of an earlier clarissa (formats 1 and 2), to be read by
  /// ``importLegacy(jsonFile:sites:)`` rather than as JSON lines.
  public static func isLegacyJSON(_ path: String) -> Bool { LegacyImport.isLegacyJSON(path) }
}
