// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
  internal import CPostgres
  internal import Foundation

  /// What PostgreSQL (or the way to it) said, naming the server without its password.
  public struct PostgresError: Error, CustomStringConvertible, Sendable {
    /// The SQLSTATE code when the server sent one (`42P01`, `55P03`, ...).
    public var state: String?
    /// libpq's or the server's message.
    public var message: String
    /// The store's URL, its password masked.
    public var url: String

    public var description: String { "the PostgreSQL store '\(url)': \(message)" }
  }

  /// One connection to PostgreSQL through libpq: statements with `$1`-style parameters sent as
  /// text, rows read as text and parsed, transactions that roll back on a throw. Not
  /// thread-safe: its owner serialises, as with ``SQLiteDatabase``.
  final class PostgresDatabase: StoreConnection {
    typealias Value = StoreValue

    var dialect: SQLDialect { .postgres }

    /// A row being read: columns by position, or by name through the result's columns.
    struct Row: StoreRow {
      fileprivate let result: OpaquePointer
      fileprivate let row: Int32
      fileprivate let columns: StoreColumnIndex

      func position(of name: String) -> Int32 { columns.position(of: name) }
      func position(of column: some TableColumns) -> Int32 { columns.position(of: column) }

      func isNull(_ column: Int32) -> Bool { PQgetisnull(result, row, column) == 1 }
      func optionalText(_ column: Int32) -> String? {
        guard !isNull(column), let value = PQgetvalue(result, row, column) else { return nil }
        return String(cString: value)
      }
      /// An integer; a boolean (`t`, `f`: what EXISTS gives here) as 1 or 0, as SQLite has it.
      func int(_ column: Int32) -> Int {
        switch optionalText(column) {
        case "t": 1
        case "f", nil: 0
        case let text?: Int(text) ?? Double(text).map { Int($0) } ?? 0
        }
      }
      func double(_ column: Int32) -> Double { optionalText(column).flatMap { Double($0) } ?? 0 }
    }

    /// The URL, password masked (for messages).
    let shownURL: String
    private let connection: OpaquePointer
    private var depth = 0

    /// Connects to `url` (`postgres://user@host:port/db?sslmode=require`, as libpq reads it);
    /// `password`, when given, is sent apart from the URL.
    init(url: String, password: String? = nil, connectTimeout: Int = 10) throws {
      shownURL = StoreURL.masked(url)
      var keys = ["dbname", "connect_timeout", "application_name", "client_encoding"]
      var values = [url, String(connectTimeout), "clarissa", "UTF8"]
      if let password {
        keys.append("password")
        values.append(password)
      }
      let connection = Self.withCStrings(keys) { keyPointers in
        Self.withCStrings(values) { valuePointers in
          // expand_dbname = 1: the `dbname` value is a URL whose parts become parameters.
          PQconnectdbParams(keyPointers, valuePointers, 1)
        }
      }
      guard let connection else {
        throw PostgresError(state: nil, message: "out of memory", url: shownURL)
      }
      guard PQstatus(connection) == CONNECTION_OK else {
        let message = Self.trimmed(PQerrorMessage(connection))
        PQfinish(connection)
        throw PostgresError(state: nil, message: "cannot connect: \(message)", url: shownURL)
      }
      self.connection = connection
      // Notices (a table that already exists, ...) are not the user's business.
      PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(connection) }

    /// Runs a statement; `each` sees every row.
    func run(_ sql: String, _ values: [Value], each: (Row) throws -> Void) throws {
      let result = try execute(sql, values)
      defer { PQclear(result) }
      let count = PQntuples(result)
      guard count > 0 else { return }
      let columns = StoreColumnIndex(
        (0..<PQnfields(result)).map { PQfname(result, $0).map { String(cString: $0) } ?? "" })
      for row in 0..<count { try each(Row(result: result, row: row, columns: columns)) }
    }

    /// Rows changed by the last `run` of an INSERT, UPDATE or DELETE.
    private(set) var changes = 0

    /// Several statements without parameters (a migration).
    func execute(script: String) throws {
      guard let result = PQexec(connection, script) else {
        throw PostgresError(
          state: nil, message: Self.trimmed(PQerrorMessage(connection)), url: shownURL)
      }
      defer { PQclear(result) }
      try check(result)
    }

    /// Runs `body` in a transaction (a savepoint when nested); a throw rolls it back. Workers
    /// writing the same rows at once can deadlock: the server then aborts one, which is run again
    /// (up to 5 times; the body only writes to the database).
    func transaction<T>(_ body: () throws -> T) throws -> T {
      guard depth == 0 else { return try attempt(body) }
      var tries = 0
      while true {
        do {
          return try attempt(body)
        } catch let error as PostgresError
          where Self.retryable.contains(error.state ?? "") && tries < 5
        {
          tries += 1
          usleep(useconds_t.random(in: 1_000...20_000) * useconds_t(tries))
        }
      }
    }

    /// Deadlock detected, serialization failure: the transaction may simply be run again.
    static let retryable: Set<String> = ["40P01", "40001"]

    private func attempt<T>(_ body: () throws -> T) throws -> T {
      let name = "clarissa_\(depth)"
      try execute(script: depth == 0 ? "BEGIN" : "SAVEPOINT \(name)")
      depth += 1
      do {
        let value = try body()
        depth -= 1
        try execute(script: depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(name)")
        return value
      } catch {
        depth -= 1
        try? execute(script: depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(name)")
        throw error
      }
    }

    private func execute(_ sql: String, _ values: [Value]) throws -> OpaquePointer {
      let texts = values.map(\.parameter)
      let statement = try prepared(sql)
      let result = Self.withCStrings(texts) { pointers in
        PQexecPrepared(connection, statement, Int32(texts.count), pointers, nil, nil, 0)
      }
      guard let result else {
        throw PostgresError(
          state: nil, message: Self.trimmed(PQerrorMessage(connection)), url: shownURL)
      }
      do {
        try check(result)
      } catch {
        PQclear(result)
        throw error
      }
      changes = Int(String(cString: PQcmdTuples(result))) ?? 0
      return result
    }

    /// Statements prepared on this connection, by their SQL: parsed and planned once.
    private var statements: [String: String] = [:]

    /// The name of `sql` prepared on the server (its `?` parameters as `$N`).
    private func prepared(_ sql: String) throws -> String {
      if let name = statements[sql] { return name }
      let name = "clarissa_\(statements.count)"
      guard let result = PQprepare(connection, name, Self.numbered(sql), 0, nil) else {
        throw PostgresError(
          state: nil, message: Self.trimmed(PQerrorMessage(connection)), url: shownURL)
      }
      defer { PQclear(result) }
      try check(result)
      statements[sql] = name
      return name
    }

    /// SQLite's parameters (`?`, `?N`) as PostgreSQL's (`$N`), outside quotes: the store's
    /// statements are written once for both. A bare `?` takes the number after the largest so far,
    /// as in SQLite.
    static func numbered(_ sql: String) -> String {
      var out = ""
      var largest = 0
      var quote: Character?
      var characters = sql[...]
      while let character = characters.popFirst() {
        if let open = quote {
          if character == open { quote = nil }
          out.append(character)
          continue
        }
        if character == "'" || character == "\"" {
          quote = character
          out.append(character)
          continue
        }
        guard character == "?" else {
          out.append(character)
          continue
        }
        let digits = characters.prefix(while: \.isASCII).prefix(while: \.isNumber)
        characters = characters.dropFirst(digits.count)
        let number = Int(digits) ?? largest + 1
        largest = max(largest, number)
        out += "$\(number)"
      }
      return out
    }

    private func check(_ result: OpaquePointer) throws {
      let status = PQresultStatus(result)
      guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
        throw PostgresError(
          state: state, message: Self.trimmed(PQresultErrorMessage(result)), url: shownURL)
      }
    }

    // MARK: - C strings

    /// The strings as C strings (nil as NULL) in an array ending with NULL, as libpq's
    /// keyword and value arrays do; freed after `body`.
    private static func withCStrings<T>(
      _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
    ) -> T {
      let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } }
      defer { copies.forEach { free($0) } }
      let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
      return body(pointers)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
      message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
  }
  extension StoreValue {
    /// The value as PostgreSQL reads a parameter sent as text (nil: NULL).
    fileprivate var parameter: String? {
      switch self {
      case .null: nil
      case .int(let value): String(value)
      case .double(let value): String(value)
      case .text(let value): value
      }
    }
  }
#endif
