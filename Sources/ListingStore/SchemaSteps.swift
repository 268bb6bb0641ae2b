internal import Foundation

/// One step of the stores' schema: a stable name, and its SQL in each store that takes it (nil:
/// not that store's step). A step the two stores share is one change, named once, its SQL in
/// both written beside its name.
struct SchemaStep: Sendable {
  /// A step's SQL in one store.
  enum SQL: Sendable {
    /// Statements as written.
    case text(String)
    /// The `listings` columns of the facts (``ListingField/all``) whose `since` is the version
    /// this step makes in the store, where it is in the store's steps.
    case listingColumns
  }

  /// Its name, recorded in `clarissa_schema` when it is applied; never changed.
  let name: String
  /// SQLite's SQL.
  let sqlite: SQL?
  /// PostgreSQL's SQL.
  let postgres: SQL?

  init(_ name: String, sqlite: String? = nil, postgres: String? = nil) {
    self.name = name
    self.sqlite = sqlite.map(SQL.text)
    self.postgres = postgres.map(SQL.text)
  }

  private init(_ name: String, both sql: SQL) {
    self.name = name
    self.sqlite = sql
    self.postgres = sql
  }

  /// A step of both stores adding the columns of the listing facts that came with it: in each
  /// store, those whose `since` (``ListingField/since``) is the version this step makes there.
  static func listingColumns(_ name: String) -> SchemaStep {
    SchemaStep(name, both: .listingColumns)
  }
}

/// The schema of both stores as one list of named steps, in the order they are applied. Each
/// store takes the steps that have its SQL: SQLite's `n`th is its schema version `n`
/// (`user_version`), PostgreSQL's `n`th its version `n` (`clarissa_schema`). PostgreSQL began at
/// SQLite's sixth step, in one step of its own, then its workers' tables; from the content hash
/// on, every step is the same change in both, under the same name. Later steps append; nothing is
/// ever edited in place or renamed, so every earlier store upgrades the same way.
enum SchemaSteps {
  /// Every step, in order: SQLite's first six (``first``), PostgreSQL's own two
  /// (``postgresFirst``), then the steps both stores take (``later``), where a new one goes.
  static let all: [SchemaStep] = first + postgresFirst + later

  /// A store's steps, in order: its name and SQL.
  static func steps(postgres: Bool) -> [(name: String, sql: String)] {
    var steps: [(name: String, sql: String)] = []
    for step in all {
      switch postgres ? step.postgres : step.sqlite {
      case .text(let sql): steps.append((step.name, sql))
      case .listingColumns:
        steps.append(
          (step.name, ListingColumns.added(in: steps.count + 1, postgres: postgres)))
      case nil: break
      }
    }
    return steps
  }

  /// This build's version, recorded beside each step it applies.
  static let clarissaVersion = "0.1.0"

  /// The table recording each step applied, by the store's version it made and its name: when,
  /// and by which clarissa (0 and '': applied before steps were recorded by name).
  static func table(postgres: Bool) -> String {
    let (integer, real, text) =
      postgres ? ("integer", "double precision", "text") : ("INTEGER", "REAL", "TEXT")
    return """
      CREATE TABLE IF NOT EXISTS clarissa_schema(
        version \(integer) PRIMARY KEY,
        migrated_at \(real) NOT NULL,
        by_clarissa \(text) NOT NULL,
        name \(text)
      )
      """
  }

  /// Brings a store up to date: names the steps it was given before they were recorded by name
  /// (the first `version`, as its version counts them), then applies, in order, every step not
  /// recorded, each recorded as it is applied. Runs inside the caller's transaction, with
  /// `clarissa_schema` made; `execute` runs a step's statements. Returns the names applied.
  @discardableResult
  static func migrate(
    _ database: some StoreConnection, steps: [(name: String, sql: String)], version: Int,
    now: Date, execute: (String) throws -> Void
  ) throws -> [String] {
    var recorded: [Int: String?] = [:]
    try database.run("SELECT version, name FROM clarissa_schema") {
      recorded[$0.int(SchemaColumn.version)] = $0.optionalText(SchemaColumn.name)
    }
    var done = Set(recorded.values.compactMap { $0 })
    for (index, step) in steps.enumerated().prefix(version) where !done.contains(step.name) {
      if recorded[index + 1] != nil {
        try database.run(
          "UPDATE clarissa_schema SET name = ? WHERE version = ?",
          [.text(step.name), .int(index + 1)])
      } else {
        try database.run(
          "INSERT INTO clarissa_schema(version, name, migrated_at, by_clarissa) VALUES(?, ?, 0, '')",
          [.int(index + 1), .text(step.name)])
      }
      done.insert(step.name)
    }
    var applied: [String] = []
    for (index, step) in steps.enumerated() where !done.contains(step.name) {
      try execute(step.sql)
      try database.run(
        "INSERT INTO clarissa_schema(version, name, migrated_at, by_clarissa) VALUES(?, ?, ?, ?) "
          + "ON CONFLICT(version) DO UPDATE SET name = excluded.name, "
          + "migrated_at = excluded.migrated_at, by_clarissa = excluded.by_clarissa",
        [.int(index + 1), .text(step.name), .time(now), .text(clarissaVersion)])
      applied.append(step.name)
    }
    return applied
  }
}
