import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// A listing seen again unchanged costs a lookup (its content hash compared) and the time it
/// was seen; a changed one, or one whose hash the store does not have, is written whole. On
/// both stores.
@Suite(.serialized) struct StoreContentHashTests {
  static let start = StoreSamples.start

  static func seen(_ listing: Listing, after minutes: Double) -> SearchRecord {
    SearchRecord(
      search: "bikes", now: start.addingTimeInterval(minutes * 60), seen: [listing],
      reached: true)
  }

  /// Runs `sql` on the store's own connection (to change a row behind the run's back).
  static func run(_ store: some ConnectedStore, _ sql: String, _ values: [StoreValue]) throws {
    try store.locked { try $0.run(sql, values) }
  }

  static func change(_ memory: any ListingMemory, title: String, hash: String? = nil) throws {
    let store = try #require(memory as? any ConnectedStore)
    try run(store, "UPDATE listings SET title = ? WHERE id = ?", [.text(title), .text("b1")])
    if let hash {
      try run(
        store, "UPDATE listings SET content_hash = ? WHERE id = ?", [.text(hash), .text("b1")])
    }
  }

  @Test(arguments: StoreKind.built)
  func anUnchangedListingIsNotRewrittenAndAChangedOneIs(kind: StoreKind) throws {
    let store = try #require(try kind.open() as? any BrowsableStore)
    let bike = StoreSamples.listing("b1")
    try store.record(Self.seen(bike, after: 0))
    // The stored title changed behind the run's back: seen again unchanged, it is not rewritten,
    // only when it was seen moves.
    try Self.change(store, title: "kept")
    try store.record(Self.seen(bike, after: 15))
    var history = try #require(try store.history(bike.key))
    #expect(history.listing.title == "kept")
    #expect(history.lastSeen == Self.start.addingTimeInterval(15 * 60))
    #expect(history.searches.map { $0.lastSeen } == [Self.start.addingTimeInterval(15 * 60)])
    #expect(history.prices.count == 1)
    // Its price changed: written whole, with a price row.
    var cheaper = bike
    cheaper.price = 80
    try store.record(Self.seen(cheaper, after: 30))
    history = try #require(try store.history(bike.key))
    #expect(history.listing == cheaper)
    #expect(history.prices.map { $0.price } == [100, 80])
    // A hash the store does not know (an import, an older store): written whole.
    try Self.change(store, title: "stale", hash: "unknown")
    try store.record(Self.seen(cheaper, after: 45))
    history = try #require(try store.history(bike.key))
    #expect(history.listing == cheaper)
    #expect(history.prices.map { $0.price } == [100, 80])
  }

  @Test func theHashCoversEveryStoredFieldAndTellsHTMLFromText() {
    let bike = StoreSamples.listing("b1")
    let same = ListingField.contentHash(bike)
    #expect(ListingField.contentHash(StoreSamples.listing("b1")) == same)
    var changes: [Listing] = []
    for change: (inout Listing) -> Void in [
      { $0.url += "?" }, { $0.title += "!" }, { $0.description += "." }, { $0.price = nil },
      { $0.price = 100.5 }, { $0.currency = "EUR" }, { $0.posted = nil }, { $0.location = nil },
      { $0.area = "" }, { $0.coordinates = nil }, { $0.imageURLs = [] }, { $0.category = nil },
      { $0.descriptionHTML = $0.description },
    ] {
      var changed = bike
      change(&changed)
      changes.append(changed)
    }
    let hashes = changes.map(ListingField.contentHash)
    #expect(!hashes.contains(same))
    #expect(Set(hashes).count == hashes.count)
  }
}
