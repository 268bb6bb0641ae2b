import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Testing
import WebServer

@testable import Serve

/// Warning signs (issue 43) on the page: the cards, the listing page and the map's popup show
/// each of a listing's stored signs, `⚠` first, as text.
@Suite struct ServeSignalsTests {
  static let signs = [
    ListingSignal(.lowPrice, "57% below the median per m² of 13 similar"),
    ListingSignal(.scamWords, "scam words: \"kaution vorab\", \"<b>\u{1B}[31m\""),
  ]

  /// A fixture whose listing 7 carries ``signs``, recorded by a later run of its search.
  static func fixture() throws -> ServeFixture {
    let flat = ServeMapTests.located("7", title: "Helle 2,5 Zimmer Wohnung", price: 390)
    let fixture = try ServeFixture(listings: [
      "flats": [flat, ServeMapTests.located("8", title: "Honest")]
    ])
    var record = SearchRecord(
      search: "flats", now: fixture.now.addingTimeInterval(60), seen: [flat], reached: true)
    record.signals[flat.key] = signs
    try fixture.store.record(record)
    return fixture
  }

  @Test func thePageAndTheCardsShowTheSigns() throws {
    let fixture = try Self.fixture()
    for target in ["/listing/craigslist/7", "/listings"] {
      let page = String(decoding: fixture.get(target).body, as: UTF8.self)
      #expect(
        page.contains("<li class=\"signal\">⚠ 57% below the median per m² of 13 similar</li>"),
        "\(target)")
      #expect(page.contains("&lt;b&gt;") && !page.contains("\u{1B}"), "escaped, stripped")
    }
    let honest = String(decoding: fixture.get("/listing/craigslist/8").body, as: UTF8.self)
    #expect(!honest.contains("class=\"signal\""))
  }

  @Test func theMapsPopupHasThem() throws {
    let fixture = try Self.fixture()
    let response = fixture.get("/api/map")
    let data = try #require(
      try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    let markers = try #require(data["markers"] as? [[String: Any]])
    let flagged = try #require(markers.first { $0["key"] as? String == "craigslist:7" })
    let signals = try #require(flagged["signals"] as? [String])
    #expect(signals.first == "57% below the median per m² of 13 similar")
    #expect(signals.allSatisfy { !$0.contains("\u{1B}") })
    #expect(markers.first { $0["key"] as? String == "craigslist:8" }?["signals"] == nil)
  }
}
