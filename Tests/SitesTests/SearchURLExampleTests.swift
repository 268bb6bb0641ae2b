import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// One pasted search page of a site, with the request the site documents for it.
struct PastedURLCase: CustomTestStringConvertible, Sendable {
  var site: String
  var example: SearchURLExample

  var testDescription: String { "\(site): \(example.url)" }

  /// Every example of every shipped site (`search_url.examples` in a definition, Craigslist's
  /// in Swift).
  static var all: [PastedURLCase] {
    Registry.sites.all.flatMap { site in
      site.searchURLExamples.map { PastedURLCase(site: site.id, example: $0) }
    }
  }
}

/// Each site's pasted search URLs, read the way a config reads them (`url:` and nothing else),
/// make exactly the request the site documents: the pasted path and query kept, the site's
/// newest-first order put in, and what the site sets itself.
@Suite struct SearchURLExampleTests {
  /// The search a config with only `url:` gives.
  static func search(pasting url: String) throws -> Search {
    let text = "version: 1\nsearches:\n  - name: pasted\n    url: '\(url)'\n"
    let result = ConfigLoader.load(
      bytes: Array(text.utf8), name: "pasted.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    // An unverified site says so, whatever the URL; nothing else is said.
    let said = result.diagnostics.filter { !$0.message.contains(") is unverified:") }
    #expect(said.isEmpty, "\(said.map(\.message))")
    return try #require(result.config?.searches.first)
  }

  @Test func everyShippedSiteThatSearchesPlacesTakesURLs() {
    let taking = Set(PastedURLCase.all.map(\.site))
    let places = Registry.sites.all.filter { $0.cities == .required }.map(\.id)
    // These search by a JSON body that a pasted page's query cannot fill (Homegate's and Auto
    // Trader's gateways take the search as JSON; their README says so), and the two stubs
    // (Oodle's API is keyed, Backpage is gone).
    #expect(
      Set(places).subtracting(taking) == ["homegate", "autotrader-uk", "oodle", "backpage"])
    #expect(PastedURLCase.all.count >= 12)
  }

  @Test(arguments: PastedURLCase.all)
  func thePastedURLMakesTheDocumentedRequest(_ pasted: PastedURLCase) throws {
    let search = try Self.search(pasting: pasted.example.url)
    #expect(search.site == pasted.site, "the URL names its site")
    let site = try #require(Registry.sites.site(pasted.site))
    let requests = site.requests(for: search)
    #expect(requests.map(\.url) == [pasted.example.request])
  }

  /// The pasted path and every pasted filter reach the request as written (percent-encoding
  /// included); only the order, the page and what the site sets itself change.
  @Test func craigslistKeepsThePastedFiltersAsWritten() throws {
    let search = try Self.search(
      pasting: "https://sfbay.craigslist.org/search/sfc/apa?query=%22bay+view%22%20-studio"
        + "&min_bedrooms=2&laundry=1&laundry=4&sort=pricedsc&s=120")
    #expect(search.cities.map(\.name) == ["sfbay/sfc"])
    #expect(search.category == "apa")
    let site = try #require(Registry.sites.site("craigslist"))
    #expect(
      site.requests(for: search).map(\.url) == [
        "https://sapi.craigslist.org/web/v8/postings/search/full?batch=0-0-360-1-0"
          + "&searchPath=subarea/sfc&cat=apa&cc=US&lang=en&query=%22bay+view%22%20-studio"
          + "&min_bedrooms=2&laundry=1&laundry=4"
      ])
    var page = search
    page.parameters["mode"] = .text("html")
    #expect(
      site.requests(for: page).map(\.url) == [
        "https://sfbay.craigslist.org/search/sfc/apa?query=%22bay+view%22%20-studio"
          + "&min_bedrooms=2&laundry=1&laundry=4&sort=date"
      ])
  }

  /// Clarissa's own price range does not change what is asked: it applies to what comes back.
  @Test func theSearchsOwnPriceIsNotSentWithAPastedURL() throws {
    let text = """
      version: 1
      searches:
        - name: bikes
          url: https://sfbay.craigslist.org/search/bia?max_price=800
          price: {min: 100}
      """
    let result = ConfigLoader.load(
      bytes: Array(text.utf8), name: "p.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let search = try #require(result.config?.searches.first)
    #expect(search.price == PriceRange(min: 100))
    let url = try #require(Registry.sites.site("craigslist")?.requests(for: search).first?.url)
    #expect(!url.contains("min_price"))
    #expect(url.hasSuffix("&max_price=800"))
  }
}
