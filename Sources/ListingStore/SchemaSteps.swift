internal import Foundation

/// One step of the stores' schema: a stable name, and its SQL in each store that takes it (nil:
/// not that store's step). A step the two stores share is one change, named once.
struct SchemaStep: Sendable {
  /// Its name, recorded in `clarissa_schema` when it is applied; never changed.
  let name: String
  /// SQLite's SQL (``StoreSchema``).
  let sqlite: String?
  /// PostgreSQL's SQL (``PostgresSchema``).
  let postgres: String?

  init(_ name: String, sqlite: String? = nil, postgres: String? = nil) {
    self.name = name
    self.sqlite = sqlite
    self.postgres = postgres
  }
}

/// The schema of both stores as one list of named steps, in the order they are applied. Each
/// store takes the steps that have its SQL: SQLite's `n`th is its schema version `n`
/// (`user_version`), PostgreSQL's `n`th its version `n` (`clarissa_schema`). PostgreSQL began at
/// SQLite's sixth step, in one step of its own, then its workers' tables; from the content hash
/// on, every step is the same change in both, under the same name. Later steps append; nothing is
/// ever edited in place or renamed, so every earlier store upgrades the same way.
enum SchemaSteps {
  static let all: [SchemaStep] = [
    SchemaStep("01-tables", sqlite: StoreSchema.version1),
    SchemaStep("02-reposts", sqlite: StoreSchema.version2),
    SchemaStep("03-changes-announced", sqlite: StoreSchema.version3),
    SchemaStep("04-recent-events", sqlite: StoreSchema.version4),
    SchemaStep("05-viewed", sqlite: StoreSchema.version5),
    SchemaStep("06-unviewed-counts", sqlite: StoreSchema.version6),
    SchemaStep("postgres-01-tables-of-06", postgres: PostgresSchema.version1),
    SchemaStep("postgres-02-workers", postgres: PostgresSchema.version2),
    SchemaStep(
      "07-content-hash", sqlite: StoreSchema.version7, postgres: PostgresSchema.version3),
    SchemaStep("08-answers", sqlite: StoreSchema.version8, postgres: PostgresSchema.version4),
    SchemaStep(
      "09-listing-facts", sqlite: StoreSchema.version9, postgres: PostgresSchema.version5),
    SchemaStep("10-geocodes", sqlite: StoreSchema.version10, postgres: PostgresSchema.version6),
    SchemaStep(
      "11-map-index", sqlite: StoreSchema.version11, postgres: PostgresSchema.version7),
    SchemaStep(
      "12-cross-posts", sqlite: StoreSchema.version12, postgres: PostgresSchema.version8),
    SchemaStep("13-marks", sqlite: StoreSchema.version13, postgres: PostgresSchema.version9),
    SchemaStep("14-watched", sqlite: StoreSchema.version14, postgres: PostgresSchema.version10),
    SchemaStep(
      "15-item-digests", sqlite: StoreSchema.version15, postgres: PostgresSchema.version11),
    SchemaStep(
      "16-geocoders", sqlite: StoreSchema.version16, postgres: PostgresSchema.version12),
    SchemaStep(
      "17-range-tops", sqlite: StoreSchema.version17, postgres: PostgresSchema.version13),
  ]

  /// A store's steps, in order: its name and SQL.
  static func steps(postgres: Bool) -> [(name: String, sql: String)] {
    all.compactMap { step in
      (postgres ? step.postgres : step.sqlite).map { (step.name, $0) }
    }
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
