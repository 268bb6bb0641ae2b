internal import ClarissaCore
internal import Foundation

/// One line of `clarissa state export`: a JSON object whose first member is `"type"`, the rest
/// with sorted keys; absent values are left out. Times are ISO 8601 in UTC (milliseconds when
/// the time has a fraction). The simple tables are described once here, for both directions.
enum StoreLine {
  /// A column of a simple table and its member in the line.
  struct Column {
    enum Kind { case text, time, int, number, json }
    var name: String
    var key: String
    var kind: Kind
    var required: Bool
  }

  /// A table exported row by row as lines of one type.
  struct Table {
    var type: String
    var table: String
    var columns: [Column]
    var order: String
    /// What an imported row does to one already there.
    var conflict: String

    var select: String {
      "SELECT \(columns.map(\.name).joined(separator: ", ")) FROM \(table) ORDER BY \(order)"
    }

    var insert: String {
      "INSERT \(conflict.isEmpty ? "OR REPLACE " : "")INTO \(table)("
        + columns.map(\.name).joined(separator: ", ") + ") VALUES("
        + columns.map { _ in "?" }.joined(separator: ", ") + ")" + conflict
    }

    /// The row's members, each column read by its name.
    func read(_ row: SQLiteDatabase.Row) -> [String: Any] {
      var object: [String: Any] = [:]
      for column in columns {
        let position = row.position(of: column.name)
        switch column.kind {
        case .text: object[column.key] = row.optionalText(position)
        case .time: object[column.key] = StoreLine.time(row.optionalDouble(position))
        case .int: object[column.key] = row.optionalInt(position)
        case .number: object[column.key] = row.optionalDouble(position)
        case .json: object[column.key] = row.optionalText(position).flatMap(StoreJSON.strings)
        }
      }
      return object
    }
  }

  private static func column(
    _ name: String, _ key: String? = nil, _ kind: Column.Kind = .text, required: Bool = true
  ) -> Column {
    Column(name: name, key: key ?? name, kind: kind, required: required)
  }

  private static let listingKey = [column("search"), column("site"), column("id")]

  /// Deliveries, held, recent, validators, cool-downs, cross-site links, warning signs and marks.
  static let tables: [Table] = [
    Table(
      type: "delivery", table: "deliveries",
      columns: listingKey + [
        column("channel"), column("state"), column("owed_at", "owedAt", .time),
        column("at", nil, .time, required: false), column("attempts", nil, .int),
        column("last_error", "lastError", required: false),
      ],
      order: "search, site, id, channel",
      // A delivery is never taken back: an older export cannot make it owed again.
      // Events (price changes) are not exported: imported deliveries are those of new listings.
      conflict:
        " ON CONFLICT(search, site, id, channel, event_at) DO UPDATE SET state = excluded.state, "
        + "owed_at = excluded.owed_at, at = excluded.at, attempts = excluded.attempts, "
        + "last_error = excluded.last_error WHERE deliveries.state != 'delivered'"),
    Table(
      type: "held", table: "held", columns: listingKey + [column("held_at", "heldAt", .time)],
      order: "search, site, id", conflict: ""),
    Table(
      type: "recent", table: "recent",
      columns: listingKey + [
        column("found", nil, .time), column("event", required: false),
        column("old_price", "oldPrice", .number, required: false),
      ],
      order: "search, found, site, id", conflict: ""),
    Table(
      type: "validator", table: "validators",
      columns: [
        column("url"), column("etag", required: false),
        column("last_modified", "lastModified", required: false),
      ],
      order: "url", conflict: ""),
    Table(
      type: "cooldown", table: "cooldowns",
      columns: [
        column("host"), column("until", nil, .time), column("reason"),
        column("since", nil, .time, required: false), column("status", nil, .int, required: false),
        column("answer", required: false), column("urls", nil, .json, required: false),
      ],
      order: "host", conflict: ""),
    // Cross-site links (``SameFlat``): after every listing, so both ends are there.
    Table(
      type: "crossPost", table: "cross_posts",
      columns: [
        column("site"), column("id"), column("other_site", "otherSite"),
        column("other_id", "otherId"), column("found_at", "foundAt", .time),
      ],
      order: "site, id, other_site, other_id", conflict: ""),
    // Warning signs (``ListingSignal``): the imported sign of a kind replaces the store's.
    Table(
      type: "signal", table: "signals",
      columns: [
        column("site"), column("id"), column("kind"), column("text"),
        column("found_at", "foundAt", .time),
      ],
      order: "site, id, kind",
      conflict: " ON CONFLICT(site, id, kind) DO UPDATE SET text = excluded.text, "
        + "found_at = excluded.found_at"),
    // Marks (``ListingMarks``): a mark set in either store stays, from the earlier time; the
    // later note wins.
    Table(
      type: "mark", table: "marks",
      columns: [
        column("site"), column("id"),
        column("starred_at", "starredAt", .time, required: false),
        column("hidden_at", "hiddenAt", .time, required: false),
        column("note", required: false), column("noted_at", "notedAt", .time, required: false),
      ],
      order: "site, id",
      conflict: " ON CONFLICT(site, id) DO UPDATE SET \(earlier("starred_at")), "
        + "\(earlier("hidden_at")), \(laterNote("note")), \(laterNote("noted_at"))"),
  ]

