internal import Foundation

/// One of the store's own rules, as `clarissa state check` applies it: a query of the rows that
/// break it (up to three text columns naming each), written once for SQLite and PostgreSQL.
struct StoreRule: Sendable {
  /// The rows that break it, plural ("sightings of a listing the store does not have").
  var what: String
  /// The query, in the engine's words.
  var query: @Sendable (SQLDialect) -> String

  /// A rule whose query is the same in both engines.
  init(_ what: String, _ sql: String) {
    self.what = what
    query = { _ in sql }
  }

  /// A rule whose query uses the words where the engines differ.
  init(_ what: String, query: @escaping @Sendable (SQLDialect) -> String) {
    self.what = what
    self.query = query
  }
}

extension StoreConnection {
  /// One sentence per rule broken: how many rows break it, and the first of them.
  func broken(_ rules: [StoreRule]) throws -> [String] {
    try rules.compactMap { rule in
      let sql = rule.query(dialect)
      let found = try integer("SELECT count(*) FROM (\(sql)) AS broken")
      guard found > 0 else { return nil }
      let example =
        try rows("\(sql) LIMIT 1") { row in
          (0..<3).map { row.text($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        }.first ?? ""
      return "\(found) \(rule.what) (for example '\(example)')"
    }
  }
}

extension StoreRule {
  /// The rules of every store, SQLite and PostgreSQL alike.
  static let shared: [StoreRule] = [
    StoreRule(
      "sightings of a listing the store does not have",
      "SELECT search, site, id FROM sightings s WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = s.site AND l.id = s.id)"),
    StoreRule(
      "deliveries of a listing the store does not have",
      "SELECT search, site, id FROM deliveries d WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = d.site AND l.id = d.id)"),
    StoreRule(
      "held listings the store does not have",
      "SELECT search, site, id FROM held h WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = h.site AND l.id = h.id)"),
    StoreRule(
      "recent listings the store does not have",
      "SELECT search, site, id FROM recent r WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = r.site AND l.id = r.id)"),
    StoreRule(
      "price rows of a listing the store does not have",
      "SELECT site, id, seen_at FROM prices p WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = p.site AND l.id = p.id)"),
    StoreRule(
      "cross-site links to or from a listing the store does not have",
      "SELECT site, id, other_id FROM cross_posts c WHERE NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = c.site AND l.id = c.id) OR NOT EXISTS "
        + "(SELECT 1 FROM listings l WHERE l.site = c.other_site AND l.id = c.other_id)"),
    StoreRule(
      "deliveries in an unknown state",
      "SELECT search, id, state FROM deliveries "
        + "WHERE state NOT IN ('owed', 'delivered', 'failed')"),
    StoreRule(
      "deliveries marked delivered without a time",
      "SELECT search, id, channel FROM deliveries WHERE state = 'delivered' AND at IS NULL"),
    StoreRule(
      "failed deliveries with no attempt counted",
      "SELECT search, id, channel FROM deliveries WHERE state = 'failed' AND attempts < 1"),
    StoreRule(
      "sightings last seen before they were first seen",
      "SELECT search, site, id FROM sightings s WHERE \(LastSeen.sighting("s")) < first_seen"),
    StoreRule(
      "sightings in an answer their search does not have",
      "SELECT search, site, id FROM sightings s WHERE in_answer AND NOT EXISTS "
        + "(SELECT 1 FROM answers a WHERE a.search = s.search)"),
    StoreRule("listings with images that are not a JSON list") {
      "SELECT site, id, images FROM listings WHERE \($0.notJSONList("images"))"
    },
    // The counts the triggers keep, against a recount from the sightings and listings.
    StoreRule(
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
      """),
  ]
}
