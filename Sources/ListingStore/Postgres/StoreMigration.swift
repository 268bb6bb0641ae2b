// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
  public import ClarissaCore
  internal import Foundation

  /// `clarissa state migrate`: a SQLite store copied into PostgreSQL, or back, table by table in
  /// one transaction on the receiving side. The two schemas hold the same columns (PostgreSQL's
  /// version 1 is SQLite's 6, its versions 3 and 4 SQLite's 7 and 8), so values are copied as they are; the unviewed counts are not
  /// copied but kept by the receiving side's triggers as the rows arrive.
  public enum StoreMigration {
    /// What was copied, per table, in order.
    public struct Copied: Sendable {
      public var tables: [(table: String, rows: Int)] = []
      public var total: Int { tables.reduce(0) { $0 + $1.rows } }
    }

    enum Kind { case text, real, integer, flag }

    /// Every table and its columns, parents first.
    static let tables: [(name: String, columns: [(String, Kind)])] = [
      (
        "searches",
        [
          ("name", .text), ("last_run", .real), ("last_attempt", .real),
          ("all_sources_known", .flag), ("last_failures", .text),
        ]
      ),
      ("sources", [("search", .text), ("url", .text)]),
      (
        "listings",
        [("site", Kind.text), ("id", Kind.text)]
          + ListingField.allColumns.map { ($0.name, $0.kind.isNumber ? Kind.real : Kind.text) }
          + [
            ("first_seen", .real), ("last_seen", .real), ("fingerprint", .text),
            ("viewed_at", .real), ("content_hash", .text),
          ]
      ),
      ("listing_images", [("site", .text), ("image", .text), ("id", .text)]),
      (
        "prices",
        [("site", .text), ("id", .text), ("seen_at", .real), ("price", .real), ("currency", .text)]
      ),
      (
        "sightings",
        [
          ("search", .text), ("site", .text), ("id", .text), ("first_seen", .real),
          ("last_seen", .real), ("repost_of", .text), ("announced_price", .real),
          ("in_answer", .flag),
        ]
      ),
      ("answers", [("search", .text), ("answered_at", .real)]),
      (
        "deliveries",
        [
          ("search", .text), ("site", .text), ("id", .text), ("channel", .text), ("state", .text),
          ("owed_at", .real), ("at", .real), ("attempts", .integer), ("last_error", .text),
          ("event", .text), ("old_price", .real), ("event_at", .real),
        ]
      ),
      ("held", [("search", .text), ("site", .text), ("id", .text), ("held_at", .real)]),
      (
        "recent",
        [
          ("search", .text), ("site", .text), ("id", .text), ("found", .real), ("event", .text),
          ("old_price", .real),
        ]
      ),
      ("validators", [("url", .text), ("etag", .text), ("last_modified", .text)]),
      (
        "cooldowns",
        [
          ("host", .text), ("until", .real), ("reason", .text), ("since", .real),
          ("status", .integer), ("answer", .text), ("urls", .text),
        ]
      ),
      (
        "cross_posts",
        [
          ("site", .text), ("id", .text), ("other_site", .text), ("other_id", .text),
          ("found_at", .real),
        ]
      ),
      (
        "watched",
        [
          ("search", .text), ("site", .text), ("id", .text), ("source", .text),
          ("missing", .integer), ("gone_at", .real),
        ]
      ),
      (
        "marks",
        [
          ("site", .text), ("id", .text), ("starred_at", .real), ("hidden_at", .real),
          ("note", .text), ("noted_at", .real),
        ]
      ),
      (
        "photo_hashes",
        [
          ("url", .text), ("image", .text), ("hash", .integer), ("width", .integer),
          ("height", .integer), ("fetched_at", .real), ("note", .text),
        ]
      ),
      ("photo_bands", [("band", .integer), ("url", .text)]),
      (
        "text_changes",
        [
          ("site", .text), ("id", .text), ("changed_at", .real), ("old_title", .text),
          ("old_description", .text),
        ]
      ),
      (
        "signals",
        [("site", .text), ("id", .text), ("kind", .text), ("text", .text), ("found_at", .real)]
      ),
    ]

    /// Copies the SQLite store into the PostgreSQL one, which must hold no listings yet.
    public static func copy(from sqlite: ListingStore, to postgres: PostgresStore) throws -> Copied
    {
      try copy(sqlite, into: postgres, named: postgres.url)
    }

    /// Copies the PostgreSQL store into the SQLite one, which must hold no listings yet.
    public static func copy(from postgres: PostgresStore, to sqlite: ListingStore) throws -> Copied
    {
      try copy(postgres, into: sqlite, named: sqlite.path)
    }

    /// Every table, parents first, in batches of 500 rows, in one transaction of the target.
    private static func copy(
      _ from: some ConnectedStore, into to: some ConnectedStore, named name: String
    ) throws -> Copied {
      try from.locked { source in
        try to.locked { target in
          try refuseUnlessEmpty(try target.integer("SELECT count(*) FROM listings"), name)
          return try target.transaction {
            var copied = Copied()
            for table in tables {
              // In the order written (the newest open delivery of a listing stands for the
              // others).
              let order =
                ["deliveries", "recent"].contains(table.name)
                ? " ORDER BY \(source.dialect.rowid)" : ""
              let select =
                "SELECT \(table.columns.map(\.0).joined(separator: ", ")) FROM \(table.name)"
              var batch: [[StoreValue]] = []
              var rows = 0
              try source.run(select + order) { row in
                batch.append(cells(row, table.columns))
                if batch.count == 500 {
                  try insert(batch, into: table, target)
                  rows += batch.count
                  batch = []
                }
              }
              if !batch.isEmpty { try insert(batch, into: table, target) }
              copied.tables.append((table.name, rows + batch.count))
            }
            return copied
          }
        }
      }
    }

    /// A row's columns as values to bind, each read by its name, by their kinds: a flag as 0 or
    /// 1 on both sides (PostgreSQL reads `1` as true; its `t` is read back as 1).
    static func cells(_ row: some StoreRow, _ columns: [(String, Kind)]) -> [StoreValue] {
      columns.map { column in
        let position = row.position(of: column.0)
        guard !row.isNull(position) else { return .null }
        switch column.1 {
        case .text: return .text(row.text(position))
        case .real: return .double(row.double(position))
        case .integer, .flag: return .int(row.int(position))
        }
      }
    }

    /// One INSERT of many rows; a flag cast to boolean (0 or 1 in SQLite, a boolean in
    /// PostgreSQL).
    private static func insert(
      _ batch: [[StoreValue]], into table: (name: String, columns: [(String, Kind)]),
      _ target: some StoreConnection
    ) throws {
      let row =
        "("
        + table.columns.map { $0.1 == .flag ? "CAST(? AS boolean)" : "?" }
        .joined(separator: ", ") + ")"
      try target.run(
        "INSERT INTO \(table.name)(\(table.columns.map(\.0).joined(separator: ", "))) VALUES "
          + Array(repeating: row, count: batch.count).joined(separator: ", "),
        batch.flatMap { $0 })
    }

    private static func refuseUnlessEmpty(_ listings: Int, _ name: String) throws {
      guard listings == 0 else {
        throw StoreProblem(
          message: "'\(name)' already holds \(listings) listings: a migration fills an empty "
            + "store. To merge two stores, export one ('clarissa state export') and import it "
            + "into the other ('clarissa state import')")
      }
    }
  }
#endif
