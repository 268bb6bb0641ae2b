internal import ClarissaCore
internal import Foundation

/// The `listings` table's columns for a listing's facts, made from ``ListingField/all``: the
/// statements both stores run, the columns' SQL types in each, the listing read back from a row,
/// and its members in `state export` and `state import`. No statement here names a column by
/// position.
enum ListingColumns {
  /// The SQL type of a column of `kind`: SQLite's words, or PostgreSQL's.
  static func type(_ kind: ListingField.Kind, postgres: Bool) -> String {
    switch kind {
    case .text, .textOrEmpty: postgres ? "text NOT NULL" : "TEXT NOT NULL"
    case .optionalText: postgres ? "text" : "TEXT"
    case .number, .time: postgres ? "double precision" : "REAL"
    case .texts: postgres ? "text NOT NULL DEFAULT '[]'" : "TEXT NOT NULL DEFAULT '[]'"
    case .textMap: postgres ? "text NOT NULL DEFAULT '{}'" : "TEXT NOT NULL DEFAULT '{}'"
    }
  }

  /// The column definitions of the facts a schema version created the table with, for its
  /// `CREATE TABLE listings` (one per line, each ending with a comma).
  static func created(postgres: Bool) -> String {
    ListingField.all.filter { (postgres ? $0.since.postgres : $0.since.sqlite) == 1 }
      .flatMap(\.columns)
      .map { "  \($0.name) \(type($0.kind, postgres: postgres))," }
      .joined(separator: "\n")
  }

  /// The statements adding the columns of the facts schema `version` added (its migration).
  static func added(in version: Int, postgres: Bool) -> String {
    ListingField.all.filter { (postgres ? $0.since.postgres : $0.since.sqlite) == version }
      .flatMap(\.columns)
      .map { "ALTER TABLE listings ADD COLUMN \($0.name) \(type($0.kind, postgres: postgres));" }
      .joined(separator: "\n")
  }

  /// The key and every fact's column, for a query that joins `listings l`; read with
  /// ``listing(_:from:)``.
  static let selected = (["site", "id"] + ListingField.allColumns.map(\.name))
    .map { "l." + $0 }.joined(separator: ", ")

  /// How many columns ``selected`` names: a query's columns after it start at `first + width`.
  static let width = Int32(2 + ListingField.allColumns.count)

  /// A listing from the columns of ``selected``, found by the name of the first (`site`): for a
  /// query where no column before them is named `site`.
  static func listing(_ row: some StoreRow) -> Listing {
    listing(row, from: row.position(of: ListingColumn.site))
  }

  /// A listing from the columns of ``selected``, starting at column `first`.
  static func listing(_ row: some StoreRow, from first: Int32) -> Listing {
    var listing = Listing(id: row.text(first + 1), site: row.text(first), url: "", title: "")
    var column = first + 2
    for field in ListingField.all {
      let values = field.columns.map { spec -> ListingField.Value in
        defer { column += 1 }
        return value(row, column, spec.kind)
      }
      field.set(&listing, values)
    }
    return listing
  }

  private static func value(
    _ row: some StoreRow, _ column: Int32, _ kind: ListingField.Kind
  ) -> ListingField.Value {
    switch kind {
    case .text, .textOrEmpty: .text(row.text(column))
    case .optionalText: .text(row.optionalText(column))
    case .number: .number(row.optionalDouble(column))
    case .time: .time(row.optionalDouble(column).map(Date.init(timeIntervalSince1970:)))
    case .texts: .texts(StoreJSON.strings(row.text(column)) ?? [])
    case .textMap: .textMap(StoreJSON.textMap(row.text(column)) ?? [:])
    }
  }

  /// The values of every fact's column, in order, as a statement binds them.
  static func values(_ listing: Listing) -> [StoreValue] {
    ListingField.all.flatMap { field in
      zip(field.columns, field.values(listing)).map { column, value in
        switch value {
        case .text(let text): .textOrNull(text ?? (column.kind == .optionalText ? nil : ""))
        case .number(let number): .doubleOrNull(number)
        case .time(let date): .time(date)
        case .texts(let texts): .text(StoreJSON.text(texts))
        case .textMap(let map): .text(StoreJSON.text(map))
        }
      }
    }
  }

  /// `url = ?, title = ?, …`: every fact's column set from the values bound in order.
  static let assignments = ListingField.allColumns.map { "\($0.name) = ?" }
    .joined(separator: ", ")

  /// Inserts a listing: its key, ``values(_:)``, then `extra`'s columns; or, when the listing is
  /// there, sets every fact from the new values (the description kept when `keepingText`: a
  /// listing seen again arrives with its text not made, and must not blank the one kept), then
  /// `update` (what becomes of `extra`'s columns).
  static func upsert(extra: [String], update: String, keepingText: Bool) -> String {
    let columns = ["site", "id"] + ListingField.allColumns.map(\.name) + extra
    let set = ListingField.allColumns.map(\.name)
      .filter { !(keepingText && $0 == "description") }
      .map { "\($0) = excluded.\($0)" }
    return "INSERT INTO listings(\(columns.joined(separator: ", "))) VALUES("
      + Array(repeating: "?", count: columns.count).joined(separator: ", ")
      + ") ON CONFLICT(site, id) DO UPDATE SET "
      + (set + [update]).joined(separator: ", ")
  }

  /// A listing's members in `state export`: its key and every fact's column by name (a time in
  /// ISO 8601, a list as a list; a column without a value left out).
  static func exported(_ listing: Listing) -> [String: Any] {
    var object: [String: Any] = ["site": listing.site, "id": listing.id]
    for field in ListingField.all {
      for (column, value) in zip(field.columns, field.values(listing)) {
        switch value {
        case .text(let text): object[column.name] = text
        case .number(let number): object[column.name] = number
        case .time(let date): object[column.name] = StoreLine.time(date?.timeIntervalSince1970)
        case .texts(let texts): object[column.name] = texts
        case .textMap(let map): object[column.name] = map.isEmpty ? nil : map
        }
      }
    }
    return object
  }

  /// The listing an export's `listing` line describes, each member checked for its kind; its
  /// text cleaned as a site's would be (an export is a file anyone may have edited).
  static func imported(_ line: ImportedLine) throws -> Listing {
    var listing = Listing(
      id: try line.required("id"), site: try line.required("site"), url: "", title: "")
    for field in ListingField.all {
      let values = try field.columns.map { column -> ListingField.Value in
        switch column.kind {
        case .text: .text(try line.required(column.name))
        case .textOrEmpty: .text(line.object[column.name] as? String ?? "")
        case .optionalText: .text(line.object[column.name] as? String)
        case .number: .number(try line.number(column.name))
        case .time: .time(try line.date(column.name))
        case .texts: .texts(try line.strings(column.name))
        case .textMap: .textMap(try line.textMap(column.name))
        }
      }
      field.set(&listing, values)
    }
    return ListingCheck.shown(listing)
  }
}

extension ListingField.Kind {
  /// Whether the stores keep it as a number.
  var isNumber: Bool { self == .number || self == .time }
}
