// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
  internal import Foundation

  /// `clarissa state check` on PostgreSQL: the schema's version, the rules of every store, then
  /// what sharing adds. Read in one read-only snapshot, over a connection of its own: the check
  /// never registers as a worker, never makes or upgrades the schema, and sees the counts and the
  /// rows they count at the same moment however many workers write meanwhile.
  extension PostgresStore {
    /// Every problem found in the store at `url`, one sentence each (empty when it is sound);
    /// nil when the database holds no clarissa store yet (the first worker makes it).
    public static func check(url: String, password: String? = nil) throws -> [String]? {
      let database = try PostgresDatabase(url: url, password: password)
      return try database.transaction {
        try database.execute(script: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        guard try database.integer("SELECT to_regclass('clarissa_schema') IS NOT NULL") == 1 else {
          let listings = try database.integer("SELECT to_regclass('listings') IS NOT NULL")
          return listings == 1 ? ["no table 'clarissa_schema': not a clarissa store"] : nil
        }
        let version = try database.integer(
          "SELECT coalesce(max(version), 0) FROM clarissa_schema")
        guard version == PostgresSchema.current else {
          // The rules are written for this version's tables.
          return [
            "schema version \(version), where this clarissa writes \(PostgresSchema.current) "
              + (version > PostgresSchema.current
                ? "(upgrade this clarissa to check it)"
                : "(the next worker to start upgrades it)")
          ]
        }
        return try database.broken(StoreRule.shared + sharingRules)
      }
    }

    /// What only a shared store has: the triggers that keep the unviewed counts (SQLite's cannot
    /// be disabled), and leases with their workers.
    static let sharingRules: [StoreRule] = [
      StoreRule(
        "triggers keeping the unviewed counts missing or disabled",
        """
        SELECT t.name, t.tab, CASE WHEN p.oid IS NULL THEN 'missing' ELSE 'disabled' END
        FROM (VALUES ('unviewed_sighting', 'sightings'), ('unviewed_listing', 'listings'))
          AS t(name, tab)
        LEFT JOIN pg_trigger p ON p.tgname = t.name AND p.tgrelid = to_regclass(t.tab)
        WHERE p.oid IS NULL OR p.tgenabled IN ('D', 'R')
        """),
      StoreRule(
        "leases held by a worker the store does not know",
        "SELECT worker, search, source FROM leases l WHERE done_at IS NULL AND worker IS NOT NULL "
          + "AND NOT EXISTS (SELECT 1 FROM workers w WHERE w.name = l.worker)"),
    ]
  }
#endif
