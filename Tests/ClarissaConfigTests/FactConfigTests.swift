import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Given a config with fact and place filters, when it is read, then each search carries its
/// bounds in square metres, its places and areas, and Craigslist is asked for what it can
/// narrow itself.
@Suite struct FactConfigTests {
  static func search(_ name: String) throws -> Search {
    let config = try #require(ValidConfigTests.load("fact-filters.yaml").config)
    return try #require(config.searches.first { $0.name == name })
  }

  @Test func boundsAreReadInSquareMetresWithTheirUnits() throws {
    let flats = try Self.search("flats").facts
    #expect(flats.rooms == FactRange(min: 2, max: 3.5))
    #expect(flats.bedrooms == FactRange(min: 1.5))
    #expect(flats.floorArea?.min == 50)
    #expect(abs((flats.floorArea?.max ?? 0) - 1300 * 0.09290304) < 1e-9)
    #expect(flats.floorAreaUnit == .squareMetres)
    #expect(flats.pricePerArea == FactRange(max: 60) && flats.pricePerAreaUnit == .squareMetres)
    #expect(flats.missing == .keep)
    let strict = try Self.search("flats-strict").facts
    #expect(strict.floorAreaUnit == .squareFeet)
    #expect(strict.pricePerAreaUnit == .squareFeet)
    #expect(strict.missing == .drop)
  }

  @Test func placesAndAreasAreResolved() throws {
    let flats = try Self.search("flats")
    #expect(flats.facts.near.map(\.place.name) == ["work", "station"])
    #expect(flats.facts.near.map(\.radius.metres) == [3_000, 800])
    #expect(flats.facts.nearMode == .any)
    #expect(flats.facts.within.map(\.name) == ["areas/mission.geojson"])
    // 24th St Mission station is inside the drawn Mission; City Hall is not.
    let mission = try #require(flats.facts.within.first)
    #expect(mission.contains(Coordinates(latitude: 37.7522, longitude: -122.4184)))
    #expect(!mission.contains(Coordinates(latitude: 37.7793, longitude: -122.4193)))
    #expect(flats.places.map(\.name) == ["work", "station"])
    let strict = try Self.search("flats-strict")
    #expect(strict.places.map(\.unit) == [.miles], "shown in the unit 'near' writes")
    #expect(abs(strict.facts.near[0].radius.metres - 3_218.688) < 1e-6)
  }

  @Test func aSearchWithoutNearShowsEveryPlace() throws {
    let text = """
      version: 1
      places:
        work: [52.520, 13.405]
        home: [52.49, 13.42]
      searches:
        - name: bikes
          query: bike
          cities: [sfbay]
      """
    let result = ConfigLoader.load(
      bytes: Array(text.utf8), name: "places.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let search = try #require(result.config?.searches.first)
    #expect(search.places.map(\.name) == ["work", "home"])
    #expect(search.places.allSatisfy { $0.unit == .kilometres })
    #expect(search.facts.isEmpty)
  }

  @Test func craigslistIsAskedForWholeBedroomsAndSquareFeet() throws {
    let site = try #require(Registry.sites.site("craigslist"))
    let flats = try Self.search("flats")
    let url = try #require(site.requests(for: flats, in: flats.cities.first).first?.url)
    // At least 1.5 bedrooms asks for at least 1; 50 m² is 538.2 ft², 1,300 ft² as written.
    #expect(url.hasSuffix("&min_bedrooms=1&minSqft=538&maxSqft=1300"), "\(url)")
    var own = flats
    own.parameters["min_bedrooms"] = .integer(2)
    let written = try #require(site.requests(for: own, in: own.cities.first).first?.url)
    #expect(written.contains("min_bedrooms=2") && !written.contains("min_bedrooms=1"))
    own.category = "sss"
    let forSale = try #require(site.requests(for: own, in: own.cities.first).first?.url)
    #expect(!forSale.contains("minSqft"))
  }
}
