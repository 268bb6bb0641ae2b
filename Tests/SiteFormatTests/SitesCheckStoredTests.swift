import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat

/// Given a shipped definition and its recorded page, when `clarissa sites check` reads it, then
/// each field shows the value as stored beside the text it came from: '3,5' → 3.5, '73m²' →
/// 73 m², a relative URL → the absolute one, a range → both ends.
@Suite struct SitesCheckStoredTests {
  static func check(_ definition: String, _ sample: String, url: String) throws -> String {
    let file = Fixtures.root.appendingPathComponent("../\(definition)").standardized.path
    return DefinitionCheck.run(
      definitionAt: file, sample: try Fixtures.bytes(sample), mode: nil, url: url, now: Date()
    ).text
  }

  @Test func ohneMaklersValuesShowAsStored() throws {
    let text = try Self.check(
      "Sites/OhneMakler/ohne-makler.site.yaml", "ohne-makler/ohneMakler.html",
      url: "https://www.ohne-makler.net/immobilien/wohnung-kaufen/nordrhein-westfalen/dusseldorf/")
    #expect(text.contains("  rooms       '3,5'  → 3.5\n"), "\(text.prefix(1500))")
    #expect(text.contains("  floor_area  '73m²'  → 73 m²\n"))
    #expect(
      text.contains(
        "  url         '/immobilie/478614/'  → https://www.ohne-makler.net/immobilie/478614/\n"))
    // The same text stored as it is shows once.
    #expect(text.contains("  postcode    '40229'\n"))
  }

  @Test func neubaukompassRangesShowBothEnds() throws {
    let text = try Self.check(
      "Sites/Neubaukompass/neubaukompass.site.yaml", "neubaukompass/neubauKompass.html",
      url: "https://www.neubaukompass.de/neubau-immobilien/duesseldorf-region/eigentumswohnung/")
    #expect(text.contains("'505.900 - 999.900 €'  → 505900–999900 EUR\n"), "\(text.prefix(1500))")
    #expect(text.contains("'63,33 - 162,38 m²'  → 63.33–162.38 m²\n"))
    #expect(text.contains("'2 - 4'  → 2–4\n"))
  }
}