  /// `column` of the note written later (the imported one when the row has none).
  private static func laterNote(_ column: String) -> String {
    "\(column) = CASE WHEN excluded.noted_at > coalesce(marks.noted_at, 0) "
      + "THEN excluded.\(column) ELSE marks.\(column) END"
  }

  /// `column` set to the earlier of the row's and the imported time (either may be null).
  private static func earlier(_ column: String) -> String {
    "\(column) = min(coalesce(marks.\(column), excluded.\(column)), "
      + "coalesce(excluded.\(column), marks.\(column)))"
  }

  /// The line for `object`, `"type"` first, the other members in sorted order.
  static func text(_ type: String, _ object: [String: Any]) throws -> String {
    var out = "{\"type\":"
    JSONText.write(type, to: &out)
    for key in object.keys.sorted() {
      guard let value = object[key] else { continue }
      out += ","
      JSONText.write(key, to: &out)
      out += ":"
      try JSONText.write(value: value, to: &out)
    }
    return out + "}"
  }

  /// A listing's members (its key and facts: ``ListingColumns/exported(_:)``).
  static func listing(_ listing: Listing) -> [String: Any] {
    ListingColumns.exported(listing)
  }

  /// Seconds since 1970 as ISO 8601: whole seconds as `2026-05-03T19:00:00Z`, others with
  /// milliseconds.
  static func time(_ seconds: Double?) -> String? {
    guard let seconds else { return nil }
    let date = Date(timeIntervalSince1970: seconds)
    if seconds.rounded(.down) == seconds { return ISODate.format(date) }
    return DateFormat.internetFractional.string(from: date)
  }

  /// A time written by ``time(_:)`` (or any ISO 8601 time, with or without a fraction).
  static func date(_ text: String) -> Date? {
    // The two forms ``time(_:)`` writes are read by hand: Foundation's formatter took most of
    // an import's time.
    let bytes = text.utf8
    if bytes.count == 20 { return ISODate.parse(text) }
    if bytes.count == 24, text.hasSuffix("Z"),
      bytes[bytes.index(bytes.startIndex, offsetBy: 19)] == 0x2E,
      let whole = ISODate.parse(String(text.prefix(19)) + "Z"),
      let fraction = Int(text.dropFirst(20).prefix(3))
    {
      return whole.addingTimeInterval(Double(fraction) / 1000)
    }
    return DateFormat.internetFractional.date(from: text) ?? DateFormat.internet.date(from: text)
  }
}
