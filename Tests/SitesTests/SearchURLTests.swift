import ClarissaCore
import Testing

@testable import SiteFormat
@testable import Sites

/// A pasted URL's parts, and how its query is merged with a site's own pairs.
@Suite struct SearchURLTests {
  @Test func thePartsAreKeptAsWritten() throws {
    let url = try #require(
      SearchURL("HTTPS://SFBay.Craigslist.org/search/bia?query=a%20b&min+price=1&&%71=x#search=1~g")
    )
    #expect(url.host == "sfbay.craigslist.org")
    #expect(url.path == "/search/bia")
    #expect(url.query.map(\.written) == ["query=a%20b", "min+price=1", "%71=x"])
    #expect(url.query.map(\.name) == ["query", "min price", "q"])
    #expect(url.values("query") == ["a b"])
    #expect(url.values("q") == ["x"])
  }

  /// As a browser's address bar shows it: raw brackets and quotes beside what the page
  /// encoded itself (Engel & Völkers' `placeName=Berlin%2C%20Deutschland`); nothing is
  /// encoded twice.
  @Test func rawBracketsBesideEncodedTextAreEncodedOnce() throws {
    let url = try #require(
      SearchURL(
        "https://www.engelvoelkers.com/de/de/propertysearch?businessArea[]=residential"
          + "&placeName=Berlin%2C%20Deutschland&q=\"Zürich\""))
    #expect(
      url.query.map(\.written) == [
        "businessArea%5B%5D=residential", "placeName=Berlin%2C%20Deutschland",
        "q=%22Z%C3%BCrich%22",
      ])
    #expect(url.values("placeName") == ["Berlin, Deutschland"])
    #expect(url.values("businessArea[]") == ["residential"])
    #expect(url.values("q") == ["\"Zürich\""])
  }

  @Test(arguments: ["sfbay.craigslist.org/search/bia", "ftp://example.org/x", "https:///x", ""])
  func onlyAbsoluteWebAddressesAreURLs(_ text: String) {
    #expect(SearchURL(text) == nil)
  }

  @Test(arguments: [
    ("https://example.org/feed.xml", true), ("https://example.org/blog/feed/", true),
    ("https://sfbay.craigslist.org/search/bia?format=rss", true),
    ("https://example.org/atom", true), ("https://example.org/search?q=feed", false),
    ("https://www.kleinanzeigen.de/s-fahrrad/k0", false),
  ])
  func feedsAreToldApart(_ text: String, _ isFeed: Bool) throws {
    #expect(try #require(SearchURL(text)).looksLikeFeed == isFeed)
  }

  @Test func aLaterNameReplacesEveryEarlierPairOfItInThePlaceOfTheFirst() throws {
    var query = QueryPairs(encoded: "a=1&sort=rel&b=2&sort=x")
    let pasted = try #require(SearchURL("https://h/?c=3&b=4&b=5&d=6"))
    query.overlay(pasted.query)
    #expect(query.encoded == "a=1&sort=rel&b=4&b=5&sort=x&c=3&d=6")
    query.set("sort", "date")
    #expect(query.encoded == "a=1&sort=date&b=4&b=5&c=3&d=6")
    #expect(query.appended(to: "https://h/p") == "https://h/p?a=1&sort=date&b=4&b=5&c=3&d=6")
    #expect(QueryPairs().appended(to: "https://h/p") == "https://h/p")
  }
}
