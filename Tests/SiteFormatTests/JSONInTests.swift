import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// Given a page with one JSON document per listing (1a-immobilienmarkt.de: ten JSON-LD scripts),
/// when `json_in` finds every one, then each is read (ten listings, not the first script's), and
/// an `items` path that takes an object's members is noted at its line.
@Suite struct JSONInTests {
  @Test func everyJSONLDScriptOfEinsAImmobilienIsAListing() throws {
    let shipped = try #require(Registry.declared.first { $0.id == "einsa-immobilien" })
    let site = try shipped.site.get()
    let reader = PageReader(
      definition: site.definition, spec: site.definition.steps[0].read,
      pageURL: "https://www.1a-immobilienmarkt.de/suchen/duesseldorf/wohnung-kaufen.html",
      now: Date())
    let result = try reader.read(Fixtures.bytes("einsa-immobilien/einsAImmobilien.html"))
    #expect(result.listings.count == 10)
    #expect(result.listings.first?.id == "27024863")
    #expect(result.listings.last?.id == "27034148")
    #expect(result.notes.isEmpty, "\(result.notes)")
  }

  /// `$[*]` on the page: before, the first script's ten members read as "10 items" silently.
  @Test func itemsThatTakeAnObjectsMembersAreNoted() throws {
    let yaml = """
      format: 1
      id: ldboard
      name: LD board
      status: active
      summary: one JSON-LD script per listing
      requests:
        - url: "https://ldboard.example/search"
          read:
            as: html
            json_in: '//script[@type="application/ld+json"]'
            items: '$[*]'
            fields:
              id: {path: '@.sku', optional: true}
              url: {path: '@.url', optional: true}
              title: {path: '@.name', optional: true}
      """
    let (definition, diagnostics) = DefinitionReader.read(Array(yaml.utf8), file: "ld.yaml")
    let site = try #require(definition, "\(diagnostics.map(\.message))")
    let reader = PageReader(
      definition: site, spec: site.steps[0].read, pageURL: "https://ldboard.example/search",
      now: Date())
    let result = try reader.read(Fixtures.bytes("einsa-immobilien/einsAImmobilien.html"))
    #expect(result.listings.isEmpty)
    #expect(
      result.notes.contains { $0.contains("ld.yaml:11:") && $0.contains("members of an object") },
      "\(result.notes)")
  }
}
