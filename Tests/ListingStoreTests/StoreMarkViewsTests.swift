import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// What the marks change in what the store shows: hidden listings left out of the listings and
/// the map unless asked for, the starred and the hidden listed by when they were marked, the
/// marks carried on each listing; `state export`/`import` carry them and prune keeps a starred
/// listing's story.
@Suite(.serialized) struct StoreMarkViewsTests {
  static let start = StoreSamples.start

  static func browsable(_ kind: StoreKind) throws -> any BrowsableStore {
    try #require(try kind.open() as? any BrowsableStore)
  }

  static func ids(_ found: [FoundListing]) -> [String] { found.map(\.listing.id) }

  @Test(arguments: StoreKind.built)
  func hiddenListingsAreLeftOutUnlessAskedForAndMarksComeWithEachListing(kind: StoreKind) throws {
    let store = try Self.browsable(kind)
    let listings = ["a", "b", "c", "d"].map { StoreSamples.listing($0) }
    for (index, listing) in listings.enumerated() {
      try store.record(
        SearchRecord(
          search: "bikes", now: Self.start.addingTimeInterval(Double(index) * 60),
          seen: [listing], reached: true))
    }
    let key = { (id: String) in ListingKey(site: "feed", id: id) }
    #expect(try store.unviewedCounts() == ["bikes": 4])
    try store.setMark(.hide, on: [key("b")], at: Self.start.addingTimeInterval(1000))
    // Hidden is dealt with: viewed, out of the unviewed count.
    #expect(try store.unviewedCounts() == ["bikes": 3])
    #expect(try store.history(key("b"))?.viewedAt == Self.start.addingTimeInterval(1000))
    try store.setMark(.hide, on: [key("d")], at: Self.start.addingTimeInterval(2000))
    try store.setMark(.star, on: [key("a")], at: Self.start.addingTimeInterval(3000))
    try store.setMark(.star, on: [key("c")], at: Self.start.addingTimeInterval(500))
    try store.setMark(.note("ask about the frame"), on: [key("c")], at: Self.start)

    var query = ListingQuery()
    #expect(Self.ids(try store.listings(query)) == ["c", "a"], "newest first, hidden left out")
    query.marked = .any
    #expect(Self.ids(try store.listings(query)) == ["d", "c", "b", "a"])
    query.marked = .starred
    let starred = try store.listings(query)
    #expect(Self.ids(starred) == ["a", "c"], "the latest starred first")
    #expect(starred[1].marks?.note == "ask about the frame")
    #expect(starred[1].marks?.starredAt == Self.start.addingTimeInterval(500))
    query.marked = .hidden
    let hidden = try store.listings(query)
    #expect(Self.ids(hidden) == ["d", "b"], "the latest hidden first")
    #expect(hidden.allSatisfy { $0.marks?.hidden == true })
    // Filters still apply to the marked.
    query.since = Self.start.addingTimeInterval(100)
    #expect(Self.ids(try store.listings(query)) == ["d"])
    query.searches = ["other"]
    #expect(try store.listings(query).isEmpty)

    #expect(try store.history(key("c"))?.marks?.note == "ask about the frame")
    #expect(try store.history(key("b"))?.marks?.hiddenAt == Self.start.addingTimeInterval(1000))
    #expect(try store.history(key("x")) == nil)

    // The map leaves them out too.
    #expect(Set(try store.mapped(ListingQuery()).map(\.listing.id)) == ["a", "c"])
    var hiddenOnMap = ListingQuery()
    hiddenOnMap.marked = .hidden
    #expect(Set(try store.mapped(hiddenOnMap).map(\.listing.id)) == ["b", "d"])
    #expect(try store.markViewed(matching: ListingQuery(), at: Self.start) == 2)
    #expect(try store.history(key("b"))?.viewedAt == Self.start.addingTimeInterval(1000))

    try store.setMark(.unhide, on: [key("b")], at: Self.start)
    #expect(Self.ids(try store.listings(ListingQuery())) == ["c", "b", "a"])
  }

  /// Both stores: a starred listing of an answer older than the retention keeps its sighting
  /// (now with the answer's time of its own), the unstarred one of the same answer goes.
  @Test(arguments: StoreKind.built)
  func pruneKeepsAStarredListingInAnOldAnswer(kind: StoreKind) throws {
    let store = try Self.browsable(kind)
    let (a, b) = (StoreSamples.listing("a"), StoreSamples.listing("b"))
    try store.record(
      SearchRecord(
        search: "bikes", now: Self.start, seen: [a, b], answered: ["https://feeds.example.org/f"],
        asked: ["https://feeds.example.org/f"], reached: true))
    try store.setMark(.star, on: [a.key], at: Self.start)
    let now = Self.start.addingTimeInterval(10 * 86_400)
    let counts = try store.prune(now: now, retention: 86_400)
    #expect(counts["sightings"] == 1 && counts["listings"] == 1, "\(counts)")
    let story = try #require(try store.history(a.key))
    #expect(story.searches.first?.lastSeen == Self.start)
    #expect(try store.history(b.key) == nil)
    #expect(try store.prune(now: now, retention: 86_400) == StoreCounts())
    try store.setMark(.unstar, on: [a.key], at: now)
    #expect(try store.prune(now: now, retention: 86_400)["sightings"] == 1)
    #expect(try store.history(a.key) == nil)
  }

