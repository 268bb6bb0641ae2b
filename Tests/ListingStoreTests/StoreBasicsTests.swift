import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The store behind ``ListingMemory`` on real database files: migrations, atomic records,
/// deliveries, price history, sources, and two connections on one file.
@Suite struct StoreBasicsTests {
  static let start = StoreSamples.start

  /// A new SQLite database at schema `version` (its first `version` migrations applied), its
  /// path ending in `suffix`.
  static func database(atVersion version: Int, named suffix: String) throws -> String {
    let path = try StoreSamples.store().path + suffix + ".db"
    let database = try SQLiteDatabase(path: path, readOnly: false)
    for step in 0..<version { try database.execute(StoreSchema.migrations[step]) }
    try database.execute("PRAGMA user_version = \(version)")
    return path
  }

  @Test(arguments: 0..<StoreSchema.current)
  func aDatabaseOfEveryEarlierVersionIsUpgraded(version: Int) throws {
    let path = try Self.database(atVersion: version, named: "-v\(version)")
    let store = try ListingStore.open(path: path, readOnly: false)
    #expect(try store.info().schemaVersion == StoreSchema.current)
    let listing = StoreSamples.listing("1")
    try store.record(StoreSamples.record("bikes", at: 0, seen: [listing]))
    #expect(try store.lookUp(search: "bikes", keys: [listing.key]).count == 1)
    #expect(try store.check() == [])
  }

  /// An upgrade is one transaction: when a step fails (schema 4's index on `sightings` is in the
  /// way), the steps before it are undone too (schema 3's column) and the file stays at its
  /// version. (With a transaction per step, schema 3 stayed, at a version readers refuse.)
  @Test func anUpgradeThatFailsHalfWayLeavesTheOldVersion() throws {
    let path = try StoreSamples.store().path + "-half.db"
    let old = 2
    do {
      let database = try SQLiteDatabase(path: path, readOnly: false)
      for step in 0..<old { try database.execute(StoreSchema.migrations[step]) }
      try database.execute("CREATE INDEX sightings_repost_of ON sightings(search)")
      try database.execute("PRAGMA user_version = \(old)")
    }
    #expect(throws: SQLiteError.self) { try ListingStore.open(path: path, readOnly: false) }
    let database = try SQLiteDatabase(path: path, readOnly: true)
    #expect(try database.integer("PRAGMA user_version") == old)
    let columns = try database.rows("PRAGMA table_info(sightings)") { $0.text(1) }
    #expect(!columns.contains("announced_price"), "the step before the failing one is undone")
  }

