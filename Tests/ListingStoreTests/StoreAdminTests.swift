import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The store's administration API on real database files: info, export and import, forget,
/// prune and check.
@Suite struct StoreAdminTests {
  @Test func exportThenImportGivesTheSameStoreAndAgainChangesNothing() throws {
    let original = try StoreSamples.store()
    try StoreSamples.filled(original)
    let exported = try StoreSamples.lines(original)
    #expect(
      exported.first == "{\"type\":\"clarissa\",\"format\":1,\"schema\":\(StoreSchema.current)}")
    #expect(exported.allSatisfy { $0.hasPrefix("{\"type\":\"") && !$0.contains("\n") })
    let listingA = try #require(exported.first { $0.contains("\"id\":\"a\"") })
    #expect(listingA.contains("\"prices\":[{\"at\":\"2026-05-03T09:20:00Z\""))
    #expect(listingA.contains("\"price\":80}]"), "a row per price seen: \(listingA)")

    let copy = try StoreSamples.store()
    _ = try copy.importLines(StoreSamples.data(exported), file: "state.jsonl")
    #expect(try StoreSamples.lines(copy) == exported)
    _ = try copy.importLines(StoreSamples.data(exported), file: "state.jsonl")
    #expect(try StoreSamples.lines(copy) == exported, "importing again changes nothing")
    let key = ListingKey(site: "feed", id: "a")
    #expect(
      try copy.lookUp(search: "bikes", keys: [key]) == original.lookUp(search: "bikes", keys: [key])
    )
    func owed(_ store: ListingStore) throws -> [OwedDelivery] {
      try store.owedDeliveries(maxAttempts: 5).sorted {
        ($0.listing.id, $0.channel) < ($1.listing.id, $1.channel)
      }
    }
    #expect(try owed(copy) == owed(original))
    #expect(try owed(copy).count == 3)
    #expect(
      try copy.searches(["bikes", "cheap-bikes"]) == original.searches(["bikes", "cheap-bikes"]))
    #expect(try copy.held() == original.held())
  }

  @Test func linesAreJSONThatReadsBackToTheSameValues() throws {
    let title = "tab\t bell\u{7} quote\" back\\ slash/ é 🚲 \u{2028}"
    let line = try StoreLine.text(
      "listing",
      ["title": title, "price": 12.5, "whole": 1200.0, "count": 3, "known": true, "list": ["a"]])
    #expect(line.hasPrefix("{\"type\":\"listing\",\"count\":3,\"known\":true,\"list\":[\"a\"]"))
    #expect(line.contains("\"whole\":1200}") && line.contains("\"price\":12.5,"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["title"] as? String == title)
    #expect(object["type"] as? String == "listing")
  }

  @Test func aFileIsImportedAPieceAtATimeAsItWouldBeWhole() throws {
    let original = try StoreSamples.store()
    // Over 2 MB of lines: several pieces, with lines cut at their edges.
    let listings = (0..<3000).map {
      var listing = StoreSamples.listing("\($0)")
      listing.description = String(repeating: "long text \($0) ", count: 60)
      return listing
    }
    try original.record(
      SearchRecord(search: "bikes", now: StoreSamples.start, seen: listings, reached: true))
    let lines = try StoreSamples.lines(original)
    let file = original.path + ".jsonl"
    try StoreSamples.data(lines).write(to: URL(fileURLWithPath: file))
    #expect(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0 > 2 << 20)
    let copy = try StoreSamples.store()
    let counts = try copy.importLines(path: file)
    #expect(counts["listings"] == 3000 && counts["sightings"] == 3000)
    #expect(try StoreSamples.lines(copy) == lines)
  }

  @Test func anImportNeverTakesADeliveryBack() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let owedAgain = """
      {"type":"delivery","search":"bikes","site":"feed","id":"a","channel":"phone","state":"owed",\
      "owedAt":"2026-05-03T09:20:00Z","attempts":0}
      """
    _ = try store.importLines(Data(owedAgain.utf8), file: "old.jsonl")
    let sighting = try store.lookUp(search: "bikes", keys: [ListingKey(site: "feed", id: "a")])
    #expect(sighting.values.first?.deliveredTo == ["phone"])
    #expect(
      try !store.owedDeliveries(maxAttempts: 5).contains {
        $0.listing.id == "a" && $0.channel == "phone"
      })
  }

  @Test(arguments: [
    ("{\"type\":\"search\",\"name\":\"x\"}\nnot json\n", "line 2 is not a JSON object"),
    (
      "{\"type\":\"search\",\"name\":\"x\"}\n{\"type\":\"listing\",\"site\":\"feed\"}",
      "line 2 needs 'id'"
    ),
    (
      "\n{\"type\":\"held\",\"search\":\"x\",\"site\":\"feed\",\"id\":\"1\"}",
      "line 2 needs 'heldAt'"
    ),
    ("{\"type\":\"sofa\"}", "line 1 has an unknown type 'sofa'"),
    ("{\"type\":\"clarissa\",\"format\":7}", "line 1 is an export of format 7"),
  ])
  func aBadLineIsNamedAndNothingIsImported(text: String, message: String) throws {
    let store = try StoreSamples.store()
    do {
      _ = try store.importLines(Data(text.utf8), file: "state.jsonl")
      Issue.record("a bad line must be refused")
    } catch let problem as StoreProblem {
      #expect(problem.message.contains("'state.jsonl' \(message)"), "\(problem.message)")
      #expect(problem.message.hasSuffix("nothing was imported"))
    }
    #expect(try store.searchNames().isEmpty, "the search before the bad line is rolled back")
  }

  @Test func forgetTakesOneSearchAndLeavesTheOthers() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let counts = try store.forget(search: "bikes")
    #expect(counts["sightings"] == 2 && counts["deliveries"] == 4 && counts["recent"] == 2)
    #expect(counts["sources"] == 1 && counts["searches"] == 1 && counts["listings"] == 0)
    let keys = ["a", "b"].map { ListingKey(site: "feed", id: $0) }
    #expect(try store.lookUp(search: "bikes", keys: keys).isEmpty, "its listings are new again")
    #expect(try store.searches(["bikes"])["bikes"] == nil, "its next run is its first")
    #expect(try store.lookUp(search: "cheap-bikes", keys: keys).count == 1)
    #expect(try store.searchNames() == ["cheap-bikes"])
    #expect(try store.check().isEmpty, "listings stay, for the other search and retention")
  }

  @Test func pruneSaysWhatWentAndKeepsWhatIsFresh() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let now = StoreSamples.start.addingTimeInterval(2 * 86_400)
    // Only what "bikes" alone saw at the start is stale after a day and a half.
    let counts = try store.prune(now: now, retention: 1.5 * 86_400)
    #expect(
      counts
        == StoreCounts([
          "sightings": 2, "deliveries": 4, "recent": 2, "listings": 1, "listing_images": 1,
          "cooldowns": 1,
        ]))
    #expect(
      "\(counts)"
        == "1 listing, 1 photo id, 2 sightings, 4 deliveries, 2 recent, 1 cooldown")
    #expect(try store.prune(now: now, retention: 1.5 * 86_400) == StoreCounts())
    #expect(try store.info(now: now).listings == 2, "'a' and 'c' are seen by cheap-bikes")
    #expect(try store.check().isEmpty)
  }

  @Test func checkFindsRowsOfListingsTheStoreDoesNotHave() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    #expect(try store.check() == [])
    try store.locked { database in
      try database.run("DELETE FROM listings WHERE site = 'feed' AND id = 'b'")
      try database.run("UPDATE deliveries SET at = NULL WHERE state = 'delivered'")
    }
    let problems = try store.check()
    #expect(
      problems.contains(
        "1 sightings of a listing the store does not have (for example 'bikes feed b')"))
    #expect(problems.contains { $0.hasPrefix("2 deliveries of a listing the store does not have") })
    #expect(problems.contains { $0.hasPrefix("1 deliveries marked delivered without a time") })
    #expect(problems.contains { $0.hasPrefix("1 recent listings the store does not have") })
  }

  @Test func infoCountsPerSearchAndChannel() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let info = try store.info(now: StoreSamples.start.addingTimeInterval(60))
    #expect(info.schemaVersion == StoreSchema.current)
    #expect(info.bytes > 0 && info.path == store.path)
    #expect((info.listings, info.prices, info.held) == (3, 3, 1))
    #expect(info.searches.map(\.name) == ["bikes", "cheap-bikes"])
    #expect(info.searches.map(\.listings) == [2, 2])
    #expect(info.searches[0].lastRun == StoreSamples.start && info.searches[1].lastRun == nil)
    #expect(info.channels.map(\.name) == ["mail", "phone"])
    #expect(info.channels.map { [$0.delivered, $0.owed, $0.failed] } == [[0, 1, 1], [1, 1, 0]])
    #expect(info.cooldowns.map(\.host) == ["blocked.example.org"])
  }
}
