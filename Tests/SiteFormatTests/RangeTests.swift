import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// Given figures a page writes as ranges (neubaukompass.de's new-build projects: "505.900 -
/// 999.900 €", "63,33 - 162,38 m²", "2 - 4"), when they are read, then the listing keeps the
/// bottom and the top, a search's bounds pass a range that meets them, and reports show both.
@Suite struct RangeTests {
  static func neubaukompass() throws -> [Listing] {
    let site = try #require(Registry.sites.site("neubaukompass"))
    let body = try Fixtures.bytes("neubaukompass/neubauKompass.html")
    let url = "https://www.neubaukompass.de/neubau-immobilien/duesseldorf-region/eigentumswohnung/"
    let request = site.request(
      forSavedResponseIn: "page", city: "duesseldorf", parameters: [:], url: url)
    return try site.listings(
      from: SourceResponse(request: request, body: body, finalURL: url, receivedAt: nil)
    ).listings
  }

  @Test func neubaukompassProjectsKeepBottomAndTop() throws {
    let listings = try Self.neubaukompass()
    let first = try #require(listings.first { $0.id == "102425" })
    #expect(first.price == 505_900 && first.priceHigh == 999_900 && first.currency == "EUR")
    #expect(first.floorArea == 55 && first.floorAreaHigh == 117)
    #expect(first.rooms == 2 && first.roomsHigh == 4)
    let decimals = try #require(listings.first { $0.id == "137111" })
    #expect(decimals.floorArea == 63.33 && decimals.floorAreaHigh == 162.38)
    #expect(decimals.price == 307_150 && decimals.priceHigh == 795_662)
    let half = try #require(listings.first { $0.id == "138754" })  // "3 - 3,50"
    #expect(half.rooms == 3 && half.roomsHigh == 3.5)
    #expect(Money.format(first) == "€505,900–999,900")
    #expect(ListingFacts.summary(first) == "2–4 rooms · 55–117 m²")
  }

  @Test(arguments: [
    ("1.250 € - 1.500 €", "1.250 €", "1.500 €"),
    ("63,33 - 162,38 m²", "63,33 m²", "162,38 m²"),
    ("2 - 4", "2", "4"),
    ("50 bis 80 m²", "50 m²", "80 m²"),
    ("€ 900–1.100", "€ 900", "1.100"),
  ])
  func aRangeIsSplitWithItsUnitOnBothSides(text: String, low: String, high: String) {
    let sides = RangeText.sides(text)
    #expect(sides?.low == low && sides?.high == high, "\(String(describing: sides))")
  }

  @Test(arguments: ["1.250,- €", "2.350,–", "3-Zimmer-Wohnung", "79 m²", "Auf Anfrage", ""])
  func aFigureThatIsNoRangeIsNotSplit(text: String) {
    #expect(RangeText.sides(text) == nil)
  }

  /// A range whose top is not above its bottom is no range: its first figure, as before.
  @Test func aReversedRangeKeepsItsFirstFigure() throws {
    let yaml = """
      format: 1
      id: ranges
      name: Ranges
      status: active
      summary: figures as ranges
      language: de
      requests:
        - url: "https://ranges.example/search"
          read:
            as: json
            items: '$[*]'
            fields: {id: '@.id', url: '@.url', title: '@.id', rooms: '@.rooms', price: '@.price'}
      """
    let (definition, diagnostics) = DefinitionReader.read(Array(yaml.utf8), file: "r.yaml")
    let site = try #require(definition, "\(diagnostics.map(\.message))")
    let reader = PageReader(
      definition: site, spec: site.steps[0].read, pageURL: "https://ranges.example/", now: Date())
    let answer = #"[{"id": "1", "url": "/1", "rooms": "5 - 3", "price": "900 - 700 €"}]"#
    let listing = try #require(try reader.read(Array(answer.utf8)).listings.first)
    #expect(listing.rooms == 5 && listing.roomsHigh == nil)
    #expect(listing.price != nil && listing.priceHigh == nil)
  }

  /// A range meets a search's bounds when some of it is within them.
  @Test func aRangePassesBoundsItOverlaps() {
    let bounds = PriceRange(min: 3, max: 4)
    #expect(bounds.overlaps(2, 4))
    #expect(bounds.overlaps(4, 6))
    #expect(!bounds.overlaps(1, 2.5))
    #expect(!bounds.overlaps(4.5, 6))
    #expect(!bounds.overlaps(2, nil))
    var filters = FactFilters()
    filters.rooms = FactRange(min: 3)
    filters.floorArea = FactRange(max: 60)
    var listing = Listing(id: "1", site: "s", url: "https://s.example/1", title: "t")
    listing.rooms = 2
    listing.roomsHigh = 4
    listing.floorArea = 55
    listing.floorAreaHigh = 117
    #expect(filters.accepts(listing))
    listing.roomsHigh = nil
    #expect(!filters.accepts(listing))
    #expect(filters.decisions(listing).decisions.first?.words == "rooms 2 < min 3")
    listing.roomsHigh = 4
    #expect(filters.decisions(listing).decisions.first?.words == "rooms 2–4 meets min 3")
  }
}
