import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore
@testable import Presentation

/// The warning signs' rules (issue 43) on real recorded listings: each fires where it should
/// and not on the recorded answers' honest listings.
struct WarningSignsTests {
  /// A site fixture's expected listings (`Fixtures/<site>/<name>.listings.json`).
  static func listings(_ path: String) throws -> [Listing] {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode([Listing].self, from: Data(Fixtures.bytes(path)))
  }

  static let kleinanzeigen = "kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.listings.json"

  /// The market of `listings`, as the store's peers give it.
  static func market(_ listings: [Listing]) -> DealMarket {
    DealMarket(
      listings.compactMap { listing in
        listing.price.map {
          DealPeer(
            key: listing.key, price: $0, currency: listing.currency, floorArea: listing.floorArea,
            bedrooms: listing.bedrooms, rooms: listing.rooms)
        }
      })
  }

  /// The planted scam of Fixtures/replay/signals: listing 3465876892 (940 €, 50 m²) at 390 €.
  static func planted(from listings: [Listing]) throws -> Listing {
    var planted = try #require(listings.first { $0.id == "3465876892" })
    planted.id = "3470000001"
    planted.title = "Helle 2,5 Zimmer Wohnung in Oberbilk, sofort frei"
    planted.description =
      "Ich bin im Ausland und kann die Wohnung leider nicht zeigen. Kaution vorab, danach "
      + "schicke ich Ihnen die Schlüssel per Post."
    planted.price = 390
    return planted
  }

  @Test func aPriceFarBelowTheRentsPerSquareMetreIsLow() throws {
    let recorded = try Self.listings(Self.kleinanzeigen)
    let planted = try Self.planted(from: recorded)
    let market = Self.market(recorded + [planted])
    let signal = WarningSigns.lowPrice(planted, market: market)
    // 7.80 €/m² against the 13 rents per m² of the answer (median 17.98 €/m²).
    #expect(signal == ListingSignal(.lowPrice, "57% below the median per m² of 13 similar"))
    // Of the recorded listings, three are 40 % or more below their own market: a sale in Neuss
    // (2,351 €/m² against 4,992), a 75 m² rent at 9.60 €/m², a 185 m² rent at 10.54 €/m².
    let low = recorded.filter { WarningSigns.lowPrice($0, market: market) != nil }.map(\.id)
    #expect(low == ["3318271545", "3469199522", "3464176950"])
  }

