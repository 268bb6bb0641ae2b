internal import CSQLite
internal import Foundation

/// What SQLite said, with the file it was about.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
  public var code: Int32
  /// SQLite's message.
  public var message: String
  /// The database file.
  public var path: String

  public var description: String { "the state database '\(path)': \(message)" }

  /// The file is not a database, or is damaged.
  public var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// One connection to a SQLite database: statements prepared once and kept, values bound by
/// position, transactions that roll back on a throw. Not thread-safe: its owner serialises.
final class SQLiteDatabase: StoreConnection {
  /// A row being read: typed columns by position, or by name through the statement's columns.
  struct Row: StoreRow {
    fileprivate let statement: OpaquePointer
    fileprivate let columns: StoreColumnIndex

    func position(of name: String) -> Int32 { columns.position(of: name) }
    func position(of column: some TableColumns) -> Int32 { columns.position(of: column) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func optionalText(_ column: Int32) -> String? {
      guard let bytes = sqlite3_column_text(statement, column) else { return nil }
      let count = Int(sqlite3_column_bytes(statement, column))
      return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
  }

  typealias Value = StoreValue

  var dialect: SQLDialect { .sqlite }

  /// The file (`:memory:` for a database in memory).
  let path: String
  private var handle: OpaquePointer?
  private var statements: [String: Prepared] = [:]
  private var depth = 0

  /// Opens `path`; `readOnly` never creates or changes the file. `immutable` reads a file
  /// nobody can change (on a read-only file system, where SQLite cannot make its lock files).
  init(path: String, readOnly: Bool, immutable: Bool = false, busyTimeout: Double = 5) throws {
    self.path = path
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
    let name = immutable ? "file:" + Self.uriPath(path) + "?immutable=1" : path
    let code = sqlite3_open_v2(name, &handle, flags, nil)
    guard code == SQLITE_OK else {
      let error = failure(code)
      sqlite3_close_v2(handle)
      handle = nil
      throw error
    }
    sqlite3_extended_result_codes(handle, 0)
    sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
  }

  deinit {
    for prepared in statements.values { sqlite3_finalize(prepared.statement) }
    sqlite3_close_v2(handle)
  }

  /// Runs SQL without results (several statements allowed: schema scripts, pragmas).
  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      throw SQLiteError(
        code: code & 0xFF, message: message.map { String(cString: $0) } ?? "error \(code)",
        path: path)
    }
  }

  /// Runs one statement with `values` bound, reading each result row with `each`.
  func run(_ sql: String, _ values: [Value], each: (Row) throws -> Void) throws {
    let prepared = try prepared(sql)
    let statement = prepared.statement
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    try bind(values, to: statement)
    while true {
      let code = sqlite3_step(statement)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else { throw failure(code) }
      try each(Row(statement: statement, columns: prepared.columns))
    }
  }

  /// Rows changed by the last statement.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`: the write lock is taken at once, so a
  /// second writer waits at the start, never half-way); a throw rolls it back. Nested calls
  /// join the outer transaction.
  func transaction<T>(_ body: () throws -> T) throws -> T {
    try inTransaction("BEGIN IMMEDIATE", body)
  }

  /// A deferred transaction: a shared lock taken once for every statement of `body`, which
  /// must only read (a write in it could not wait for another writer).
  func reading<T>(_ body: () throws -> T) throws -> T {
    try inTransaction("BEGIN", body)
  }

  private func inTransaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
    if depth > 0 { return try body() }
    try execute(begin)
    depth += 1
    defer { depth -= 1 }
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// A statement prepared once, with its result columns by name.
  private struct Prepared {
    let statement: OpaquePointer
    let columns: StoreColumnIndex
  }

  private func prepared(_ sql: String) throws -> Prepared {
    if let prepared = statements[sql] { return prepared }
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(
      handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard code == SQLITE_OK, let statement else { throw failure(code) }
    let names = (0..<sqlite3_column_count(statement)).map { column in
      sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
    }
    let prepared = Prepared(statement: statement, columns: StoreColumnIndex(names))
    statements[sql] = prepared
    return prepared
  }

  private func bind(_ values: [Value], to statement: OpaquePointer) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .null: code = sqlite3_bind_null(statement, index)
      case .int(let number): code = sqlite3_bind_int64(statement, index, sqlite3_int64(number))
      case .double(let number): code = sqlite3_bind_double(statement, index, number)
      case .text(let text):
        code = text.withCString { pointer in
          clarissa_sqlite_bind_text(statement, index, pointer, Int32(strlen(pointer)))
        }
      }
      guard code == SQLITE_OK else { throw failure(code) }
    }
  }

  private func failure(_ code: Int32) -> SQLiteError {
    var message =
      handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
      ?? String(cString: sqlite3_errstr(code))
    // SQLite's words for a failed read or write ("disk I/O error") say less than the system's.
    let system = handle.map { sqlite3_system_errno($0) } ?? 0
    if system != 0 { message += " (\(String(cString: strerror(system))))" }
    return SQLiteError(code: code & 0xFF, message: message, path: path)
  }

  /// A path as a `file:` URI's path.
  private static func uriPath(_ path: String) -> String {
    path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
  }
}
