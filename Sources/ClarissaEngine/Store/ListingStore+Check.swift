import Foundation

/// `clarissa state check`: SQLite's own checks, then the store's rules.
extension ListingStore {
  /// Every problem found, one sentence each; empty when the store is sound. A file damaged
  /// beyond opening never gets here: ``open(path:readOnly:busyTimeout:)`` refuses it.
  public func check() throws -> [String] {
    try locked { database in
      try Self.snapshot(database) {
        var problems = try database.rows("PRAGMA integrity_check") { $0.text(0) }
          .filter { $0 != "ok" }
          .map { "sqlite integrity check: \($0)" }
        problems += try database.rows("PRAGMA foreign_key_check") {
          "sqlite foreign key check: a row of '\($0.text(0))' refers to a missing '\($0.text(2))'"
        }
        // A damaged page can make the rules' queries fail: what SQLite found says enough.
        guard problems.isEmpty else { return problems }
        let version = try database.integer("PRAGMA user_version")
        if version != StoreSchema.current {
          problems.append(
            "schema version \(version), where this clarissa writes \(StoreSchema.current)")
        }
        for rule in Self.rules {
          let found = try database.integer("SELECT count(*) FROM (\(rule.sql))")
          guard found > 0 else { continue }
          let example =
            try database.rows("\(rule.sql) LIMIT 1") { row in
              (0..<3).map { row.text($0) }.filter { !$0.isEmpty }.joined(separator: " ")
            }.first ?? ""
          problems.append("\(found) \(rule.what) (for example '\(example)')")
        }
        return problems
      }
    }
  }

  /// The store's own rules, each a query of the rows that break it (up to three text
  /// columns naming the first).
  private static let rules: [(what: String, sql: String)] = [
    (
      "sightings of a listing the store does not have",
      "SELECT search, site, id FROM sightings s WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = s.site AND l.id = s.id)"
    ),
    (
      "deliveries of a listing the store does not have",
      "SELECT search, site, id FROM deliveries d WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = d.site AND l.id = d.id)"
    ),
    (
      "held listings the store does not have",
      "SELECT search, site, id FROM held h WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = h.site AND l.id = h.id)"
    ),
    (
      "recent listings the store does not have",
      "SELECT search, site, id FROM recent r WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = r.site AND l.id = r.id)"
    ),
    (
      "price rows of a listing the store does not have",
      "SELECT site, id, seen_at FROM prices p WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = p.site AND l.id = p.id)"
    ),
    (
      "deliveries in an unknown state",
      "SELECT search, id, state FROM deliveries "
        + "WHERE state NOT IN ('owed', 'delivered', 'failed')"
    ),
    (
      "deliveries marked delivered without a time",
      "SELECT search, id, channel FROM deliveries WHERE state = 'delivered' AND at IS NULL"
    ),
    (
      "failed deliveries with no attempt counted",
      "SELECT search, id, channel FROM deliveries WHERE state = 'failed' AND attempts < 1"
    ),
    (
      "sightings last seen before they were first seen",
      "SELECT search, site, id FROM sightings WHERE last_seen < first_seen"
    ),
    (
      "listings with images that are not a JSON list",
      "SELECT site, id, images FROM listings WHERE json_valid(images) = 0 "
        + "OR json_type(images) != 'array'"
    ),
    (
      "searches whose count of unviewed listings differs from a recount",
      """
      WITH counted AS (SELECT s.search, count(*) AS n FROM sightings s WHERE NOT EXISTS
        (SELECT 1 FROM listings l WHERE l.site = s.site AND l.id = s.id AND l.viewed_at IS NOT NULL)
        GROUP BY s.search)
      SELECT c.search, 'kept ' || coalesce(u.count, 0), 'counted ' || c.n FROM counted c
        LEFT JOIN unviewed u ON u.search = c.search WHERE coalesce(u.count, 0) != c.n
      UNION ALL
      SELECT u.search, 'kept ' || u.count, 'counted 0' FROM unviewed u
        WHERE u.count != 0 AND NOT EXISTS (SELECT 1 FROM counted c WHERE c.search = u.search)
      """
    ),
  ]
}
