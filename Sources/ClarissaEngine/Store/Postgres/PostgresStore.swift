// Built with the trait PostgreSQL only (swift build --traits PostgreSQL).
#if PostgreSQL
import ClarissaCore
import Foundation

/// The listing store in PostgreSQL, for several workers sharing one database (issue 16, in
/// progress): connecting, and the schema made or upgraded once, under an advisory lock, however
/// many workers start at the same moment. A worker older than the database's schema refuses to
/// start. The run's operations (``ListingMemory``) are not here yet: `state.url` is not read by
/// the commands until they are.
public final class PostgresStore: @unchecked Sendable {
  /// The URL, password masked.
  public let url: String
  let database: PostgresDatabase
  private let lock = NSLock()

  /// The advisory lock key under which the schema is made or upgraded (`clarissa` in ASCII).
  static let schemaLockKey = 0x63_6c_61_72_69_73_73_61

  private init(database: PostgresDatabase) {
    self.database = database
    url = database.shownURL
  }

  /// Connects to `url` and brings the schema up to date (once, whoever asks first); refuses a
  /// database whose schema is newer than this clarissa's.
  public static func open(url: String, password: String? = nil) throws -> PostgresStore {
    let database = try PostgresDatabase(url: url, password: password)
    try database.run("SELECT pg_advisory_lock($1)", [.int(schemaLockKey)])
    defer { try? database.run("SELECT pg_advisory_unlock($1)", [.int(schemaLockKey)]) }
    try database.execute(
      script: """
        CREATE TABLE IF NOT EXISTS clarissa_schema(
          version integer PRIMARY KEY,
          migrated_at double precision NOT NULL,
          by_clarissa text NOT NULL
        )
        """)
    let version = try database.integer("SELECT coalesce(max(version), 0) FROM clarissa_schema")
    if version > PostgresSchema.current {
      throw StoreProblem(
        message: "the PostgreSQL store '\(database.shownURL)' is at schema version \(version), "
          + "newer than this clarissa reads (\(PostgresSchema.current)): another worker was "
          + "upgraded. Upgrade this one; the database was not changed")
    }
    if version < PostgresSchema.current {
      try database.transaction {
        for step in version..<PostgresSchema.current {
          try database.execute(script: PostgresSchema.migrations[step])
          try database.run(
            "INSERT INTO clarissa_schema(version, migrated_at, by_clarissa) VALUES($1, $2, $3)",
            [.int(step + 1), .time(Date()), .text(clarissaVersion)])
        }
      }
    }
    return PostgresStore(database: database)
  }

  /// This build's version, written beside each migration it made.
  static let clarissaVersion = "0.1.0"

  /// The schema version of the database.
  public func schemaVersion() throws -> Int {
    try locked { try $0.integer("SELECT coalesce(max(version), 0) FROM clarissa_schema") }
  }

  /// The migrations made, oldest first: version, when, by which clarissa.
  public func migrations() throws -> [(version: Int, at: Date, by: String)] {
    try locked { database in
      try database.rows(
        "SELECT version, migrated_at, by_clarissa FROM clarissa_schema ORDER BY version"
      ) { ($0.int(0), Date(timeIntervalSince1970: $0.double(1)), $0.text(2)) }
    }
  }

  /// Per search, its listings nobody has viewed.
  public func unviewedCounts() throws -> [String: Int] {
    try locked { database in
      var counts: [String: Int] = [:]
      try database.run("SELECT search, count FROM unviewed") { counts[$0.text(0)] = $0.int(1) }
      return counts
    }
  }

  func locked<T>(_ body: (PostgresDatabase) throws -> T) throws -> T {
    try lock.withLock { try body(database) }
  }
}
#endif
