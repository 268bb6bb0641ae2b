/// The PostgreSQL store's schema: its steps of ``SchemaSteps/all`` (those with PostgreSQL's SQL;
/// step `n` takes the schema from version `n` to `n + 1`; each is recorded, by version and name,
/// in `clarissa_schema`). Its first is the SQLite store's model at its sixth step, in
/// PostgreSQL's words (``SchemaSteps/postgresFirst``).
enum PostgresSchema {
  /// The version this build writes.
  static var current: Int { steps.count }

  /// The steps, in order: each one's name and SQL.
  static let steps = SchemaSteps.steps(postgres: true)

  /// Each step's SQL, in order.
  static var migrations: [String] { steps.map(\.sql) }
}
