import Foundation
import Testing

/// Every shipped site read from a search page pasted from the browser (`url:`), offline: the
/// requests `validate --print-urls` shows keep the pasted path and query and add the site's
/// newest-first order, and a run answered by each site's recorded answer (Fixtures/replay/pasted,
/// index.json) finds its listings, with clarissa's own price and filters applied on top.
@Suite(.serialized) struct PastedURLRunTests {
  static let config = "Fixtures/replay/pasted/searches.yaml"

  @Test func printURLsShowsTheRequestMadeFromEachPastedURL() throws {
    let outcome = try CommandLineTests.run([
      "validate", "-q", "--print-urls", "--config", Self.config,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let requests = outcome.stdout.split(separator: "\n").map {
      $0.split(separator: "\t").map(String.init)
    }
    #expect(
      requests == [
        [
          "ipads", "sfbay", "api",
          "https://sapi.craigslist.org/web/v8/postings/search/full?batch=1-0-360-1-0"
            + "&searchPath=sss&cc=US&lang=en&query=ipad",
        ],
        [
          "duesseldorf-flats", "-", "page",
          "https://www.kleinanzeigen.de/s-immobilien/duesseldorf/anzeige:angebote/wohnung/"
            + "k0c195l2068r5",
        ],
        [
          "duesseldorf-rooms", "Duesseldorf", "page",
          "https://www.wg-gesucht.de/wg-zimmer-in-Duesseldorf.30.0.1.0.html"
            + "?sort_column=0&sort_order=0",
        ],
        [
          "wien-flats", "wien", "page",
          "https://www.willhaben.at/iad/immobilien/mietwohnungen/wien?sort=1",
        ],
        [
          "duesseldorf-scout", "duesseldorf", "page",
          "https://api.mobile.immobilienscout24.de/search/list?searchType=region"
            + "&realestatetype=apartmentrent&geocodes=%2Fde%2Fnordrhein-westfalen%2Fduesseldorf"
            + "&pricetype=calculatedtotalrent&pagenumber=1&sorting=-firstactivation",
        ],
        [
          "zurich-flats", "-", "pins",
          "https://flatfox.ch/api/v1/pin/?east=8.62&north=47.43&south=47.32&west=8.44"
            + "&object_category=APARTMENT&offer_type=RENT&max_count=100",
        ],
      ])
  }

  @Test func aRunOverTheRecordedAnswersFindsEverySitesListings() throws {
    let outcome = try CommandLineTests.run([
      "run", "--config", Self.config, "--replay", "Fixtures/replay/pasted", "--dry-run",
      "--notify-first-run", "--format", "json", "--now", "2026-08-22T16:00:00Z",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    let searches = try #require(report["searches"] as? [[String: Any]])
    let byName = Dictionary(
      uniqueKeysWithValues: searches.map { ($0["name"] as? String ?? "", $0) })
    // What each recorded answer holds (Fixtures/<site>/cases.json), all of it read.
    let fetched = [
      "ipads": 360, "duesseldorf-flats": 27, "duesseldorf-rooms": 26, "wien-flats": 30,
      "duesseldorf-scout": 50, "zurich-flats": 100,
    ]
    for (name, count) in fetched {
      let search = try #require(byName[name], "\(name) is in the report")
      #expect(search["status"] as? String == "ran", "\(name)")
      #expect(search["fetched"] as? Int == count, "\(name)")
      #expect((search["failures"] as? [Any])?.isEmpty == true, "\(name)")
      #expect(!((search["new"] as? [Any]) ?? []).isEmpty, "\(name) found listings")
    }
    // clarissa's own price range and filter, on top of the pasted search.
    let flats = try #require(byName["duesseldorf-flats"])
    let kept = try #require(flats["new"] as? [[String: Any]])
    #expect(kept.count < 27)
    for listing in kept {
      if let price = listing["price"] as? Double { #expect(price <= 1200) }
      #expect(!((listing["title"] as? String) ?? "").lowercased().contains("tausch"))
    }
  }
}
