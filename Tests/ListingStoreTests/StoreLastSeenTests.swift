import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// "Last seen" is written once per search answer: an answer holding the same listings as the
/// last one writes no listing or sighting row, and every reader (the lookup, `show`,
/// `listings`, the reposts' window, prune, export, check, migrate) sees the answer's time. On
/// both stores.
@Suite(.serialized) struct StoreLastSeenTests {
  static let start = StoreSamples.start
  static let bikes = ["b1", "b2", "b3"].map { StoreSamples.listing($0) }

  static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

  static func answer(_ seen: [Listing], after minutes: Double) -> SearchRecord {
    SearchRecord(search: "bikes", now: at(minutes), seen: seen, reached: true)
  }

  static func run(_ store: some ConnectedStore, _ sql: String, _ values: [StoreValue] = [])
    throws
  {
    try store.locked { try $0.run(sql, values) }
  }

  static func texts(_ store: some ConnectedStore, _ sql: String) throws -> [String] {
    try store.locked { try $0.rows(sql) { $0.text(0) } }
  }

  /// Counts the rows written to `listings` and `sightings` while `body` runs: by triggers in
  /// SQLite (a temporary table of writes, on the store's own connection), by each row's
  /// version (`xmin`, which every insert and update moves) in PostgreSQL.
  static func writes(
    _ memory: any ListingMemory, _ kind: StoreKind, during body: () throws -> Void
  ) throws -> (listings: Int, sightings: Int) {
    let store = try #require(memory as? any ConnectedStore)
    let tables = ["listings", "sightings"]
    switch kind {
    case .sqlite:
      try run(store, "CREATE TEMP TABLE IF NOT EXISTS writes(tab TEXT NOT NULL)")
      try run(store, "DELETE FROM writes")
      for table in tables {
        for event in ["INSERT", "UPDATE", "DELETE"] {
          try run(
            store,
            "CREATE TEMP TRIGGER IF NOT EXISTS \(table)_\(event.lowercased()) AFTER \(event) "
              + "ON main.\(table) BEGIN INSERT INTO writes VALUES('\(table)'); END")
        }
      }
      try body()
      let counts = try tables.map { table in
        try store.locked { try $0.integer("SELECT count(*) FROM writes WHERE tab = '\(table)'") }
      }
      return (counts[0], counts[1])
    case .postgres:
      let keys = ["site || '/' || id", "search || '/' || site || '/' || id"]
      let versions = { (index: Int) in
        try store.locked { database in
          Dictionary(
            try database.rows("SELECT \(keys[index]), xmin::text FROM \(tables[index])") {
              ($0.text(0), $0.text(1))
            }, uniquingKeysWith: { $1 })
        }
      }
      let before = try [0, 1].map(versions)
      try body()
      let after = try [0, 1].map(versions)
      let counts = [0, 1].map { index in
        after[index].filter { before[index][$0.key] != $0.value }.count
          + before[index].keys.filter { after[index][$0] == nil }.count
      }
      return (counts[0], counts[1])
    }
  }

  @Test(arguments: StoreKind.built)
  func anUnchangedAnswerWritesNoListingOrSightingRow(kind: StoreKind) throws {
    let (store, _) = try StoreSamples.open(kind)
    try store.record(Self.answer(Self.bikes, after: 0))
    var written = try Self.writes(store, kind) {
      try store.record(Self.answer(Self.bikes.reversed(), after: 15))
    }
    #expect(written == (0, 0))
    // b1 drops off and b4 comes: b1's sighting gets its last seen, b4 is written whole.
    let b4 = StoreSamples.listing("b4")
    let changed = Array(Self.bikes.dropFirst()) + [b4]
    written = try Self.writes(store, kind) { try store.record(Self.answer(changed, after: 30)) }
    #expect(written == (1, 2))
    // The same listings, b2 cheaper: b2 is written, no sighting.
    var cheaper = changed
    cheaper[0].price = 80
    written = try Self.writes(store, kind) { try store.record(Self.answer(cheaper, after: 45)) }
    #expect(written == (1, 0))
    let seen = try store.lookUp(search: "bikes", keys: (Self.bikes + [b4]).map(\.key))
    #expect(seen[Self.bikes[0].key]?.lastSeen == Self.at(15))
    #expect(seen[Self.bikes[1].key]?.lastSeen == Self.at(45))
    #expect(seen[b4.key]?.lastSeen == Self.at(45))
  }

