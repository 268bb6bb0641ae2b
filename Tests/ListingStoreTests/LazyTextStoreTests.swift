import ClarissaCore
import Foundation
import Testing

@testable import ListingStore

/// A listing seen again arrives with its description pending: the store keeps the text.
@Suite struct LazyTextStoreTests {
  @Test func aSeenPendingListingKeepsItsStoredText() throws {
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    let resolved = Listing(
      id: "1", site: "feed", url: "https://e.x/1", title: "Desk", description: "Oak & steel")
    var pending = resolved
    pending.description = ""
    pending.descriptionHTML = "<p>Oak &amp; steel</p>"
    try store.record(SearchRecord(search: "s", now: Date(), seen: [resolved], reached: true))
    try store.record(
      SearchRecord(search: "s", now: Date().addingTimeInterval(60), seen: [pending], reached: true))
    let text = try store.locked { database in
      try database.rows("SELECT description FROM listings WHERE id = '1'") { $0.text(0) }.first
    }
    #expect(text == "Oak & steel", "a pending sighting keeps the text stored at the first")
  }
}
