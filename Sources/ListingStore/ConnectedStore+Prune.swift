internal import Foundation

/// Retention: forgetting what no search has seen for a while, by index on the times.
extension ConnectedStore {
  /// Recent rows kept per search: more than any page shows (`output.keep` is at most this).
  static var recentKept: Int { 500 }

  /// Forgets what no search has seen for `retention`: the sightings (with their deliveries,
  /// held and recent rows), then listings no search sees any more (with their prices), ended
  /// cool-downs, photos fetched before the cut-off that no kept listing shows, travel times
  /// older than ``TravelTimeCache/maxAge`` (whatever `retention`), and recent rows beyond
  /// ``recentKept`` per search. Each step goes by an index
  /// on the time, never through all the history. Starred listings keep their rows; marks are
  /// never removed. Returns the rows removed, by table.
  @discardableResult
  public func prune(now: Date, retention: TimeInterval) throws -> StoreCounts {
    try pruneRows(now: now, retention: retention)
  }

  /// ``prune(now:retention:)``, for each store.
  func pruneRows(now: Date, retention: TimeInterval) throws -> StoreCounts {
    let cutoff = StoreValue.time(now.addingTimeInterval(-retention))
    return try locked { database in
      try database.transaction {
        var counts = StoreCounts()
        // Outside an answer by their own time; in one, by its time (``LastSeen``): from the
        // answers, not through every sighting in one. A starred listing keeps its story (and
        // its marks are never pruned): left alone outside an answer, taken out of an old one.
        let sql = database.dialect
        let starred = { (sighting: String) in
          "EXISTS(SELECT 1 FROM marks m WHERE m.site = \(sighting).site "
            + "AND m.id = \(sighting).id AND m.starred_at IS NOT NULL)"
        }
        let stale = try database.rows(
          "SELECT search, site, id, FALSE AS starred FROM sightings "
            + "WHERE NOT in_answer AND last_seen < ? "
            + "AND NOT \(starred("sightings")) "
            + "UNION ALL SELECT s.search, s.site, s.id, \(starred("s")) FROM answers a "
            + "\(sql.orderedJoin) sightings s\(sql.indexedBy("sightings_answer")) "
            + "ON s.search = a.search AND s.in_answer WHERE a.answered_at < ?", [cutoff, cutoff]
        ) {
          (
            $0.text(SightingColumn.search),
            ListingKey(site: $0.text(SightingColumn.site), id: $0.text(SightingColumn.id)),
            $0.flag(MarkColumn.starred)
          )
        }
        for (search, listing, isStarred) in stale {
          let key: [StoreValue] = [.text(search), .text(listing.site), .text(listing.id)]
          if isStarred {
            // Its answer goes below: the time it was seen is kept on the sighting itself.
            try database.run(
              "UPDATE sightings SET last_seen = \(LastSeen.sighting("sightings")), "
                + "in_answer = FALSE WHERE search = ? AND site = ? AND id = ? AND in_answer", key)
            continue
          }
          for table in ["deliveries", "held", "recent", "watched", "sightings"] {
            try database.run("DELETE FROM \(table) WHERE search = ? AND site = ? AND id = ?", key)
            counts.add(database.changes, table)
          }
        }
        // Their listings were seen last when those answers came: none of them is newer.
        try database.run("DELETE FROM answers WHERE answered_at < ?", [cutoff])
        let gone = try database.rows(
          "SELECT site, id FROM listings l WHERE last_seen < ? AND NOT EXISTS "
            + "(SELECT 1 FROM sightings s WHERE s.site = l.site AND s.id = l.id) AND NOT EXISTS "
            + "(SELECT 1 FROM marks m WHERE m.site = l.site AND m.id = l.id "
            + "AND m.starred_at IS NOT NULL)", [cutoff]
        ) { [StoreValue.text($0.text(ListingColumn.site)), .text($0.text(ListingColumn.id))] }
        for key in gone {
          for table in ["prices", "listing_images", "text_changes", "signals", "listings"] {
            try database.run("DELETE FROM \(table) WHERE site = ? AND id = ?", key)
            counts.add(database.changes, table)
          }
          try database.run(
            "DELETE FROM cross_posts WHERE (site = ? AND id = ?) OR (other_site = ? AND other_id = ?)",
            key + key)
        }
        // Photos fetched before the cut-off that no listing kept shows any more.
        let unused =
          "SELECT url FROM photo_hashes p WHERE p.fetched_at < ? AND NOT EXISTS "
          + "(SELECT 1 FROM listing_images i WHERE i.image = p.image)"
        try database.run("DELETE FROM photo_bands WHERE url IN (\(unused))", [cutoff])
        try database.run("DELETE FROM photo_hashes WHERE url IN (\(unused))", [cutoff])
        counts.add(database.changes, "photo_hashes")
        try database.run(
          "DELETE FROM travel_times WHERE asked_at < ?",
          [.time(now.addingTimeInterval(-TravelTimeCache.maxAge))])
        counts.add(database.changes, "travel_times")
        try database.run("DELETE FROM cooldowns WHERE until <= ?", [.time(now)])
        counts.add(database.changes, "cooldowns")
        try database.run(Self.trimRecent(database.dialect.rowid), [.int(Self.recentKept)])
        counts.add(database.changes, "recent")
        return counts
      }
    }
  }

  /// Keeps the newest ``recentKept`` recent rows of each search.
  private static func trimRecent(_ rowid: String) -> String {
    """
    DELETE FROM recent WHERE \(rowid) IN (
      SELECT \(rowid) FROM (
        SELECT \(rowid), row_number() OVER (PARTITION BY search ORDER BY found DESC, \(rowid) DESC) AS n
        FROM recent) ranked
      WHERE n > ?)
    """
  }
}
