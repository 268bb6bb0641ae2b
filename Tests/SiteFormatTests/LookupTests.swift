import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// Given a page whose cards and coordinates stand apart (ohne-makler.net: the cards in HTML, the
/// points in one GeoJSON script keyed by listing id), when a definition looks the coordinates up
/// by the item's id, then each listing has its own point, and a key the table lacks gives none.
@Suite struct LookupTests {
  static func reader(_ yaml: String, url: String) throws -> PageReader {
    let (definition, diagnostics) = DefinitionReader.read(Array(yaml.utf8), file: "test.yaml")
    let site = try #require(definition, "\(diagnostics.map(\.message))")
    return PageReader(definition: site, spec: site.steps[0].read, pageURL: url, now: Date())
  }

  @Test func ohneMaklersCardsTakeTheirPointsFromTheGeoJSONScript() throws {
    let shipped = try #require(Registry.declared.first { $0.id == "ohne-makler" })
    let site = try shipped.site.get()
    let reader = PageReader(
      definition: site.definition, spec: site.definition.steps[0].read,
      pageURL:
        "https://www.ohne-makler.net/immobilien/wohnung-kaufen/nordrhein-westfalen/dusseldorf/",
      now: Date())
    let result = try reader.read(Fixtures.bytes("ohne-makler/ohneMakler.html"))
    #expect(result.listings.count == 24)
    #expect(result.listings.allSatisfy { $0.coordinates != nil })
    // The GeoJSON's first feature: {"id": 446023, ... "coordinates": [6.77012, 51.19886]}.
    let first = try #require(result.listings.first { $0.id == "446023" })
    #expect(first.coordinates == Coordinates(latitude: 51.19886, longitude: 6.77012))
    #expect(result.notes.isEmpty, "\(result.notes)")
  }

  static let board = """
    format: 1
    id: pinboard
    name: Pinboard
    status: active
    summary: cards and their points apart
    requests:
      - url: "https://pinboard.example/search"
        read:
          as: html
          items: '//a[@data-id]'
          lookups:
            map:
              json_in: '//script[@id="points"]'
              entries: '$.features[*]'
              key: '@.id'
          fields:
            id: '@data-id'
            url: '@href'
            title: '.'
            latitude: {lookup: map, path: '@.geometry.coordinates[1]', optional: true}
            longitude: {lookup: map, path: '@.geometry.coordinates[0]', optional: true}
    """

  @Test func aKeyTheTableLacksGivesNothingAndARepeatedKeyIsNoted() throws {
    let page = """
      <html><body><a data-id="1" href="/1">one</a><a data-id="2" href="/2">two</a>
      <script id="points" type="application/json">{"features": [
        {"id": 1, "geometry": {"coordinates": [6.5, 51.5]}},
        {"id": 1, "geometry": {"coordinates": [0, 0]}}]}</script></body></html>
      """
    let result = try Self.reader(Self.board, url: "https://pinboard.example/search")
      .read(Array(page.utf8))
    #expect(result.listings.map(\.id) == ["1", "2"])
    #expect(result.listings[0].coordinates == Coordinates(latitude: 51.5, longitude: 6.5))
    #expect(result.listings[1].coordinates == nil)
    #expect(result.notes.contains { $0.contains("lookup 'map'") && $0.contains("1 entries") })
  }
}
