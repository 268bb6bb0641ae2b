import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// JSON states of earlier versions (Fixtures/state: format 1 by hand in the object form, format
/// 2 written by the codec of 60f9798) imported into a store: every id a sighting, nothing
/// delivered owed again, refusals, held listings, validators and cool-downs carried over.
@Suite struct LegacyImportTests {
  static func fixture(_ name: String) -> String {
    Fixtures.root.appendingPathComponent("state/\(name)").path
  }

  static func imported(_ name: String, sites: [String: String]) throws -> ListingStore {
    let store = try StoreSamples.store()
    try store.importLegacy(jsonFile: fixture(name), sites: sites)
    return store
  }

  static func sightings(_ store: ListingStore) throws -> [String] {
    try store.locked { database in
      try database.rows("SELECT search, site, id FROM sightings ORDER BY 1, 2, 3") {
        "\($0.text(0)) \($0.text(1)) \($0.text(2))"
      }
    }
  }

  @Test func formatTwo() throws {
    #expect(ListingStore.isLegacyJSON(Self.fixture("legacy-v2.json")))
    let store = try Self.imported("legacy-v2.json", sites: ["bikes": "craigslist"])
    #expect(
      try Self.sightings(store) == [
        "bikes craigslist 7915891289", "bikes craigslist 7915891290", "bikes craigslist 7915891291",
        "old-feed unknown tag:example.org,2026:post-1",
      ])
    let keys = ["7915891289", "7915891290", "7915891291"].map {
      ListingKey(site: "craigslist", id: $0)
    }
    let seen = try store.lookUp(search: "bikes", keys: keys)
    #expect(seen[keys[0]]?.deliveredTo == ["terminal", "phone"])
    #expect(seen[keys[1]]?.deliveredTo == ["terminal"])
    #expect(seen[keys[2]]?.held == true)

