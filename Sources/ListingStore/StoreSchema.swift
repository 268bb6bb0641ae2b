/// The SQLite store's schema: its steps of ``SchemaSteps/all`` (those with SQLite's SQL). Step
/// `n` takes a database from schema version `n` (SQLite's `user_version`) to `n + 1`, and is
/// recorded by name in `clarissa_schema`. Later versions append; nothing is ever edited in place,
/// so every earlier database upgrades the same way.
enum StoreSchema {
  /// The version this build writes.
  static var current: Int { steps.count }

  /// The steps, in order: each one's name and SQL.
  static let steps = SchemaSteps.steps(postgres: false)

  /// Each step's SQL, in order.
  static var migrations: [String] { steps.map(\.sql) }
}
