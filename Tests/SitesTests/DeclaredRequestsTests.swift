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
}
