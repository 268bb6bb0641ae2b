import ClarissaCore
import Feeds
import FixtureSupport
import Foundation
import ListingText
import Markup
import Testing

@testable import SiteFormat
@testable import Sites

/// Given every feed fixture, when its items become listings with their descriptions left as
/// HTML, then nothing was converted that the price did not need, and a resolved listing is the
/// listing of today's eager path, field for field (ids byte-identical, hashes included).
@Suite struct LazyDescriptionTests {
  /// Every feed document under `Fixtures/feed/` and `Fixtures/feeds/`.
  static let files: [String] = ["feed", "feeds"].flatMap { folder in
    let path = Fixtures.root.appendingPathComponent(folder).path
    let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    return
      names
      .filter {
        !$0.hasSuffix(".expected.json") && !$0.hasSuffix(".listings.json") && $0 != "README.md"
          && $0 != "cases.json"
      }
      .sorted().map { "\(folder)/\($0)" }
  }

  static func response(_ file: String) throws -> SourceResponse {
    let request = RequestSpec(url: "https://feeds.example/\(file)", mode: "feed", city: "city")
    return SourceResponse(request: request, body: try Fixtures.bytes(file))
  }

  /// The listings as `FeedListings` made them before descriptions were deferred: every item's
  /// text converted while parsing, the price read from the title, else that text.
  static func eagerListings(_ response: SourceResponse, site: String) throws -> [Listing] {
    let document = try FeedParser.parse(response.body, url: response.finalURL)
    return document.items.map { item in
      let price = FeedPrice.find(in: item.title, description: item.text)
      return Listing(
        id: item.id, site: site, url: item.link ?? response.finalURL, title: item.title,
        description: item.text, price: price?.amount,
        currency: price.flatMap { $0.currency ?? "USD" },
        posted: item.published ?? item.updated, area: response.request.city,
        imageURLs: item.enclosures.filter { $0.type?.hasPrefix("image") ?? true }.map(\.url),
        category: item.categories.first)
    }
  }

  @Test func everyFeedFixtureIsCovered() {
    #expect(Self.files.count >= 80)
    #expect(Self.files.contains("feed/reddit-hardwareswap-1.atom"))
    #expect(Self.files.contains("feeds/rss2-no-guid-no-link-hash.xml"))
  }

  @Test(arguments: files)
  func aResolvedListingIsTodaysListing(file: String) throws {
    let response = try Self.response(file)
    guard let eager = try? Self.eagerListings(response, site: "feed") else {
      #expect(throws: SiteError.self) { try FeedListings.document(response, source: file) }
      return
    }
    let document = try FeedListings.document(response, source: file)
    let lazy = FeedListings.listings(
      document, site: "feed", response: response, dollarCurrency: "USD")
    #expect(lazy.map(\.id) == eager.map(\.id), "ids byte-identical")
    #expect(lazy.map(\.price) == eager.map(\.price))
    #expect(ListingDescription.resolve(lazy) == eager)
    for listing in lazy where listing.isDescriptionPending {
      #expect(listing.description.isEmpty, "\(listing.id): nothing converted before resolve")
    }
  }

  @Test(arguments: files)
  func aDeferredParseConvertsNoDescription(file: String) throws {
    let bytes = try Fixtures.bytes(file)
    guard let eager = try? FeedParser.parse(bytes, url: "https://feeds.example/") else { return }
    let deferred = try FeedParser.parse(bytes, url: "https://feeds.example/", text: .deferred)
    #expect(deferred.items.map(\.id) == eager.items.map(\.id))
    for (lazy, item) in zip(deferred.items, eager.items) {
      #expect(lazy.html == item.html && lazy.title == item.title)
      let needsParser = item.html.map(HTMLText.needsParser) ?? false
      if needsParser && item.idSource != .hash {
        #expect(lazy.text.isEmpty, "\(item.id) was converted while parsing")
        #expect(ListingDescription.plainText(fromHTML: lazy.html ?? "") == item.text)
      } else {
        #expect(lazy.text == item.text, "\(item.id)")
      }
    }
  }

