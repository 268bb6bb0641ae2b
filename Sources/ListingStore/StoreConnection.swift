internal import Foundation

/// A value bound to a statement, in SQLite and in PostgreSQL alike.
enum StoreValue {
  case null, int(Int), double(Double), text(String)

  /// Text, or null.
  static func textOrNull(_ text: String?) -> Self { text.map { .text($0) } ?? .null }
  /// A number, or null.
  static func doubleOrNull(_ number: Double?) -> Self { number.map { .double($0) } ?? .null }
  /// A number, or null.
  static func intOrNull(_ number: Int?) -> Self { number.map { .int($0) } ?? .null }
  /// Texts as a PostgreSQL array literal (`{"a","b"}`), each quoted, for `= ANY($N::text[])`.
  static func textArray(_ texts: [String]) -> Self {
    .text(
      "{"
        + texts.map {
          "\""
            + $0.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}")
  }
  /// A time as seconds since 1970, or null.
  static func time(_ date: Date?) -> Self {
    date.map { .double($0.timeIntervalSince1970) } ?? .null
  }
}

/// A result row: typed columns by position, and by name (each name resolved to its position
/// once per statement, ``StoreColumnIndex``).
protocol StoreRow {
  func isNull(_ column: Int32) -> Bool
  func int(_ column: Int32) -> Int
  func double(_ column: Int32) -> Double
  func optionalText(_ column: Int32) -> String?
  /// The position of the column `name` in the statement's results (its name, or its alias).
  func position(of name: String) -> Int32
  /// The position of a declared column in the statement's results, its type's columns resolved
  /// once per statement.
  func position(of column: some TableColumns) -> Int32
}

extension StoreRow {
  func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
  func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
  func text(_ column: Int32) -> String { optionalText(column) ?? "" }
}

/// The columns of a statement's results by name, found once when the statement is prepared
/// (SQLite) or its result arrives (PostgreSQL); a name given twice is its first column. A
/// ``TableColumns`` type's columns are resolved to their positions the first time a row of the
/// statement reads one of them, and read by their place in the type after that, without looking
/// their names up again.
final class StoreColumnIndex {
  private var positions: [String: Int32] = [:]
  /// Each declared type read so far, with its columns' positions in the order of its cases (-1:
  /// not in the results). A statement reads a few types: a list is quicker than a dictionary.
  private var resolved: [(type: ObjectIdentifier, positions: [Int32])] = []

  /// The names in order, as the engine gives them.
  init(_ names: [String]) {
    for (position, name) in names.enumerated() where positions[name] == nil {
      positions[name] = Int32(position)
    }
  }

  /// The position of `name`; a statement without it is a mistake in the store's own SQL.
  func position(of name: String) -> Int32 {
    guard let position = positions[name] else {
      preconditionFailure("no column '\(name)' in the statement's results")
    }
    return position
  }

  /// The position of a declared column, from its type's positions, resolved on the first read.
  func position<Column: TableColumns>(of column: Column) -> Int32 {
    let type = ObjectIdentifier(Column.self)
    let place = column.place
    for entry in resolved where entry.type == type {
      return checked(entry.positions[place], column)
    }
    let found = Column.allCases.enumerated().map { place, column in
      precondition(column.place == place, "\(Column.self)'s cases out of their order")
      return positions[column.rawValue] ?? -1
    }
    resolved.append((type, found))
    return checked(found[place], column)
  }

  private func checked(_ position: Int32, _ column: some TableColumns) -> Int32 {
    guard position >= 0 else {
      preconditionFailure("no column '\(column.rawValue)' in the statement's results")
    }
    return position
  }
}

/// Where the two engines' SQL differs, in the few places the store's statements need. Every
/// statement is written once, with `?` (or `?N`) parameters and these pieces; PostgreSQL's
/// connection turns the parameters into `$N`.
struct SQLDialect: Sendable {
  /// The column that orders rows by insertion (`rowid` in SQLite, a `seq` column in PostgreSQL).
  var rowid: String
  /// `INDEXED BY name` where the planner needs telling (SQLite without statistics), or nothing.
  var indexedBy: @Sendable (String) -> String
  /// A join in the order written (`CROSS JOIN` is SQLite's way to force it), or a plain one.
  var orderedJoin: String
  /// The values of a column joined by the unit separator (U+001F).
  var joinedBySeparator: @Sendable (String) -> String
  /// A JSON array of a column's values.
  var jsonArray: @Sendable (String) -> String
  /// Whether a text contains another (both already lowercased).
  var contains: @Sendable (String, String) -> String
  /// The schema version, as the store keeps it.
  var schemaVersion: String
  /// The condition that a text is not a JSON list. PostgreSQL before 16 cannot test a text for JSON
  /// without failing on a bad one: there, whether it is not written as one (`[...]`).
  var notJSONList: @Sendable (String) -> String
  /// A statement taking a lock on one search (its name bound) until the transaction ends, where
  /// writers can record at the same time (PostgreSQL); nil where one writer holds the database
  /// for the whole transaction (SQLite's `BEGIN IMMEDIATE`).
  var lockSearch: String? = nil

