import Channels
import ClarissaConfig
import ClarissaCore
import Testing

@testable import Sites

/// The declared sites ask exactly what their recorded answers answered, for the searches that
/// recorded them (Fixtures/<site>/README.md names each request).
@Suite struct DeclaredRequestsTests {
  @Test(arguments: [
    (
      "kleinanzeigen", "duesseldorf", "wohnung", ["radius": ParameterValue.text("5")],
      "https://www.kleinanzeigen.de/s-immobilien/duesseldorf/anzeige:angebote/wohnung/k0c195l2068r5"
    ),
    (
      "wg-gesucht", "duesseldorf", nil, [:],
      "https://www.wg-gesucht.de/wg-zimmer-in-Duesseldorf.30.0.1.0.html"
    ),
  ])
  func theRecordedRequest(
    site id: String, city: String, query: String?, parameters: [String: ParameterValue],
    url: String
  ) throws {
    let site = try #require(Registry.sites.site(id))
    let search = Search(
      name: "recorded", site: id, query: query, cities: [CityRef(city)], parameters: parameters)
    #expect(site.requests(for: search).map(\.url) == [url])
  }

  /// Price bounds go where the definition puts them, and an empty part is left out.
  @Test func optionalPartsComeAndGo() throws {
    let site = try #require(Registry.sites.site("kleinanzeigen"))
    var search = Search(
      name: "flats", site: "kleinanzeigen", query: "Balkon Altbau", category: "wohnung-mieten",
      cities: [CityRef("berlin")])
    search.price = PriceRange(min: nil, max: 900)
    #expect(
      site.requests(for: search).map(\.url) == [
        "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/anzeige:angebote/preis::900/"
          + "balkon-altbau/k0c203l3331"
      ])
  }

  /// A search's price, rooms and floor area reach each site that filters by them, by the names
  /// its own search pages use; a category without the filter sends none (clarissa filters).
  @Test(arguments: [
    (
      "kleinanzeigen", "berlin", "wohnung-mieten",
      "https://www.kleinanzeigen.de/s-wohnung-mieten/berlin/anzeige:angebote/preis::900/"
        + "k0c203l3331+wohnung_mieten.qm_d:50,+wohnung_mieten.zimmer_d:2,3.5"
    ),
    (
      "kleinanzeigen", "berlin", "immobilien",
      "https://www.kleinanzeigen.de/s-immobilien/berlin/anzeige:angebote/preis::900/k0c195l3331"
    ),
    (
      "wg-gesucht", "berlin", "wohnungen",
      "https://www.wg-gesucht.de/wohnungen-in-Berlin.8.2.1.0.html?offer_filter=1&city_id=8"
        + "&rMax=900&sMin=50&rmMin=2&rmMax=3.5"
    ),
  ])
  func theSearchsBoundsAreSent(site id: String, city: String, category: String, url: String)
    throws
  {
    let site = try #require(Registry.sites.site(id))
    var search = Search(
      name: "flats", site: id, category: category, cities: [CityRef(city)])
    search.price = PriceRange(max: 900)
    search.facts.rooms = PriceRange(min: 2, max: 3.5)
    search.facts.floorArea = PriceRange(min: 50)
    #expect(site.requests(for: search).map(\.url) == [url])
  }

  /// ImmoScout and flatfox take them as query values.
  @Test func theSearchsBoundsAreQueryValues() throws {
    var search = Search(name: "flats", site: "immoscout", cities: [CityRef("duesseldorf")])
    search.price = PriceRange(max: 900)
    search.facts.rooms = PriceRange(min: 2)
    search.facts.floorArea = PriceRange(min: 50, max: 80)
    let immoscout = try #require(Registry.sites.site("immoscout"))
    let asked = try #require(immoscout.requests(for: search).first?.url)
    #expect(asked.contains("price=-900"), "\(asked)")
    #expect(asked.contains("numberofrooms=2-"), "\(asked)")
    #expect(asked.contains("livingspace=50-80"), "\(asked)")
    search.site = "flatfox"
    search.cities = [CityRef("zurich")]
    let flatfox = try #require(Registry.sites.site("flatfox"))
    let pins = try #require(flatfox.requests(for: search).first?.url)
    #expect(pins.contains("max_price=900") && pins.contains("min_rooms=2"), "\(pins)")
    #expect(!pins.contains("min_price"), "\(pins)")
  }

  /// A nationwide site's cities table says which city a search that names none searches
  /// (Marktplaats' `default: nederland`); a site without one still asks for cities.
  @Test func aDefaultCityServesASearchThatNamesNone() throws {
    func cities(_ site: String) -> ([String], [String]) {
      let text = "version: 1\nsearches:\n  - name: bikes\n    site: \(site)\n    query: fiets\n"
      let result = ConfigLoader.load(
        bytes: Array(text.utf8), name: "bikes.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all)
      return (
        result.config?.searches.first?.cities.map(\.name) ?? [],
        result.diagnostics.map(\.message)
      )
    }
    #expect(cities("marktplaats").0 == ["nederland"])
    #expect(cities("marktplaats").1.isEmpty)
    #expect(cities("kleinanzeigen").1.contains { $0.contains("names no cities") })
  }
}