  @Test func aReadOnlyOpenOfAMissingFileCreatesNothing() throws {
    let path = try StoreSamples.store().path + "-missing.db"
    #expect(throws: SQLiteError.self) { try ListingStore.open(path: path, readOnly: true) }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aRecordThatFailsHalfWayLeavesNothing() throws {
    let store = try StoreSamples.store()
    // A real failure inside the transaction: SQLite refuses the held row, after the listings,
    // sightings and deliveries were written.
    try store.locked { database in
      try database.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON held BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
      )
    }
    let listing = StoreSamples.listing("1")
    #expect(throws: SQLiteError.self) {
      try store.record(
        StoreSamples.record("bikes", at: 0, seen: [listing], owed: [listing], held: [listing]))
    }
    let info = try store.info()
    #expect((info.listings, info.prices, info.searches.count, info.channels.count) == (0, 0, 0, 0))
    #expect(try store.lookUp(search: "bikes", keys: [listing.key]).isEmpty)
  }

  @Test func anOwedDeliveryIsDeliveredOnceAndARefusalCountsUpToTheMaximum() throws {
    let store = try StoreSamples.store()
    let (a, b) = (StoreSamples.listing("a"), StoreSamples.listing("b"))
    try store.record(StoreSamples.record("bikes", at: 0, seen: [a, b], owed: [a, b]))
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["a", "b"])
    try store.markDelivered(search: "bikes", key: a.key, channel: "phone", at: Self.start)
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["b"])
    // Seen and owed again (a crash before the run's end): a delivery is never owed twice.
    try store.record(StoreSamples.record("bikes", at: 60, seen: [a], owed: [a]))
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["b"])
    for attempt in 1...3 {
      let counted = try store.markFailed(
        search: "bikes", key: b.key, channel: "phone", error: "503 #\(attempt)", at: Self.start)
      #expect(counted == attempt)
    }
    #expect(try store.owedDeliveries(maxAttempts: 3).isEmpty, "three refusals: given up")
    let retried = try store.owedDeliveries(maxAttempts: 4)
    #expect(
      retried.map { "\($0.listing.id) \($0.attempts) \($0.lastError ?? "")" } == ["b 3 503 #3"])
    #expect(try store.lookUp(search: "bikes", keys: [a.key])[a.key]?.deliveredTo == ["phone"])
  }

  @Test func aPriceRowOnlyWhenThePriceChanges() throws {
    let store = try StoreSamples.store()
    var listing = StoreSamples.listing("1", price: 100)
    for (offset, price) in [(0.0, 100.0), (60, 100), (120, 90), (180, 90), (240, 100)] {
      listing.price = price
      try store.record(StoreSamples.record("bikes", at: offset, seen: [listing]))
    }
    listing.currency = "EUR"
    try store.record(StoreSamples.record("bikes", at: 300, seen: [listing]))
    let prices = try store.locked { database in
      try database.rows("SELECT seen_at, price, currency FROM prices ORDER BY seen_at") {
        "\(Int($0.double(0) - Self.start.timeIntervalSince1970)) \(Int($0.double(1))) \($0.text(2))"
      }
    }
    #expect(prices == ["0 100 USD", "120 90 USD", "240 100 USD", "300 100 EUR"])
  }

  @Test func sourcesAreThoseThatAnsweredAndAreStillAsked() throws {
    let store = try StoreSamples.store()
    try store.record(
      StoreSamples.record("bikes", at: 0, answered: ["a", "b"], asked: ["a", "b", "c"]))
    #expect(try store.searches(["bikes"])["bikes"]?.sources == ["a", "b"])
    try store.record(StoreSamples.record("bikes", at: 60, answered: ["c"], asked: ["b", "c"]))
    #expect(try store.searches(["bikes"])["bikes"]?.sources == ["b", "c"])
  }

  @Test func recentIsTheNewestPerSearch() throws {
    let store = try StoreSamples.store()
    for index in 0..<5 {
      let listing = StoreSamples.listing("\(index)")
      try store.record(
        StoreSamples.record(
          index % 2 == 0 ? "even" : "odd", at: Double(index) * 60, seen: [listing]))
    }
    let recent = try store.recent(searches: ["even", "odd"], limit: 2)
    #expect(
      recent.map { "\($0.search) \($0.listing.id)" } == ["even 4", "odd 3", "even 2", "odd 1"])
  }

  @Test func aReaderIsNotBlockedByAWriterAndASecondWriterWaitsForTheBusyTimeout() throws {
    let writer = try StoreSamples.store()
    try writer.record(StoreSamples.record("bikes", at: 0, seen: [StoreSamples.listing("1")]))
    try writer.locked { database in
      try database.execute("BEGIN IMMEDIATE")
      try database.execute("DELETE FROM sightings")
    }
    let reader = try ListingStore.open(path: writer.path, readOnly: true, busyTimeout: 5)
    let readStart = Date()
    #expect(try reader.info().searches.first?.listings == 1, "the last commit, not the open one")
    #expect(Date().timeIntervalSince(readStart) < 1)

    let second = try ListingStore.open(path: writer.path, readOnly: false, busyTimeout: 0.5)
    let writeStart = Date()
    #expect(throws: SQLiteError.self) {
      try second.record(StoreSamples.record("sofas", at: 60))
    }
    let waited = Date().timeIntervalSince(writeStart)
    #expect(waited >= 0.45 && waited < 3, "waited \(waited) s")
    try writer.locked { database in try database.execute("COMMIT") }
    try second.record(StoreSamples.record("sofas", at: 60))
    #expect(try reader.info().searches.map(\.name) == ["bikes", "sofas"])
  }
}
