import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
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

  /// The amount is the number beside the sign, not the first number of the title: a model
  /// number before a leading sign (`RTX 3080 $450`) is no price; `€` and codes price the number
  /// before them when one stands on each side, unless only the one after touches the sign.
  @Test(
    arguments: [
      ("[H] RTX 3080 $450", 450.0, nil), ("[H] RTX 3080 [W] $450", 450, nil),
      ("iPhone 6 $200", 200, nil), ("iPhone 6 $ 200", 200, nil), ("Pixel 7 £300", 300, "GBP"),
      ("450 €", 450, "EUR"), ("€450", 450, "EUR"), ("EUR 450", 450, "EUR"),
      ("1.200 €", 1200, "EUR"), ("$1,200", 1200, nil), ("1.200 € 3 Zimmer", 1200, "EUR"),
      ("3 Zimmer, 890 € warm", 890, "EUR"), ("Galaxy S21 €350", 350, "EUR"),
      ("2 Stühle EUR 40", 40, "EUR"), ("Lot of 3 for US$ 25", 25, "USD"),
      ("3 Zi. 1.250 € VB", 1250, "EUR"), ("Bike 29er CHF 900", 900, "CHF"),
      ("$450 or best offer, 2 left", 450, nil),
    ] as [(String, Double, String?)])
  func theAmountIsTheNumberBesideTheSign(title: String, amount: Double, currency: String?)
    throws
  {
    let price = try #require(FeedPrice.find(in: title))
    #expect(price.amount == amount)
    #expect(price.currency == currency)
    let unscanned = try #require(FeedPrice.first(in: title, scanning: false))
    #expect(unscanned.amount == amount, "the scan's shortcut changes nothing")
  }

  /// Every price example the docs give reads as they say (Sites/Feed/README.md's list, the
  /// `price` filter's examples in docs/adding-a-site.md, the shipped sites' READMEs); an
  /// example added to the feed README without a line here fails.
  @Test func theDocsExamplesReadAsTheDocsSay() throws {
    let examples: [String: (Double, String?)] = [
      "€120": (120, "EUR"), "120 EUR": (120, "EUR"), "CHF 2'350.–": (2350, "CHF"),
      "£40": (40, "GBP"), "US$1,250": (1250, "USD"), "1.200,50 €": (1200.5, "EUR"),
      "[H] RTX 3080 [W] $450": (450, nil), "iPhone 6 $200": (200, nil),
      "1.250 € VB": (1250, "EUR"), "1.600 €": (1600, "EUR"), "397.000 € VB": (397000, "EUR"),
      "590 €": (590, "EUR"), "2.300 €": (2300, "EUR"), "1.200 € 3 Zimmer": (1200, "EUR"),
    ]
    for (text, (amount, currency)) in examples {
      let price = try #require(FeedPrice.find(in: text), "\(text)")
      #expect(price.amount == amount && price.currency == currency, "\(text)")
    }
    let readme = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("Sites/Feed/README.md"),
      encoding: .utf8)
    let bullet = try #require(
      readme.components(separatedBy: "  - price:").dropFirst().first?
        .components(separatedBy: "\n  - ").first)
    let written = bullet.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }
      .map(\.element).filter { $0.contains(where: \.isNumber) }
    #expect(written.count >= 8, "\(written)")
    for text in written {
      #expect(examples[text] != nil, "Sites/Feed/README.md gives '\(text)': add it here")
    }
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
