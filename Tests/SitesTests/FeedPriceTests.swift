import ClarissaCore
import Foundation
import Testing

@testable import Sites

/// Given feed items that write a price with a currency, when they are read, then the listing's
/// price carries that currency; a lone `$` names none, and a bare number is not a price.
@Suite struct FeedPriceTests {
  @Test(arguments: [
    ("Herman Miller chair €120", 120.0, "EUR"),
    ("Desk, 120 EUR, pickup only", 120, "EUR"),
    ("Velo CHF 2'350.– (Zürich)", 2350, "CHF"),
    ("Lamp £40", 40, "GBP"),
    ("Sofa 1.200,50 €", 1200.5, "EUR"),
    ("Bike US$1,250", 1250, "USD"),
    ("Monitor C$ 99.50", 99.5, "CAD"),
    ("Kamera 450,- EUR", 450, "EUR"),
    ("Table ¥12,000", 12000, "JPY"),
  ])
  func theWrittenCurrencyIsKept(title: String, amount: Double, currency: String) throws {
    let price = try #require(FeedPrice.find(in: title))
    #expect(price.amount == amount)
    #expect(price.currency == currency)
  }

  @Test func aLoneDollarNamesNoCurrencyAndABareNumberIsNoPrice() throws {
    let dollar = try #require(FeedPrice.find(in: "[H] RTX 3080 [W] $450"))
    #expect(dollar.amount == 450 && dollar.currency == nil)
    #expect(FeedPrice.find(in: "iPhone 12 with 128 GB") == nil)
    #expect(FeedPrice.find(in: "3 chairs") == nil)
  }

  @Test func theDescriptionIsReadWhenTheTitleHasNoPrice() throws {
    let price = try #require(FeedPrice.find(in: "Eames chair", description: "Asking 850 CHF."))
    #expect(price.amount == 850 && price.currency == "CHF")
    let title = try #require(FeedPrice.find(in: "Chair €90", description: "shipping 5 EUR"))
    #expect(title.amount == 90, "the title wins")
  }

  /// Through the generic feed adapter: an RSS item and a JSON Feed item.
  @Test func theGenericFeedGivesListingsTheirCurrency() throws {
    let rss = """
      <?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://e.x/</link>
      <item><title>Velo CHF 2'350.–</title><link>https://e.x/1</link><guid>1</guid></item>
      <item><title>Desk</title><link>https://e.x/2</link><guid>2</guid>
      <description>Price: 120 EUR</description></item>
      <item><title>Lamp $40</title><link>https://e.x/3</link><guid>3</guid></item>
      </channel></rss>
      """
    let json = """
      {"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [
        {"id": "j1", "url": "https://e.x/j1", "title": "Chair £40", "content_text": "ok"}]}
      """
    let site = GenericFeedSite()
    var listings: [Listing] = []
    for body in [rss, json] {
      let request = RequestSpec(url: "https://e.x/feed", mode: "feed")
      let response = SourceResponse(request: request, body: Array(body.utf8))
      listings += try site.listings(from: response).listings
    }
    #expect(listings.map(\.price) == [2350, 120, 40, 40])
    #expect(listings.map(\.currency) == ["CHF", "EUR", nil, "GBP"])
  }
}
