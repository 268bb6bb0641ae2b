import ClarissaCore
import Foundation
import ListingStore
import Testing

/// Deal context on the cards and the listing page, and the scheduled digests waiting on the main
/// page.
@Suite struct ServeContextTests {
  static func desks() -> [Listing] {
    (0..<6).map {
      ServeFixture.listing("d\($0)", title: "Desk \($0)", price: Double(100 + 10 * $0))
    }
  }

  @Test func cardsAndTheListingPageSayTheContext() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.desks()])
    // d0 at $100 against the other five ($110 ... $150: the median $130).
    let said = "<ul class=\"context\"><li>23% below the median of 5 ($130)</li></ul>"
    let page = fixture.text(fixture.get("/listing/craigslist/d0"))
    #expect(page.contains(said), "\(page)")
    let cards = fixture.text(fixture.get("/listings?search=desks"))
    #expect(cards.contains(said), "\(cards)")
    #expect(cards.contains("<li>25% above the median of 5 ($120)</li>"))
  }

  @Test func theMainPageNamesTheDigestsWaiting() throws {
    let fixture = try ServeFixture(listings: [:])
    #expect(!fixture.text(fixture.get("/")).contains("class=\"digests\""))
    try fixture.store.record(
      SearchRecord(
        search: "desks", now: fixture.now, seen: Self.desks(), owed: Self.desks(),
        channels: ["morning"], reached: true))
    let next = fixture.now.addingTimeInterval(3 * 3600)
    var config = fixture.app.config
    config.digests = ["morning": { _ in next }]
    fixture.app.config = config
    let page = fixture.text(fixture.get("/"))
    #expect(
      page.contains(
        "<span class=\"digest\" data-channel=\"morning\">digest morning: 6 listings pending, next "),
      "\(page)")
  }
}