  @Test func pruneKeepsAStarredListingsStoryAndNeverItsMarks() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let b = ListingKey(site: "feed", id: "b")
    try store.setMark(.star, on: [b], at: Self.start)
    try store.setMark(.note("kept"), on: [b], at: Self.start)
    let now = Self.start.addingTimeInterval(2 * 86_400)
    // Without the star (StoreAdminTests): 2 sightings and listing b go.
    let counts = try store.prune(now: now, retention: 1.5 * 86_400)
    #expect(counts["sightings"] == 1 && counts["listings"] == 0, "\(counts)")
    let story = try #require(try store.history(b))
    #expect(story.searches.map(\.search) == ["bikes"])
    #expect(story.marks?.note == "kept")
    #expect(try store.check().isEmpty)
    #expect(try store.prune(now: now, retention: 1.5 * 86_400) == StoreCounts())
    // Unstarred, its story goes at the next prune; the note stays.
    try store.setMark(.unstar, on: [b], at: now)
    let after = try store.prune(now: now, retention: 1.5 * 86_400)
    #expect(after["sightings"] == 1 && after["listings"] == 1, "\(after)")
    #expect(try store.marks(of: [b])[b]?.note == "kept")
  }

  @Test func exportCarriesMarksAndAnOlderExportWithoutThemStillImports() throws {
    let original = try StoreSamples.store()
    try StoreSamples.filled(original)
    let (a, b) = (ListingKey(site: "feed", id: "a"), ListingKey(site: "feed", id: "b"))
    try original.setMark(.star, on: [a], at: Self.start)
    try original.setMark(.hide, on: [b], at: Self.start.addingTimeInterval(60))
    try original.setMark(.note("line one\nline \"two\""), on: [a], at: Self.start)
    // The Atom feeds and the HTML page a run writes leave the hidden listing out.
    #expect(try original.recent(searches: ["bikes"], limit: 10).map(\.listing.id) == ["a"])
    let exported = try StoreSamples.lines(original)
    let markLines = exported.filter { $0.hasPrefix("{\"type\":\"mark\"") }
    #expect(
      markLines == [
        "{\"type\":\"mark\",\"id\":\"a\",\"note\":\"line one\\nline \\\"two\\\"\","
          + "\"notedAt\":\"2026-05-03T09:20:00Z\",\"site\":\"feed\","
          + "\"starredAt\":\"2026-05-03T09:20:00Z\"}",
        "{\"type\":\"mark\",\"hiddenAt\":\"2026-05-03T09:21:00Z\",\"id\":\"b\",\"site\":\"feed\"}",
      ])
    let copy = try StoreSamples.store()
    _ = try copy.importLines(StoreSamples.data(exported), file: "state.jsonl")
    #expect(try StoreSamples.lines(copy) == exported)
    #expect(try copy.marks(of: [a, b]) == original.marks(of: [a, b]))
    _ = try copy.importLines(StoreSamples.data(exported), file: "state.jsonl")
    #expect(try StoreSamples.lines(copy) == exported, "importing again changes nothing")

    // An export written before marks existed imports as it did.
    let older = try StoreSamples.store()
    let counts = try older.importLines(
      StoreSamples.data(exported.filter { !markLines.contains($0) }), file: "old.jsonl")
    #expect(counts["marks"] == 0 && counts["listings"] == 3)
    #expect(try older.marks(of: [a, b]).isEmpty)

    // Into a store with marks of its own: a mark stays from the earlier time, the later note
    // wins, and nothing is unmarked.
    let marked = try StoreSamples.store()
    try StoreSamples.filled(marked)
    try marked.setMark(.star, on: [a], at: Self.start.addingTimeInterval(-60))
    try marked.setMark(.note("newer"), on: [a], at: Self.start.addingTimeInterval(60))
    try marked.setMark(.star, on: [b], at: Self.start)
    _ = try marked.importLines(StoreSamples.data(exported), file: "state.jsonl")
    let merged = try marked.marks(of: [a, b])
    #expect(
      merged[a]
        == ListingMarks(
          starredAt: Self.start.addingTimeInterval(-60), note: "newer",
          notedAt: Self.start.addingTimeInterval(60)))
    #expect(
      merged[b]
        == ListingMarks(starredAt: Self.start, hiddenAt: Self.start.addingTimeInterval(60)))
  }
}
