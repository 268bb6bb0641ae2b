internal import CSQLite
internal import ClarissaCore
internal import Foundation

/// Why the store cannot be used.
public struct StoreProblem: Error, CustomStringConvertible, Sendable {
  /// What is wrong and what to do.
  public var message: String
  public var description: String { message }
}

/// What clarissa remembers, in SQLite (WAL; `synchronous=NORMAL`; a busy timeout): the embedded
/// ``ListingMemory``. Every read on a run's path is by key, every write a short transaction.
/// One connection, serialised by a lock.
public final class ListingStore: ListingMemory, @unchecked Sendable {
  // Holds the SQLite connection (a C handle), used only in a turn of `turn`.
  /// The file (`:memory:` for a store in memory).
  public let path: String
  let database: SQLiteDatabase
  /// One caller at a time; again by the same one (see ``ConnectionTurn``).
  private let turn = ConnectionTurn()

  private init(database: SQLiteDatabase) {
    self.database = database
    self.path = database.path
  }

  /// Opens the store at `path`, creating and upgrading it unless `readOnly` (which never
  /// creates or changes a file). A damaged file, or one written by a newer clarissa, is
  /// refused with a message that says what to do, and left as it was.
  public static func open(path: String, readOnly: Bool, busyTimeout: Double = 5) throws
    -> ListingStore
  {
    do {
      let database = try connect(path, readOnly: readOnly, busyTimeout: busyTimeout)
      if readOnly, try isBlank(database) {
        // Created and never written (a first run stopped before its schema): nothing is
        // remembered yet, which a reader sees as an empty store.
        return try open(path: ":memory:", readOnly: false)
      }
      try prepare(database, readOnly: readOnly)
      return ListingStore(database: database)
    } catch let error as SQLiteError where error.isDamage {
      throw StoreProblem(
        message: "the state database '\(path)' is damaged or not a clarissa database "
          + "(\(error.message)); it was not changed. 'clarissa state check' says more; move it "
          + "aside to start afresh (every current listing will be primed, not notified)")
    }
  }

  /// A connection; a reader of a file in a folder it cannot write (a read-only file system, a
  /// backup) reads it as immutable, since SQLite cannot make its shared-memory file there.
  private static func connect(_ path: String, readOnly: Bool, busyTimeout: Double) throws
    -> SQLiteDatabase
  {
    do {
      let database = try SQLiteDatabase(path: path, readOnly: readOnly, busyTimeout: busyTimeout)
      if readOnly { _ = try database.integer("PRAGMA user_version") }
      return database
    } catch let error as SQLiteError where readOnly && error.code == SQLITE_READONLY {
      // A writer killed mid-run left a write-ahead log that must be recovered before anyone
      // reads, and a read-only connection cannot: one read-write open recovers it (SQLite does
      // it on the first read), then the reader opens as asked.
      do {
        let recovering = try SQLiteDatabase(path: path, readOnly: false, busyTimeout: busyTimeout)
        _ = try recovering.integer("PRAGMA user_version")
      }
      let database = try SQLiteDatabase(path: path, readOnly: true, busyTimeout: busyTimeout)
      _ = try database.integer("PRAGMA user_version")
      return database
    } catch let error as SQLiteError where readOnly && error.code == SQLITE_CANTOPEN {
      let folder = (path as NSString).deletingLastPathComponent
      guard !FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder) else {
        throw error
      }
      return try SQLiteDatabase(path: path, readOnly: true, immutable: true)
    }
  }

  /// A database with no schema at all.
  private static func isBlank(_ database: SQLiteDatabase) throws -> Bool {
    try database.integer("PRAGMA user_version") == 0
      && database.integer("SELECT count(*) FROM sqlite_master") == 0
  }

  /// Checks the schema version, then (writing) sets WAL and brings the schema up to date.
  private static func prepare(_ database: SQLiteDatabase, readOnly: Bool) throws {
    let version = try database.integer("PRAGMA user_version")
    if version > StoreSchema.current {
      throw StoreProblem(
        message: "the state database '\(database.path)' is version \(version), newer than this "
          + "clarissa reads (\(StoreSchema.current)); upgrade clarissa. The file was not changed")
    }
    if readOnly {
      guard version == StoreSchema.current else {
        throw StoreProblem(
          message: "the state database '\(database.path)' is version \(version), older than "
            + "this clarissa's (\(StoreSchema.current)); one 'clarissa run' upgrades it")
      }
      return
    }
    // synchronous=NORMAL: in WAL mode a commit is written (a crashed or killed process loses
    // nothing committed) but not flushed to the disk; the log is flushed at each checkpoint. A
    // power cut can only undo the last commits, never damage the file, and in this store an
    // undone commit is at worst a notification sent again, never one lost (a listing's record
    // comes before its delivery, a receipt after it). FULL would flush at every receipt: one
    // fsync per message sent, 0.3-4 ms here, all of it a window in which a kill repeats one.
    // The write-ahead log is cut back to 16 MB after each checkpoint: a months-long `watch`
    // never leaves a large one behind.
    try database.execute(
      "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA journal_size_limit=16777216")
    // Every step in one transaction: a process killed while a new store is made, or an old one
    // upgraded, leaves it as it was, never at a version in between (which readers refuse).
    // A store of this version made before steps were recorded by name has them named once.
    guard
      try version < StoreSchema.current
        || database.integer(
          "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'clarissa_schema'")
          == 0
    else { return }
    try database.transaction {
      try database.execute(SchemaSteps.table(postgres: false))
      try SchemaSteps.migrate(
        database, steps: StoreSchema.steps, version: version, now: Date(),
        execute: database.execute)
      try database.execute("PRAGMA user_version = \(StoreSchema.current)")
    }
  }

  /// Runs `body` with the connection, one caller at a time.
  func locked<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
    try turn.run { try body(database) }
  }
}

/// Lists of strings as JSON text in a column.
enum StoreJSON {
  /// Written by ``JSONText`` (every listing a run records has its photo list written: Foundation's
  /// serializer costs several times more).
  static func text(_ strings: [String]) -> String {
    var out = "["
    for (index, text) in strings.enumerated() {
      if index > 0 { out += "," }
      JSONText.write(text, to: &out)
    }
    return out + "]"
  }

  /// The list of strings a column holds; nil when it is no such list. A list as ``text(_:)``
  /// writes it, without a backslash (most photo lists), is read by splitting at its quotes, which
  /// no string in it can then hold; Foundation's parser, some 10 µs a list, reads the others.
  static func strings(_ text: String) -> [String]? {
    if text == "[]" { return [] }
    if !text.utf8.contains(0x5C) {
      let parts = text.split(separator: "\"", omittingEmptySubsequences: false)
      // Between the strings exactly `[`, `,` and `]` (a list with spaces goes to the parser).
      let between = stride(from: 0, to: parts.count, by: 2).map { parts[$0] }
      if parts.count % 2 == 1, parts.count > 1, between.first == "[", between.last == "]",
        between.dropFirst().dropLast().allSatisfy({ $0 == "," })
      {
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
      }
    }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String]
  }

  /// A map of texts as a JSON object, its members by name (the same map, the same text).
  static func text(_ map: [String: String]) -> String {
    var out = "{"
    for (index, entry) in map.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { out += "," }
      JSONText.write(entry.key, to: &out)
      out += ":"
      JSONText.write(entry.value, to: &out)
    }
    return out + "}"
  }

  static func textMap(_ text: String) -> [String: String]? {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String]
  }
}

extension ListingStore: ConnectedStore, BrowsableStore {}
