public import Foundation

/// What the `state` commands ask of the store: a summary, forgetting a search, and a check.
/// None of these is on a run's path: they may read whole tables.
extension ListingStore: StoreSummary {
  /// The file, its version and what it remembers; cool-downs still running at `now`.
  public func info(now: Date = Date()) throws -> StoreInfo {
    let cooldowns = Cooldown.active(try cooldowns(), at: now)
    return try locked { database in
      try Self.snapshot(database) {
        StoreInfo(
          path: path, bytes: Self.bytesOnDisk(path),
          schemaVersion: try database.integer("PRAGMA user_version"),
          listings: try database.integer("SELECT count(*) FROM listings"),
          prices: try database.integer("SELECT count(*) FROM prices"),
          searches: try Self.searchInfo(database), channels: try Self.channelInfo(database),
          held: try database.integer("SELECT count(*) FROM held"), cooldowns: cooldowns)
      }
    }
  }

  /// Runs `body` in a read transaction: one consistent view while a run writes.
  static func snapshot<T>(_ database: SQLiteDatabase, _ body: () throws -> T) throws -> T {
    try database.execute("BEGIN")
    defer { try? database.execute("COMMIT") }
    return try body()
  }

  /// The file's bytes with its `-wal` and `-shm` (0 for a store in memory).
  static func bytesOnDisk(_ path: String) -> Int {
    ["", "-wal", "-shm"].reduce(0) { total, suffix in
      let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
      return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
    }
  }

  /// The names of the searches the store remembers anything of, sorted.
  public func searchNames() throws -> [String] {
    try locked { database in
      try database.rows(
        "SELECT name FROM searches UNION SELECT DISTINCT search FROM sightings "
          + "UNION SELECT DISTINCT search FROM deliveries ORDER BY 1"
      ) { $0.text(SearchColumn.name) }
    }
  }

  /// Forgets everything of `search`: its run times, sources, sightings, deliveries, held and
  /// recent rows, in one transaction. The next run treats it as never run: it primes the
  /// search (its current listings are recorded, notified only with `--notify-first-run`).
  /// The listings' own rows stay for other searches and until retention ends them.
  public func forget(search: String) throws -> StoreCounts {
    try locked { database in
      try database.transaction {
        var counts = StoreCounts()
        try Self.keepLastSeen(of: search, database)
        for table in ["sightings", "deliveries", "held", "recent", "sources"] {
          try database.run("DELETE FROM \(table) WHERE search = ?", [.text(search)])
          counts.add(database.changes, table)
        }
        try database.run("DELETE FROM answers WHERE search = ?", [.text(search)])
        try database.run("DELETE FROM searches WHERE name = ?", [.text(search)])
        counts.add(database.changes, "searches")
        return counts
      }
    }
  }

  /// Writes down in each listing of `search` when that search last saw it (``LastSeen``), before
  /// its sightings go: the listing stays last seen then.
  private static func keepLastSeen(of search: String, _ database: SQLiteDatabase) throws {
    let seen = LastSeen.sighting("s")
    try database.run(
      """
      UPDATE listings SET last_seen = (SELECT \(seen) FROM sightings s
        WHERE s.search = ?1 AND s.site = listings.site AND s.id = listings.id)
      WHERE (site, id) IN (SELECT s.site, s.id FROM sightings s
        JOIN listings l ON l.site = s.site AND l.id = s.id
        WHERE s.search = ?1 AND \(seen) > l.last_seen)
      """, [.text(search)])
  }
}
