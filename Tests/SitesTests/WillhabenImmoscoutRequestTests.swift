import ClarissaCore
import Testing

@testable import Sites

/// willhaben and ImmoScout24 ask exactly what their recorded answers answered, for the searches
/// that recorded them (Fixtures/willhaben/README.md, Fixtures/immoscout/README.md), and put a
/// search's query and price bounds where their READMEs say (names not verified live).
@Suite struct WillhabenImmoscoutRequestTests {
  static func request(_ site: String, city: String, query: String? = nil, price: PriceRange? = nil)
    throws -> RequestSpec
  {
    let source = try #require(Registry.sites.site(site))
    var search = Search(name: "recorded", site: site, query: query, cities: [CityRef(city)])
    search.price = price
    let requests = source.requests(for: search)
    try #require(requests.count == 1)
    return requests[0]
  }

  @Test func willhabenAsksTheRecordedPage() throws {
    let request = try Self.request("willhaben", city: "wien")
    #expect(request.method == "GET")
    #expect(request.url == "https://www.willhaben.at/iad/immobilien/mietwohnungen/wien")
    #expect(request.body == nil)
  }

  @Test func willhabenPutsQueryAndPriceInTheQueryString() throws {
    let request = try Self.request(
      "willhaben", city: "wien-1020-leopoldstadt", query: "Balkon Altbau",
      price: PriceRange(min: 500, max: 1200))
    #expect(
      request.url
        == "https://www.willhaben.at/iad/immobilien/mietwohnungen/wien/wien-1020-leopoldstadt"
        + "?keyword=Balkon%20Altbau&PRICE_FROM=500&PRICE_TO=1200")
  }

  @Test func immoscoutPostsTheRecordedSearchAsTheApp() throws {
    let request = try Self.request("immoscout", city: "duesseldorf")
    #expect(request.method == "POST")
    #expect(
      request.url
        == "https://api.mobile.immobilienscout24.de/search/list?searchType=region"
        + "&realestatetype=apartmentrent&geocodes=%2Fde%2Fnordrhein-westfalen%2Fduesseldorf"
        + "&pricetype=calculatedtotalrent&pagenumber=1")
    #expect(request.headers["User-Agent"] == "ImmoScout_28.1_26.5.2_._")
    #expect(request.headers["Content-Type"] == "application/json")
    #expect(request.body == Array(#"{"supportedResultListTypes": [], "userData": {}}"#.utf8))
    #expect(!request.allowsConditionalGET)
  }

  @Test func immoscoutPutsPriceAndQueryAfterTheRecordedParameters() throws {
    let request = try Self.request(
      "immoscout", city: "duesseldorf", query: "Balkon", price: PriceRange(max: 1200))
    #expect(
      request.url.hasSuffix("&pagenumber=1&price=-1200&fulltext=Balkon"), "\(request.url)")
  }
}
