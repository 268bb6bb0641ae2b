import ClarissaCore
import Foundation
import ListingStore
import Testing

/// The same flat on two sites: each listing's page names the other ("also on"), with a link to
/// its page here and, when it is a web address, to its site.
@Suite struct ServeAlsoOnTests {
  @Test func eachListingsPageNamesTheOtherBothWays() throws {
    var mine = ServeFixture.listing("1001", title: "2,5 Zimmer Altbau")
    mine.coordinates = Coordinates(latitude: 52.501, longitude: 13.418)
    var other = mine
    other.site = "immoscout<b>"
    other.id = "i-9"
    other.url = "https://www.immobilienscout24.example/expose/9"
    var hostile = mine
    hostile.site = "wg"
    hostile.id = "w-1"
    hostile.url = "javascript:alert(1)"
    let fixture = try ServeFixture(listings: ["flats-cl": [mine], "flats-is": [other, hostile]])
    var record = SearchRecord(
      search: "flats-is", now: fixture.now.addingTimeInterval(60), seen: [other, hostile],
      reached: true)
    record.crossPosts = [other.key: mine.key, hostile.key: mine.key]
    try fixture.store.record(record)

    let page = fixture.text(fixture.get("/listing/craigslist/1001"))
    #expect(page.contains("<dt>also on</dt>"), "\(page)")
    #expect(
      page.contains(
        "<a class=\"also-on\" href=\"/listing/immoscout%3Cb%3E/i-9\">immoscout&lt;b&gt; i-9</a> "
          + "(<a href=\"https://www.immobilienscout24.example/expose/9\" rel=\"noopener noreferrer\">"
          + "on immoscout&lt;b&gt;</a>)"), "\(page)")
    // A link that is not a web address is not made one.
    #expect(page.contains("<a class=\"also-on\" href=\"/listing/wg/w-1\">wg w-1</a>"))
    #expect(!page.contains("javascript:"))
    let back = fixture.text(fixture.get("/listing/wg/w-1"))
    #expect(
      back.contains("<a class=\"also-on\" href=\"/listing/craigslist/1001\">craigslist 1001</a>"),
      "\(back)")
  }
}