    let owed = try store.owedDeliveries(maxAttempts: 5)
    #expect(
      owed.map { "\($0.search) \($0.listing.id) \($0.channel) \($0.attempts)" } == [
        "bikes 7915891290 phone 2"
      ], "only the refused delivery is owed; nothing delivered is owed again")
    #expect(owed.first?.listing.title == "Road bike, 54 cm")
    #expect(owed.first?.listing.coordinates == Coordinates(latitude: 37.7599, longitude: -122.4148))
    #expect(try store.held().map(\.listing.title) == ["Gravel bike"])
    #expect(try store.recent(searches: ["bikes"], limit: 5).map(\.listing.title) == ["Cargo bike"])

    let memory = try store.searches(["bikes", "old-feed"])
    #expect(memory["bikes"]?.sources == ["https://sfbay.craigslist.org/search/bia?format=rss"])
    #expect(memory["old-feed"]?.sources == nil, "written before sources were kept")
    #expect(memory["old-feed"]?.lastRun == RunnerTests.date("2026-04-20T07:30:00Z"))
    let url = "https://sfbay.craigslist.org/search/bia?format=rss"
    #expect(try store.validators(for: [url])[url]?.etag == "\"abc123\"")
    #expect(
      try store.cooldowns()["blocked.example.org"]?.urls == ["https://blocked.example.org/feed.xml"]
    )
    #expect(try store.check() == [])
  }

  @Test func formatOne() throws {
    let store = try Self.imported("legacy-v1.json", sites: ["ipads": "craigslist"])
    #expect(
      try Self.sightings(store) == [
        "ipads craigslist 7900000001", "ipads craigslist 7900000002", "ipads craigslist 7900000003",
        "retired-search unknown 55",
      ])
    let owed = try store.owedDeliveries(maxAttempts: 5)
    #expect(
      owed.map { "\($0.listing.id) \($0.channel) \($0.attempts) \($0.lastError ?? "")" } == [
        "7900000002 terminal 1 broken pipe"
      ])
    #expect(owed.first?.listing.price == 240)
    let first = ListingKey(site: "craigslist", id: "7900000001")
    #expect(try store.lookUp(search: "ipads", keys: [first])[first]?.deliveredTo == ["terminal"])
    #expect(try store.held().map(\.listing.id) == ["7900000003"])
    #expect(try store.searches(["ipads"])["ipads"]?.sources == nil)
    #expect(try store.cooldowns()["feeds.example.org"]?.reason == "rate-limited")
    #expect(try store.check() == [])
  }

  @Test func importingTwiceChangesNothing() throws {
    let store = try Self.imported("legacy-v2.json", sites: ["bikes": "craigslist"])
    let once = try StoreSamples.lines(store)
    try store.importLegacy(jsonFile: Self.fixture("legacy-v2.json"), sites: ["bikes": "craigslist"])
    // The refusals' times are the import's (the JSON kept none): compare the rest.
    let timeless = { (lines: [String]) in lines.filter { !$0.hasPrefix("{\"type\":\"delivery\"") } }
    #expect(timeless(try StoreSamples.lines(store)) == timeless(once))
  }

  @Test func anExportIsNotTakenForAJSONState() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let file = store.path + ".jsonl"
    try StoreSamples.data(try StoreSamples.lines(store)).write(to: URL(fileURLWithPath: file))
    #expect(!ListingStore.isLegacyJSON(file))
    #expect(!ListingStore.isLegacyJSON(Self.fixture("missing.json")))
    // A large state: its "version" comes last, far beyond the first read.
    let large = store.path + ".json"
    let ids = (0..<500).map { ("bikes", "79\($0)") }
    try Self.formatTwo(ids, ran: "2026-05-03T19:00:00Z").write(
      toFile: large, atomically: true, encoding: .utf8)
    #expect(try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int ?? 0 > 20_000)
    #expect(ListingStore.isLegacyJSON(large))
  }

  /// A JSON state holding every id of the bundled replay, as the last JSON-state clarissa
  /// left it, is imported by the next run, which then reports only the one listing that is new.
  @Test func aRunAfterMigrationNotifiesNothingOld() async throws {
    let config = try RunnerTests.config()
    let primed = RunnerTests.temporaryState()
    _ = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "default", state: primed),
      RunOptions(now: RunnerTests.noon))
    let ids = try Stored(primed).store.locked { database in
      try database.rows("SELECT search, id FROM sightings ORDER BY 1, 2") {
        ($0.text(0), $0.text(1))
      }
    }
    #expect(ids.count > 100)
    let folder = (RunnerTests.temporaryState() as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let json = folder + "/state.json"
    try Self.formatTwo(ids, ran: "2026-05-03T19:00:00Z").write(
      toFile: json, atomically: true, encoding: .utf8)

    let later = RunnerTests.noon.addingTimeInterval(3 * 3600)
    let result = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "next", state: json), RunOptions(now: later))
    #expect(result.newListings.map(\.id) == ["7931742798"])
    #expect(FileManager.default.fileExists(atPath: json + ".imported"))
    #expect(!FileManager.default.fileExists(atPath: json))
    #expect(
      try Stored(folder + "/state.db").seenCount("ipads") == Stored(primed).seenCount("ipads") + 1)
  }

  /// A format-2 state of `ids` (search, id), each delivered to the terminal.
  static func formatTwo(_ ids: [(String, String)], ran: String) -> String {
    let searches = Dictionary(grouping: ids, by: \.0).sorted { $0.key < $1.key }.map {
      search, seen in
      let entries = seen.map {
        "        \"\($0.1)\" : [\"\(ran)\", \"\(ran)\", [\"terminal\"], []]"
      }
      return "    \"\(search)\" : {\n      \"lastRun\" : \"\(ran)\",\n      \"seen\" : {\n"
        + entries.joined(separator: ",\n") + "\n      }\n    }"
    }
    return "{\n  \"searches\" : {\n" + searches.joined(separator: ",\n")
      + "\n  },\n  \"version\" : 2\n}\n"
  }
}
