import ClarissaCore
import Foundation
import ListingStore
import Testing

@testable import Serve

/// Given a listing with travel times (filled in here, as the store's lookup of the kept
/// answers does), when its page's facts are made, then a `travel time` row follows the
/// distance, escaped as any text is; a listing without times has no such row.
@Suite struct ServeListingCommuteTests {
  @Test func theListingPageHasATravelTimeRow() throws {
    var flat = ServeMapTests.located("1", title: "Flat")
    let fixture = try ServeFixture(listings: ["flats": [flat]])
    let key = ListingKey(site: "craigslist", id: "1")
    var history = try #require(try fixture.store.history(key))
    #expect(!Self.rows(fixture, history, key).contains("travel time"), "no times, no row")
    flat.commute = [
      CommuteTime(place: "work", by: .transit, minutes: 23.6),
      CommuteTime(place: "<b>gym</b>", by: .foot, minutes: nil, note: "not asked yet"),
    ]
    history.listing = flat
    let rows = Self.rows(fixture, history, key)
    #expect(
      rows.contains(
        "<dt>travel time</dt><dd>24 min by transit to work · travel time to &lt;b&gt;gym&lt;/b&gt;"
          + " by foot unknown (not asked yet)</dd>"), "\(rows)")
  }

  /// The facts as the page writes them.
  static func rows(_ fixture: ServeFixture, _ history: ListingHistory, _ key: ListingKey)
    -> String
  {
    fixture.app.listingFacts(history, key: key, now: fixture.now).map { name, value in
      "<dt>\(name)</dt><dd>\(value)</dd>"
    }.joined()
  }
}
