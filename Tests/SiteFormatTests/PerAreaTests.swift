import ClarissaCore
import Foundation
import Testing

@testable import SiteFormat

/// Given prices per floor area, as a `price_per_area` field or as a `price` whose text says
/// "/m²", when the listing is built, then the price per area is kept as a fact, a price is
/// reckoned from it and the floor area only when the site gives none (and says so), and a cheap
/// room's plain price is never taken for one.
@Suite struct PerAreaTests {
  static let definition = """
    format: 1
    id: rentboard
    name: Rentboard
    status: active
    summary: rents, some per m²
    language: de
    currency: EUR
    requests:
      - url: "https://rentboard.example/search"
        read:
          as: json
          items: '$[*]'
          fields:
            id: '@.id'
            url: '@.url'
            title: '@.id'
            price: {path: '@.price', optional: true}
            price_per_area: {path: '@.per', optional: true}
            floor_area: {path: '@.size', optional: true}
    """

  static let answer = """
    [{"id": "per-m2", "url": "/1", "price": "12,50 €/m²", "size": "60 m²"},
     {"id": "room", "url": "/2", "price": "250 €", "size": "12 m²"},
     {"id": "both", "url": "/3", "price": "900 €", "per": "14,20", "size": "63 m²"},
     {"id": "no-area", "url": "/4", "price": "11 € pro qm"},
     {"id": "feet", "url": "/5", "price": "2 $/sq ft", "size": "500 sq ft"}]
    """

  static func listings() throws -> [String: Listing] {
    let (definition, diagnostics) = DefinitionReader.read(
      Array(definition.utf8), file: "rentboard.yaml")
    let site = try #require(definition, "\(diagnostics.map(\.message))")
    let reader = PageReader(
      definition: site, spec: site.steps[0].read, pageURL: "https://rentboard.example/",
      now: Date())
    let listings = try reader.read(Array(answer.utf8)).listings
    return Dictionary(uniqueKeysWithValues: listings.map { ($0.id, $0) })
  }

  @Test func aPricePerAreaIsKeptAndAPriceReckonedOnlyWhenNoneIsGiven() throws {
    let listings = try Self.listings()
    let perM2 = try #require(listings["per-m2"])
    #expect(perM2.price == 750 && perM2.currency == "EUR")
    #expect(perM2.facts["price per m²"] == "€12.50 per m²")
    #expect(perM2.facts["price"] == "€12.50 per m² × 60 m² (reckoned)")
    let room = try #require(listings["room"])
    #expect(room.price == 250 && room.facts.isEmpty, "a cheap room's rent is its rent")
    let both = try #require(listings["both"])
    #expect(both.price == 900 && both.facts["price per m²"] == "€14.20 per m²")
    #expect(both.facts["price"] == nil)
    let noArea = try #require(listings["no-area"])
    #expect(noArea.price == nil && noArea.facts["price per m²"] == "€11 per m²")
    let feet = try #require(listings["feet"])
    #expect(feet.price == 1000 && feet.facts["price per ft²"] != nil, "\(feet.facts)")
  }
}
