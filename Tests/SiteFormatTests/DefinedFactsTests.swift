import ClarissaCore
import Foundation
import Testing

@testable import SiteFormat

/// Given a definition that reads every fact, when it reads an answer with good, bare and hostile
/// figures, then the listings hold what the figures mean: a bare area in the definition's
/// `floor_area_unit`, a named one in its own unit, a figure no home has left out.
@Suite struct DefinedFactsTests {
  static let definition = """
    format: 1
    id: boardfacts
    name: Board
    status: active
    summary: a board of flats
    language: de
    floor_area_unit: ft2
    requests:
      - url: "https://board.example/search"
        read:
          as: json
          items: '$.results[*]'
          fields:
            id: '@.id'
            url: '@.url'
            title: '@.title'
            rooms: {path: '@.rooms', optional: true}
            bedrooms: {path: '@.beds', optional: true}
            bathrooms: {path: '@.baths', optional: true}
            floor_area: {path: '@.size', optional: true}
            postcode: {path: '@.zip', optional: true}
            address: {path: '@.street', optional: true}
            facts:
              Etage: {path: '@.floor', optional: true}
              features: {path: '@.features[*]', filters: [{join: ', '}], optional: true}
    """

  static let answer = """
    {"results": [
      {"id": "1", "url": "/1", "title": "bare", "rooms": "2,5 Zi.", "beds": 2, "baths": 1.5,
       "size": 850, "zip": "10997", "street": "Wrangelstr. 5", "floor": 3,
       "features": ["lift", "balcony"]},
      {"id": "2", "url": "/2", "title": "named", "rooms": 3, "size": "1.200 m²"},
      {"id": "3", "url": "/2", "title": "text in the unit", "size": "850"},
      {"id": "4", "url": "/4", "title": "hostile", "rooms": "-2 Zi.", "beds": 1e300,
       "baths": "NaN", "size": "1e400 m²", "zip": "", "floor": "  "}
    ]}
    """

  static func listings() throws -> [Listing] {
    let (definition, diagnostics) = DefinitionReader.read(
      Array(definition.utf8), file: "boardfacts.yaml")
    let site = try #require(definition, "\(diagnostics.map(\.message))")
    #expect(site.floorAreaUnit == .squareFeet)
    let reader = PageReader(
      definition: site, spec: site.steps[0].read, pageURL: "https://board.example/search",
      now: Date())
    return try reader.read(Array(answer.utf8)).listings
  }

  @Test func everyFactIsRead() throws {
    let listings = try Self.listings()
    try #require(listings.count == 4)
    let bare = listings[0]
    #expect(bare.rooms == 2.5)
    #expect(bare.bedrooms == 2)
    #expect(bare.bathrooms == 1.5)
    #expect(bare.floorArea == 78.9676)
    #expect(bare.floorAreaUnit == .squareFeet)
    #expect(bare.postcode == "10997")
    #expect(bare.address == "Wrangelstr. 5")
    #expect(bare.facts == ["Etage": "3", "features": "lift, balcony"])
    #expect(listings[1].rooms == 3)
    #expect(listings[1].floorArea == 1200)
    #expect(listings[1].floorAreaUnit == .squareMetres)
    #expect(listings[2].floorArea == 78.9676)
    #expect(listings[2].floorAreaUnit == .squareFeet)
  }

  @Test func figuresNoHomeHasAreLeftOut() throws {
    let hostile = try Self.listings()[3]
    #expect(hostile.rooms == nil)
    #expect(hostile.bedrooms == nil)
    #expect(hostile.bathrooms == nil)
    #expect(hostile.floorArea == nil)
    #expect(hostile.floorAreaUnit == nil)
    #expect(hostile.postcode == nil)
    #expect(hostile.facts.isEmpty)
  }
}