  /// The byte scan that spares a text the regular expression never loses a price: every title
  /// and description of the fixtures, and texts written to sit at its edges.
  @Test func theScanBeforeThePriceExpressionLosesNothing() throws {
    var texts = [
      "Bike US$1,250", "C$ 99.50", "€120", "120 EUR", "EURO 5", "XEUR 5", "£40", "¥12,000",
      "₹ 500", "450,- EUR", "no price 450", "$", "¢50", "©2024", "100 usd", "Sofa 1.200,50 €",
      "CHF 2'350.–", "NZ$ 450", "AU$ 9", "x CA$ 7", "USD\u{00A0}450", "١٢٣ $", "a US$\u{00A0}1",
      "𝟘 $5", "EUR 1 USD 2", "Preis: 99,- €", "XUSD 4", "USD4", "ＵＳＤ 5", "$\u{00A0}450", "EUR\n5",
      "£", "12 £",
    ]
    let craigslist = [
      "sfbay-apa-1.xml", "seattle-act-1.xml", "chicago-jjj-1.xml", "sfbay-ccc-1.xml",
    ]
    for file in Self.files + craigslist.map({ "craigslist/\($0)" }) {
      guard let document = try? FeedParser.parse(try Fixtures.bytes(file)) else { continue }
      texts += document.items.flatMap { [$0.title, $0.text] }
    }
    #expect(texts.count > 340)
    var found = 0
    for text in texts {
      let scanned = FeedPrice.first(in: text)
      let unscanned = FeedPrice.first(in: text, scanning: false)
      #expect(scanned?.amount == unscanned?.amount, "\(text)")
      #expect(scanned?.currency == unscanned?.currency, "\(text)")
      if unscanned != nil { found += 1 }
    }
    #expect(found >= 50, "the texts hold prices to find")
  }

  /// Craigslist's titles carry the price, so none of a legacy RSS page's descriptions that
  /// need the HTML parser (13 of 25; the rest hold no markup and cost a byte scan) is converted
  /// until asked. In a Reddit-shaped feed, an item whose title names a price stays pending; one
  /// whose title names none is converted for its price.
  @Test func descriptionsArePendingUntilResolved() throws {
    let site = CraigslistSite()
    let request = site.request(forSavedResponseIn: "rss", city: "sfbay")
    let body = try Fixtures.bytes("craigslist/sfbay-apa-1.xml")
    let listings = try site.listings(from: SourceResponse(request: request, body: body)).listings
    #expect(listings.count == 25)
    let pending = listings.filter(\.isDescriptionPending)
    #expect(pending.count == 13)
    #expect(pending.allSatisfy { $0.description.isEmpty })
    let resolved = ListingDescription.resolve(listings)
    #expect(resolved.allSatisfy { !$0.isDescriptionPending && !$0.description.isEmpty })
    let first = try #require(resolved.first)
    #expect(first.description.hasPrefix("Updated 3+ Bedroom, 2.5 Bath, Victorian home."))
    #expect(ListingDescription.resolve(first) == first, "resolving twice changes nothing")

    let reddit = try Self.response("feed/reddit-hardwareswap-1.atom")
    let items = FeedListings.listings(
      try FeedListings.document(reddit, source: "reddit"), site: "feed", response: reddit)
    #expect(items.map(\.isDescriptionPending) == [true, false])
    #expect(items.map { $0.price != nil } == [true, false])
    #expect(items.map(\.description) == ["", "Looking for a 5800X3D"])
  }

  /// A resolved listing encodes as before (no `descriptionHTML` key); a pending one keeps its
  /// HTML through JSON, so it can still be resolved after a round trip.
  @Test func codableKeepsResolvedJSONUnchanged() throws {
    let pending = Listing(
      id: "1", site: "feed", url: "https://e.x/1", title: "Desk",
      descriptionHTML: "<p>Oak &amp; steel</p>")
    let resolved = ListingDescription.resolve(pending)
    #expect(resolved.description == "Oak & steel" && resolved.descriptionHTML == nil)
    #expect(!ListingJSON.encode([resolved]).contains("descriptionHTML"))
    #expect(ListingJSON.encode([pending]).contains(#""descriptionHTML" : "<p>Oak &amp; steel"#))
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let decoded = try decoder.decode(
      [Listing].self, from: Data(ListingJSON.encode([pending]).utf8))
    #expect(decoded == [pending])
    #expect(pending != resolved, "a pending listing does not know its text yet")
  }
}
