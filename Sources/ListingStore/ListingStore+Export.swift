import Foundation

/// `clarissa state export`: everything the store remembers as JSON lines (docs/state.md), in a
/// stable order so that a state kept in git changes by small diffs.
extension ListingStore {
  /// The export format this build writes (the `format` of the first line).
  public static let exportFormat = 1

  /// Writes the store as JSON lines, one object each (no newline: `write` adds it), from one
  /// consistent view: a header, then searches, listings (with their price history and
  /// sightings), deliveries, held, recent, validators, cool-downs and cross-site links.
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
      let name = row.text(0)
      var object: [String: Any] = ["name": name]
      object["lastRun"] = StoreLine.time(row.optionalDouble(1))
      object["lastAttempt"] = StoreLine.time(row.optionalDouble(2))
      if row.int(3) != 0 {
        object["allSourcesKnown"] = true
      } else {
        object["sources"] = try database.rows(
          "SELECT url FROM sources WHERE search = ? ORDER BY url", [.text(name)]
        ) { $0.text(0) }
      }
      try write(StoreLine.text("search", object))
    }
  }

  private static func exportListings(_ database: SQLiteDatabase, _ write: (String) throws -> Void)
    throws
  {
    try database.run(
      "SELECT \(ListingColumns.selected), l.first_seen, \(LastSeen.listing("l")), l.viewed_at "
        + "FROM listings l "
        + "ORDER BY site, id"
    ) { row in
      var object = StoreLine.listing(ListingColumns.listing(row, from: 0))
      let after = ListingColumns.width
      object["firstSeen"] = StoreLine.time(row.double(after))
      object["lastSeen"] = StoreLine.time(row.double(after + 1))
      object["viewedAt"] = StoreLine.time(row.optionalDouble(after + 2))
      let key: [SQLiteDatabase.Value] = [.text(row.text(0)), .text(row.text(1))]
      object["prices"] = try database.rows(
        "SELECT seen_at, price, currency FROM prices WHERE site = ? AND id = ? ORDER BY seen_at",
        key
      ) { price in
        var entry: [String: Any] = [
          "at": StoreLine.time(price.double(0)) ?? "", "price": price.double(1),
        ]
        entry["currency"] = price.optionalText(2)
        return entry
      }
      object["sightings"] = try database.rows(
        "SELECT search, first_seen, \(LastSeen.sighting("s")), announced_price, repost_of "
          + "FROM sightings s WHERE site = ? AND id = ? ORDER BY search", key
      ) { sighting -> [String: Any] in
        var object: [String: Any] = [
          "search": sighting.text(0), "firstSeen": StoreLine.time(sighting.double(1)) ?? "",
          "lastSeen": StoreLine.time(sighting.double(2)) ?? "",
        ]
        object["announcedPrice"] = sighting.optionalDouble(3)
        object["repostOf"] = sighting.optionalText(4)
        return object
      }
      try write(StoreLine.text("listing", object))
    }
  }
}