  @Test func rentsAreNotComparedWithSales() throws {
    let recorded = try Self.listings(Self.kleinanzeigen)
    let market = Self.market(recorded)
    let rent = try #require(recorded.first { $0.id == "3465876892" })
    let perArea = 940.0 / 50
    // Every other listing of the answer per m²: 12 rents and 13 sales, the median a sale's.
    let all = try #require(
      market.median(currency: "EUR", .perArea, excluding: [rent.key], minimum: 8))
    #expect(all.count == 25 && all.median > 1_000)
    let rents = try #require(
      market.median(
        currency: "EUR", .perArea, excluding: [rent.key], minimum: 8, near: perArea,
        within: WarningSigns.scale))
    #expect(rents.count == 12 && rents.median < 30)
    #expect(WarningSigns.lowPrice(rent, market: market) == nil)
  }

  @Test func tooFewComparablesSayNothing() throws {
    let recorded = try Self.listings(Self.kleinanzeigen)
    let planted = try Self.planted(from: recorded)
    // The first ten listings hold fewer than 8 rents with a floor area.
    #expect(WarningSigns.lowPrice(planted, market: Self.market(Array(recorded.prefix(10)))) == nil)
  }

  @Test func scamWordsAreNamed() throws {
    let planted = try Self.planted(from: try Self.listings(Self.kleinanzeigen))
    #expect(
      WarningSigns.scamWords(planted)
        == ListingSignal(
          .scamWords,
          "scam words: \"kaution vorab\", \"schlüssel per post\", \"ich bin im ausland\""))
    var other = planted
    other.description = "Zahlung NUR per Überweisung!"
    #expect(WarningSigns.scamWords(other) == nil)
    #expect(
      WarningSigns.scamWords(other, extra: ["nur per Uberweisung"])
        == ListingSignal(.scamWords, "scam words: \"nur per Uberweisung\""))
    // Whole words only: "Kautionvorab" is no phrase of the list.
    other.description = "Kautionvorab"
    #expect(WarningSigns.scamWords(other) == nil)
  }

  @Test func noRecordedListingHoldsScamWords() throws {
    let folder = Fixtures.root
    let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".listings.json") && !$0.hasPrefix("replay/") }.sorted()
    var checked = 0
    var flagged: [String] = []
    for file in files {
      guard let listings = try? Self.listings(file) else { continue }
      checked += listings.count
      for listing in listings where WarningSigns.scamWords(listing) != nil {
        flagged.append("\(file): \(listing.id)")
      }
    }
    #expect(checked > 1_000, "\(checked) listings read")
    #expect(flagged.isEmpty)
  }

  @Test func aSellerAccountOfSeventeenDaysIsNew() throws {
    let offer = try #require(try Self.listings("olx-ua/olx_sample.listings.json").first)
    #expect(
      WarningSigns.newSeller(offer, now: Date())
        == ListingSignal(.newSeller, "seller's account is 17 days old"))
    var older = offer
    older.sellerSince = offer.posted?.addingTimeInterval(-31 * 86_400)
    #expect(WarningSigns.newSeller(older, now: Date()) == nil)
    let recorded = try Self.listings(Self.kleinanzeigen)
    #expect(recorded.allSatisfy { WarningSigns.newSeller($0, now: Date()) == nil })
  }

  @Test func threeRepostsAreASign() throws {
    let start = Date(timeIntervalSince1970: 1_780_000_000)
    func story(_ posts: Int) -> ListingStory {
      ListingStory(
        posts: (0..<posts).map {
          ListingStory.Post(
            id: "\($0)", firstSeen: start.addingTimeInterval(Double($0) * 7 * 86_400), prices: [])
        }, firstSeen: start)
    }
    let now = start.addingTimeInterval(21 * 86_400)
    #expect(WarningSigns.reposted(story(3), now: now) == nil, "two reposts")
    #expect(
      WarningSigns.reposted(story(3), adding: 1, now: now)
        == ListingSignal(.reposted, "reposted 3 times in 21 days"))
    #expect(
      WarningSigns.reposted(story(4), now: now)
        == ListingSignal(.reposted, "reposted 3 times in 21 days"))
  }

  @Test func aPhotoOnAListingElsewhereOrAtAnotherPriceIsASign() throws {
    let recorded = try Self.listings(Self.kleinanzeigen)
    let planted = try Self.planted(from: recorded)
    let original = try #require(recorded.first { $0.id == "3465876892" })
    // The same place, 940 € against 390 €: more than 25 % apart.
    let signal = try #require(WarningSigns.photoElsewhere(planted, others: [original]))
    #expect(
      signal == ListingSignal(.photoElsewhere, "photo also on a listing in 40227 Eller at €940"))
    // A flat in Vienna (willhaben's recorded answer) sharing the photo: another place.
    let vienna = try #require(try Self.listings("willhaben/willhaben-search-1.listings.json").first)
    let away = try #require(WarningSigns.photoElsewhere(original, others: [vienna]))
    #expect(away.text.hasPrefix("photo also on a listing in \(vienna.location ?? "")"))
    // The same flat on another site, the same place, 10 % dearer: no sign.
    var crossPost = original
    crossPost.site = "immoscout"
    crossPost.price = 1_034
    #expect(WarningSigns.photoElsewhere(original, others: [crossPost]) == nil)
    #expect(WarningSigns.photoElsewhere(original, others: [original]) == nil, "itself")
  }

  @Test func eachShippedLanguageHasPhrases() {
    for language in ["en", "de", "fr", "es", "it", "nl", "pl"] {
      #expect((ScamWords.shipped[language]?.count ?? 0) >= 5, "\(language)")
    }
    #expect(ScamWords.folded("Je suis à l'étranger!") == " je suis a l etranger ")
  }
}