  @Test(arguments: StoreKind.built)
  func everyReaderSeesTheTimeOfTheLastAnswer(kind: StoreKind) throws {
    let (store, location) = try StoreSamples.open(kind)
    let bike = Self.bikes[0]
    try store.record(Self.answer(Self.bikes, after: 0))
    try store.record(Self.answer(Self.bikes, after: 15))
    let seen = Self.at(15)
    #expect(try store.lookUp(search: "bikes", keys: [bike.key])[bike.key]?.lastSeen == seen)
    let history = try #require(try store.history(bike.key))
    #expect(history.lastSeen == seen && history.searches.map(\.lastSeen) == [seen])
    #expect(try store.listings(ListingQuery()).map(\.lastSeen) == [seen, seen, seen])
    // The reposts' window: seen at 15 minutes, inside a window from 10, not from 20.
    let repost = StoreSamples.listing("b9")
    var found = try store.originals(search: "bikes", of: [repost], since: Self.at(10))
    #expect(found[repost.key]?.id == "b1")
    found = try store.originals(search: "bikes", of: [repost], since: Self.at(20))
    #expect(found.isEmpty)
    // Check: first seen after the sighting's own time, before the answer's, breaks no rule.
    let connected = try #require(store as? any ConnectedStore)
    let sighting = "UPDATE sightings SET first_seen = ? WHERE site = 'feed' AND id = 'b1'"
    try Self.run(connected, sighting, [.time(Self.at(10))])
    #expect(try Self.check(store, kind, location) == [])
    try Self.run(connected, sighting, [.time(Self.at(20))])
    #expect(
      try Self.check(store, kind, location).map { $0.hasPrefix("1 sightings last seen before") }
        == [true])
    try Self.run(connected, sighting, [.time(Self.at(0))])
    // Prune: kept while the answer is inside the retention, gone after.
    var pruned = try store.prune(now: Self.at(20), retention: 10 * 60)
    #expect(pruned["sightings"] == 0 && pruned["listings"] == 0)
    pruned = try store.prune(now: Self.at(30), retention: 10 * 60)
    #expect(pruned["sightings"] == 3 && pruned["listings"] == 3)
    #expect(try Self.texts(connected, "SELECT search FROM answers") == [])
  }

  /// Workers record out of order: one that received its answer at 15 minutes records it after
  /// another recorded the answer it received at 30. No time moves back (the answer's stays at
  /// 30), and a listing first seen at 30 is never last seen before that.
  @Test(arguments: StoreKind.built)
  func anOlderAnswerRecordedLateMovesNoTimeBack(kind: StoreKind) throws {
    let (store, location) = try StoreSamples.open(kind)
    let (b1, b2, b3) = (Self.bikes[0], Self.bikes[1], Self.bikes[2])
    try store.record(Self.answer([b1], after: 0))
    try store.record(Self.answer([b1, b2, b3], after: 30))
    try store.record(Self.answer([b1, b2], after: 15))
    let seen = try store.lookUp(search: "bikes", keys: [b1, b2, b3].map(\.key))
    #expect(seen[b1.key]?.lastSeen == Self.at(30))
    #expect(seen[b2.key].map { [$0.firstSeen, $0.lastSeen] } == [Self.at(30), Self.at(30)])
    #expect(seen[b3.key].map { [$0.firstSeen, $0.lastSeen] } == [Self.at(30), Self.at(30)])
    let connected = try #require(store as? any ConnectedStore)
    #expect(
      try Self.texts(connected, "SELECT CAST(answered_at AS TEXT) FROM answers").compactMap {
        Double($0)
      } == [Self.at(30).timeIntervalSince1970])
    #expect(try Self.check(store, kind, location) == [])
    // b2 leaves in an answer received at 10, recorded last: its last seen stays at 30.
    try store.record(Self.answer([b1], after: 10))
    let left = try store.lookUp(search: "bikes", keys: [b2.key])
    #expect(left[b2.key]?.lastSeen == Self.at(30))
    #expect(try store.history(b2.key)?.lastSeen == Self.at(30))
    #expect(try Self.check(store, kind, location) == [])
  }

  /// A record carries three times: when its answer came (its listings and sightings are seen
  /// then), when it was recorded (what is owed), and when its run began (the search's run).
  @Test(arguments: StoreKind.built)
  func aRecordIsSeenWhenItsAnswerCameAndRunWhenItsRunBegan(kind: StoreKind) throws {
    let (store, _) = try StoreSamples.open(kind)
    let bike = Self.bikes[0]
    var record = Self.answer([bike], after: 3)
    record.answeredAt = Self.at(2)
    record.began = Self.at(0)
    try store.record(record)
    let sighting = try #require(try store.lookUp(search: "bikes", keys: [bike.key])[bike.key])
    #expect(sighting.firstSeen == Self.at(2) && sighting.lastSeen == Self.at(2))
    let history = try #require(try store.history(bike.key))
    #expect(history.firstSeen == Self.at(2) && history.lastSeen == Self.at(2))
    let memory = try #require(try store.searches(["bikes"])["bikes"])
    #expect(memory.lastRun == Self.at(0) && memory.lastAttempt == Self.at(0))
  }

  static func check(_ store: any ListingMemory, _ kind: StoreKind, _ location: String) throws
    -> [String]
  {
    switch kind {
    case .sqlite: return try #require(store as? ListingStore).check()
    case .postgres:
      #if PostgreSQL
        return try PostgresStore.check(url: location) ?? ["no store"]
      #else
        return ["built without PostgreSQL"]
      #endif
    }
  }

  @Test func theExportShowsTheTimeOfTheLastAnswer() throws {
    let store = try StoreSamples.store()
    try store.record(Self.answer(Self.bikes, after: 0))
    try store.record(Self.answer(Self.bikes, after: 15))
    var lines: [String] = []
    try store.export { lines.append($0) }
    let objects = try lines.map {
      try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    let listings = objects.filter { $0["type"] as? String == "listing" }
    let seen = StoreLine.time(Self.at(15).timeIntervalSince1970)
    #expect(listings.count == 3)
    for listing in listings {
      #expect(listing["lastSeen"] as? String == seen)
      let sightings = listing["sightings"] as? [[String: Any]]
      #expect(sightings?.map { $0["lastSeen"] as? String } == [seen])
    }
    // Imported into a store whose answer holds the same listings since 5 minutes: the later
    // time of each wins, and the next answer is seen as ever.
    let other = try StoreSamples.store()
    try other.record(Self.answer(Self.bikes, after: 5))
    _ = try other.importLines(Data(lines.joined(separator: "\n").utf8), file: "export.jsonl")
    let bike = Self.bikes[0].key
    #expect(try other.history(bike)?.searches.map(\.lastSeen) == [Self.at(15)])
    #expect(try other.history(bike)?.lastSeen == Self.at(15))
    try other.record(Self.answer(Self.bikes, after: 30))
    #expect(try other.history(bike)?.searches.map(\.lastSeen) == [Self.at(30)])
    #expect(try other.check() == [])
  }

  /// A store made by schema 7 (SQLite) or 3 (PostgreSQL), upgraded: every listing and sighting
  /// keeps its last seen; the first answer after writes the sightings once, the next none.
  @Test(arguments: StoreKind.built)
  func anUpgradedStoreKeepsItsLastSeenTimes(kind: StoreKind) throws {
    // A file of its own (the one beside it is made at the current schema), or a new database.
    let location = try kind.location() + (kind == .sqlite ? "-v7.db" : "")
    let rows = [
      "INSERT INTO listings(site, id, url, title, description, first_seen, last_seen) "
        + "VALUES ('feed', 'b1', 'u', 't', '', \(Self.at(0).timeIntervalSince1970), "
        + "\(Self.at(20).timeIntervalSince1970))",
      "INSERT INTO sightings(search, site, id, first_seen, last_seen) VALUES "
        + "('bikes', 'feed', 'b1', \(Self.at(0).timeIntervalSince1970), "
        + "\(Self.at(15).timeIntervalSince1970))",
    ]
    switch kind {
    case .sqlite:
      let database = try SQLiteDatabase(path: location, readOnly: false)
      for step in 0..<7 { try database.execute(StoreSchema.migrations[step]) }
      for row in rows { try database.execute(row) }
      try database.execute("PRAGMA user_version = 7")
    case .postgres:
      #if PostgreSQL
        let database = try PostgresDatabase(url: location)
        try database.execute(
          script: "CREATE TABLE clarissa_schema(version integer PRIMARY KEY, "
            + "migrated_at double precision NOT NULL, by_clarissa text NOT NULL)")
        for step in 0..<3 {
          try database.execute(script: PostgresSchema.migrations[step])
          try database.run(
            "INSERT INTO clarissa_schema VALUES($1, 0, 'test')", [.int(step + 1)])
        }
        for row in rows { try database.execute(script: row) }
      #endif
    }
    let store = try StoreSamples.open(kind, at: location)
    let bike = Self.bikes[0]
    var history = try #require(try store.history(bike.key))
    #expect(history.lastSeen == Self.at(20) && history.searches.map(\.lastSeen) == [Self.at(15)])
    var written = try Self.writes(store, kind) {
      try store.record(Self.answer([bike], after: 30))
    }
    #expect(written == (1, 1), "the listing had no content hash, the sighting was in no answer")
    written = try Self.writes(store, kind) { try store.record(Self.answer([bike], after: 45)) }
    #expect(written == (0, 0))
    history = try #require(try store.history(bike.key))
    #expect(history.lastSeen == Self.at(45) && history.searches.map(\.lastSeen) == [Self.at(45)])
  }

  #if PostgreSQL
    /// `state migrate`: the answers and who is in them travel, both ways.
    @Test func aMigratedStoreKeepsTheTimeOfTheLastAnswer() throws {
      let sqlite = try StoreSamples.store()
      try sqlite.record(Self.answer(Self.bikes, after: 0))
      try sqlite.record(Self.answer(Self.bikes, after: 15))
      let url = try LoopbackPostgres.shared().database("lastseen")
      let postgres = try PostgresStore.open(url: url, worker: "last-seen")
      _ = try StoreMigration.copy(from: sqlite, to: postgres)
      let back = try StoreSamples.store()
      _ = try StoreMigration.copy(from: postgres, to: back)
      for store in [postgres, back] as [any BrowsableStore] {
        let history = try #require(try store.history(Self.bikes[0].key))
        #expect(history.lastSeen == Self.at(15))
        #expect(history.searches.map(\.lastSeen) == [Self.at(15)])
        let written = try Self.writes(store, store is ListingStore ? .sqlite : .postgres) {
          try store.record(Self.answer(Self.bikes, after: 30))
        }
        #expect(written == (0, 0))
      }
    }
  #endif
}
