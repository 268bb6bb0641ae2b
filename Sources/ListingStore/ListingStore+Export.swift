internal import Foundation

/// `clarissa state export`: everything the store remembers as JSON lines (docs/state.md), in a
/// stable order so that a state kept in git changes by small diffs.
extension ListingStore {
  /// The export format this build writes (the `format` of the first line).
  public static let exportFormat = 1

  /// Writes the store as JSON lines, one object each (no newline: `write` adds it), from one
  /// consistent view: a header, then searches, listings (with their price history and
  /// sightings), the photo fingerprints, deliveries, held, recent, validators, cool-downs and
  /// cross-site links.
  public func export(write: (String) throws -> Void) throws {
    try locked { database in
      try Self.snapshot(database) {
        try write(
          StoreLine.text(
            "clarissa",
            [
              "format": Self.exportFormat,
              "schema": try database.integer("PRAGMA user_version"),
            ]))
        try Self.exportSearches(database, write)
        try Self.exportListings(database, write)
        try Self.exportPhotoHashes(database, write)
        for table in StoreLine.tables {
          try database.run(table.select) { try write(StoreLine.text(table.type, table.read($0))) }
        }
      }
    }
  }

  private static func exportSearches(_ database: SQLiteDatabase, _ write: (String) throws -> Void)
    throws
  {
    try database.run(
      "SELECT name, last_run, last_attempt, all_sources_known FROM searches ORDER BY name"
    ) { row in
      let name = row.text(SearchColumn.name)
      var object: [String: Any] = ["name": name]
      object["lastRun"] = StoreLine.time(row.optionalDouble(SearchColumn.lastRun))
      object["lastAttempt"] = StoreLine.time(row.optionalDouble(SearchColumn.lastAttempt))
      if row.flag(SearchColumn.allSourcesKnown) {
        object["allSourcesKnown"] = true
      } else {
        object["sources"] = try database.rows(
          "SELECT url FROM sources WHERE search = ? ORDER BY url", [.text(name)]
        ) { $0.text(SourceColumn.url) }
      }
      try write(StoreLine.text("search", object))
    }
  }

  private static func exportListings(_ database: SQLiteDatabase, _ write: (String) throws -> Void)
    throws
  {
    try database.run(
      "SELECT \(ListingColumns.selected), l.first_seen, \(LastSeen.listing("l")) AS last_seen, "
        + "l.viewed_at "
        + "FROM listings l "
        + "ORDER BY site, id"
    ) { row in
      var object = StoreLine.listing(ListingColumns.listing(row))
      object["firstSeen"] = StoreLine.time(row.double(ListingColumn.firstSeen))
      object["lastSeen"] = StoreLine.time(row.double(ListingColumn.lastSeen))
      object["viewedAt"] = StoreLine.time(row.optionalDouble(ListingColumn.viewedAt))
      let key: [SQLiteDatabase.Value] = [
        .text(row.text(ListingColumn.site)), .text(row.text(ListingColumn.id)),
      ]
      object["prices"] = try database.rows(
        "SELECT seen_at, price, currency FROM prices WHERE site = ? AND id = ? ORDER BY seen_at",
        key
      ) { price in
        var entry: [String: Any] = [
          "at": StoreLine.time(price.double(PriceColumn.seenAt)) ?? "",
          "price": price.double(PriceColumn.price),
        ]
        entry["currency"] = price.optionalText(PriceColumn.currency)
        return entry
      }
      object["sightings"] = try database.rows(
        "SELECT search, first_seen, \(LastSeen.sighting("s")) AS last_seen, announced_price, "
          + "repost_of "
          + "FROM sightings s WHERE site = ? AND id = ? ORDER BY search", key
      ) { sighting -> [String: Any] in
        var object: [String: Any] = [
          "search": sighting.text(SightingColumn.search),
          "firstSeen": StoreLine.time(sighting.double(SightingColumn.firstSeen)) ?? "",
          "lastSeen": StoreLine.time(sighting.double(SightingColumn.lastSeen)) ?? "",
        ]
        object["announcedPrice"] = sighting.optionalDouble(SightingColumn.announcedPrice)
        object["repostOf"] = sighting.optionalText(SightingColumn.repostOf)
        return object
      }
      try write(StoreLine.text("listing", object))
    }
  }
}
