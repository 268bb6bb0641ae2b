import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The stores' named schema steps (``SchemaSteps``): recorded by name as they are applied, named
/// once in a store made before names were kept, and one name for one change in both stores; and
/// rows read by column name.
@Suite struct SchemaStepTests {
  /// The steps recorded in a SQLite store: version, name, and whether a time was recorded.
  static func recorded(_ path: String) throws -> [(Int, String, Bool)] {
    let database = try SQLiteDatabase(path: path, readOnly: true)
    return try database.rows(
      "SELECT version, name, migrated_at FROM clarissa_schema ORDER BY version"
    ) {
      (
        $0.int(SchemaColumn.version), $0.text(SchemaColumn.name),
        $0.double(SchemaColumn.migratedAt) > 0
      )
    }
  }

  @Test func aNewStoreRecordsEveryStepByNameInOrder() throws {
    let path = try StoreSamples.store().path + "-named.db"
    _ = try ListingStore.open(path: path, readOnly: false)
    let steps = try Self.recorded(path)
    #expect(steps.map(\.0) == Array(1...StoreSchema.current))
    #expect(steps.map(\.1) == StoreSchema.steps.map(\.name))
    #expect(steps.allSatisfy { $0.2 })
    #expect(steps.last?.1 == "22-web-push")
  }

  @Test(arguments: [0, 1, 7, 16])
  func anOlderStoreHasItsStepsNamedAndTheRestApplied(version: Int) throws {
    let path = try StoreBasicsTests.database(atVersion: version, named: "-named-\(version)")
    let store = try ListingStore.open(path: path, readOnly: false)
    #expect(try store.info().schemaVersion == StoreSchema.current)
    let steps = try Self.recorded(path)
    #expect(steps.map(\.1) == StoreSchema.steps.map(\.name))
    // Those given before names were kept have no time; those applied now have one.
    #expect(steps.map(\.2) == (0..<StoreSchema.current).map { $0 >= version })
    #expect(try store.check() == [])
  }

  @Test func aStoreOfThisVersionWithoutNamesHasThemRecordedAndNothingApplied() throws {
    let path = try StoreSamples.store().path + "-unnamed.db"
    _ = try ListingStore.open(path: path, readOnly: false)
    do {
      let database = try SQLiteDatabase(path: path, readOnly: false)
      try database.execute("DROP TABLE clarissa_schema")
    }
    _ = try ListingStore.open(path: path, readOnly: false)
    let steps = try Self.recorded(path)
    #expect(steps.map(\.1) == StoreSchema.steps.map(\.name))
    #expect(steps.allSatisfy { !$0.2 }, "no step applied again")
  }

  @Test func aStoreReadOnlyIsNotGivenNames() throws {
    let path = try StoreSamples.store().path + "-read-only.db"
    _ = try ListingStore.open(path: path, readOnly: false)
    do {
      let database = try SQLiteDatabase(path: path, readOnly: false)
      try database.execute("DROP TABLE clarissa_schema")
    }
    _ = try ListingStore.open(path: path, readOnly: true)
    let database = try SQLiteDatabase(path: path, readOnly: true)
    #expect(
      try database.integer("SELECT count(*) FROM sqlite_master WHERE name = 'clarissa_schema'")
        == 0)
  }

  @Test func eachNameIsOneStepAndTheStoresNumberTheirShareAsBefore() {
    let names = SchemaSteps.all.map(\.name)
    #expect(Set(names).count == names.count)
    #expect(SchemaSteps.all.allSatisfy { $0.sqlite != nil || $0.postgres != nil })
    let sqlite = StoreSchema.steps.map(\.name)
    let postgres = PostgresSchema.steps.map(\.name)
    #expect(sqlite.count == 22 && postgres.count == 18)
    // The versions each store had before the steps had names.
    #expect(sqlite.firstIndex(of: "07-content-hash") == 6)
    #expect(postgres.firstIndex(of: "07-content-hash") == 2)
    #expect(postgres.firstIndex(of: "17-range-tops") == 12)
    #expect(postgres.firstIndex(of: "18-photo-hashes") == 13)
    #expect(Array(sqlite.suffix(16)) == Array(postgres.suffix(16)))
    // A fact's columns came in one step, under one name in both stores.
    for field in ListingField.all where field.since.sqlite > 1 {
      #expect(sqlite[field.since.sqlite - 1] == postgres[field.since.postgres - 1])
    }
  }

  /// Columns of a statement read by name; a name given twice is its first column.
  private enum Named: String, TableColumns { case a, b, c }

  @Test func aRowIsReadByColumnName() throws {
    let database = try SQLiteDatabase(path: ":memory:", readOnly: false)
    for _ in 0..<2 {
      let rows = try database.rows("SELECT 'x' AS b, 2 AS a, NULL AS c, 3 AS a") {
        ($0.int(Named.a), $0.text(Named.b), $0.optionalText(Named.c), $0.isNull(Named.c))
      }
      #expect(rows.count == 1)
      #expect(rows.first?.0 == 2)
      #expect(rows.first?.1 == "x")
      #expect(rows.first?.2 == nil)
      #expect(rows.first?.3 == true)
    }
  }
}
