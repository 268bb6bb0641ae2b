import ClarissaCore
import FixtureSupport
import Foundation
import SiteFormat
import Sites
import Testing

/// Given each site's recorded answers, when they are read, then every fact the answers carry is
/// on the listings: the table in docs/adding-a-site.md ("What the shipped sites read"), kept as
/// the golden `Fixtures/sites/facts.md` and checked to stand in the doc as recorded.
@Suite struct SiteFactsTests {
  /// What each answer must give some listings (by `ListingFactCounts` name): what its real
  /// samples carry, as read by hand in them.
  static let carried: [String: [String]] = [
    // Land: its square feet are the lot's (no bedrooms), a fact rather than a floor area.
    "craigslist/littlerock-rea-sapi-1.json": ["coordinates", "facts.area"],
    "craigslist/sfbay-sss-sapi-1.json": ["coordinates"],
    "craigslist/newyork-apa-search-1.html": ["coordinates", "bedrooms", "bathrooms"],
    "craigslist/sfbay-apa-1.xml": ["bedrooms", "floor_area"],
    "craigslist/synthetic/sfbay-apa-result-rows.html": ["bedrooms", "floor_area"],
    "kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.html": ["rooms", "floor_area", "postcode"],
    "willhaben/willhaben-search-1.html": [
      "coordinates", "rooms", "floor_area", "postcode", "address", "facts.Etage",
    ],
    "flatfox/flatfox-listings-1.json": [
      "coordinates", "rooms", "floor_area", "postcode", "address", "facts.floor",
    ],
    "immoscout/immoscout-duesseldorf-list-1.json": [
      "coordinates", "rooms", "floor_area", "postcode", "address",
    ],
    "wg-gesucht/wg-gesucht-search-1.html": ["floor_area", "address", "facts.frei ab"],
    // The coordinates from the page's GeoJSON script, looked up by the card's id.
    "ohne-makler/ohneMakler.html": ["coordinates", "rooms", "floor_area", "postcode"],
    "einsa-immobilien/einsAImmobilien.html": ["rooms", "floor_area"],
    "neubaukompass/neubauKompass.html": ["rooms", "floor_area", "postcode", "facts.Bezugsfertig"],
  ]

  static var cases: [SiteCase] {
    SiteCase.everyCase.filter { $0.error == nil && ($0.count ?? 1) > 0 }
  }

  /// The facts of one answer's listings.
  static func counts(_ fixture: SiteCase) throws -> ListingFactCounts {
    let site = try #require(Registry.sites.site(fixture.site))
    return ListingFactCounts(try site.listings(from: fixture.response(of: site)).listings)
  }

  @Test func everyFactAnAnswerCarriesIsRead() throws {
    let byFile = Dictionary(
      Self.cases.map { ("\($0.site)/\($0.file)", $0) }, uniquingKeysWith: { first, _ in first })
    for (file, facts) in Self.carried {
      let fixture = try #require(byFile[file], "\(file) in a cases.json")
      let counts = try Self.counts(fixture)
      for fact in facts {
        let found = counts.counts.first { $0.name == fact }?.count ?? 0
        #expect(found > 0, "\(file): no listing has \(fact) (\(counts.found))")
      }
    }
  }

  /// The table of what each shipped site reads from its recorded answers.
  @Test func theTableOfFactsStandsInTheDoc() throws {
    var lines = [
      "| site | answer | listings | facts read (listings that have each) |",
      "|---|---|---|---|",
    ]
    for fixture in Self.cases {
      let counts = try Self.counts(fixture)
      let parameters = fixture.parameters.map { " " + $0.keys.sorted().joined(separator: ",") }
      lines.append(
        "| \(fixture.site) | `\(fixture.file)` (\(fixture.mode)\(parameters ?? "")) | "
          + "\(counts.total) | \(counts.found) |")
    }
    let table = lines.joined(separator: "\n") + "\n"
    try Fixtures.expectGolden(table, at: Fixtures.root.appendingPathComponent("sites/facts.md"))
    let doc = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("docs/adding-a-site.md"),
      encoding: .utf8)
    #expect(doc.contains(table), "docs/adding-a-site.md holds Fixtures/sites/facts.md as it is")
  }
}