  static let sqlite = SQLDialect(
    rowid: "rowid", indexedBy: { " INDEXED BY \($0)" }, orderedJoin: "CROSS JOIN",
    joinedBySeparator: { "group_concat(\($0), char(31))" },
    jsonArray: { "json_group_array(\($0))" },
    contains: { "instr(\($0), \($1)) > 0" }, schemaVersion: "PRAGMA user_version",
    notJSONList: { "json_valid(\($0)) = 0 OR json_type(\($0)) != 'array'" })

  static let postgres = SQLDialect(
    rowid: "seq", indexedBy: { _ in "" }, orderedJoin: "JOIN",
    joinedBySeparator: { "string_agg(\($0), chr(31))" }, jsonArray: { "json_agg(\($0))" },
    contains: { "strpos(\($0), \($1)) > 0" },
    schemaVersion: "SELECT max(version) FROM clarissa_schema",
    notJSONList: { "\($0) !~ '^\\s*\\[.*\\]\\s*$'" },
    // Two 32-bit keys: a space of their own, apart from the schema's single 64-bit key.
    lockSearch: "SELECT pg_advisory_xact_lock(1668047218, hashtext(?))")
}

/// One connection to the store's database, SQLite or PostgreSQL: what the store's operations
/// are written against, once for both.
protocol StoreConnection: AnyObject {
  associatedtype Row: StoreRow
  /// The engine's words where they differ.
  var dialect: SQLDialect { get }
  /// Runs one statement with `values` bound, reading each result row with `each`.
  func run(_ sql: String, _ values: [StoreValue], each: (Row) throws -> Void) throws
  /// Rows changed by the last statement.
  var changes: Int { get }
  /// Runs `body` in one transaction; a throw rolls it back. Nested calls join the outer one.
  func transaction<T>(_ body: () throws -> T) throws -> T
  /// Runs `body`, which only reads, in one read transaction where that saves taking the
  /// database's locks once per statement (SQLite); nested calls join the outer one.
  func reading<T>(_ body: () throws -> T) throws -> T
}

extension StoreConnection {
  /// Each statement on its own (PostgreSQL: a lookup is a round trip either way).
  func reading<T>(_ body: () throws -> T) throws -> T { try body() }
}

extension StoreConnection {
  /// Runs one statement, ignoring any rows.
  func run(_ sql: String, _ values: [StoreValue] = []) throws {
    try run(sql, values) { _ in }
  }

  /// Runs one statement without parameters, reading each result row with `each`.
  func run(_ sql: String, each: (Row) throws -> Void) throws {
    try run(sql, [], each: each)
  }

  /// The rows of a query, each made by `read`.
  func rows<T>(_ sql: String, _ values: [StoreValue] = [], _ read: (Row) throws -> T) throws -> [T]
  {
    var result: [T] = []
    try run(sql, values) { result.append(try read($0)) }
    return result
  }

  /// The only column of the first row, as an integer (0 when there is no row): a query of one
  /// value (a count, a flag, a version).
  func integer(_ sql: String, _ values: [StoreValue] = []) throws -> Int {
    try rows(sql, values) { $0.int(0) }.first ?? 0
  }
}

/// A store over one connection, serialised by the store's lock: ``ListingStore`` (SQLite) and,
/// with the trait, the PostgreSQL store. The run's operations (``ListingMemory``) are written
/// once, in extensions of this protocol.
protocol ConnectedStore: ListingMemory {
  associatedtype Connection: StoreConnection
  /// Runs `body` with the connection, one caller at a time.
  func locked<T>(_ body: (Connection) throws -> T) throws -> T
  /// Who claims owed deliveries before sending them, and for how long; nil where one process
  /// owns the store (SQLite, under the run lock).
  var deliveryClaim: DeliveryClaim? { get }
}

extension ConnectedStore {
  var deliveryClaim: DeliveryClaim? { nil }
}

/// A worker's claim on the deliveries it is about to send, so that workers sharing a store
/// announce a listing once: claimed rows are skipped by the others until the claim ends.
struct DeliveryClaim {
  /// The worker.
  var worker: String
  /// Seconds a claim lasts (a worker killed mid-send leaves its deliveries to another then).
  var seconds: Double
}
