import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import SiteFormat
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Folding asks for evidence (issue 40): a landlord's JSON answer of 83 flats, each with the
/// landlord's campaign picture and many with one stock title, was folded into 59 ("24 reposts")
/// although none of the 24 had the address or the price of the flat it was folded into.
@Suite(.serialized) struct FoldEvidenceTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)
  static let campaign = "https://cdn.landlord.example/img/CAMP-2026-herbst.jpg"
  static let stockTitle = "Schön hier zu wohnen."

  /// Flats `range` of the landlord: the campaign photo and a photo of their own on each, the
  /// stock title on every sixth (14 of 83), other titles that repeat too, an address and a
  /// price of their own.
  static func landlord(_ range: Range<Int>, addresses: Bool = true) -> [Listing] {
    range.map { index in
      let title =
        index % 6 == 0
        ? stockTitle : ["2-Zimmer-Wohnung mit Balkon", "Helle 3-Zimmer-Wohnung"][index % 2]
      var flat = Listing(
        id: "ll-\(index)", site: "landlord", url: "https://landlord.example/expose/\(index)",
        title: title, description: "", price: 640 + Double(index) * 7.5, currency: "EUR",
        imageURLs: [campaign, "https://cdn.landlord.example/img/flat-\(index).jpg"])
      if addresses {
        flat.address = "Musterstraße \(index + 1)"
        flat.postcode = "40210"
      }
      return flat
    }
  }

  static func planned(idsUnique: Bool = false) -> PlannedSearch {
    var search = Search(name: "flats", site: "landlord")
    search.idsUnique = idsUnique
    return PlannedSearch(search: search, hold: false, prime: false, memory: nil)
  }

  /// The listings judged new, folded as a run folds them against `store`.
  static func fold(
    _ listings: [Listing], seen: [Listing] = [], store: any ListingMemory,
    idsUnique: Bool = false, at offset: Double = 0
  ) throws -> [Judgement] {
    let sighting = Sighting(firstSeen: now, lastSeen: now)
    let judgements =
      seen.map { Judgement(listing: $0, source: "s", reason: nil, verdict: .seen(sighting)) }
      + listings.map { Judgement(listing: $0, source: "s", reason: nil, verdict: .new) }
    return try Judge.fold(
      judgements, of: planned(idsUnique: idsUnique), memory: store,
      options: RunOptions(now: now.addingTimeInterval(offset), notifyFirstRun: true))
  }

  static func announced(_ judgements: [Judgement]) -> [String] {
    judgements.filter { $0.verdict == .new }.map(\.listing.id)
  }

  static func store() throws -> any ListingMemory {
    try ListingStore.open(path: ":memory:", readOnly: false)
  }

  /// Records `listings` as seen by the search at `offset`.
  static func record(_ listings: [Listing], in store: any ListingMemory, at offset: Double = 0)
    throws
  {
    try store.record(
      SearchRecord(
        search: "flats", now: now.addingTimeInterval(offset), seen: listings, owed: [],
        channels: [], held: [], recent: listings, answered: ["s"], asked: ["s"], reached: true))
  }

  @Test func everyFlatOfALandlordsAnswerIsAnnounced() throws {
    for addresses in [true, false] {
      let flats = Self.landlord(0..<83, addresses: addresses)
      #expect(Fingerprint.stockPhotos(flats) == [Self.campaign])
      let judged = try Self.fold(flats, store: Self.store())
      #expect(Self.announced(judged).count == 83, "addresses: \(addresses)")
      #expect(
        Fingerprint.foldLine(flats, idsUnique: false)
          == "would fold none of 83 as reposts; not evidence: stock photo "
          + "CAMP-2026-herbst.jpg on 83 listings")
    }
  }

  /// The next run: ten more flats with the same photo and title, beside the 83 still listed,
  /// or after they are gone (the store's photo rows tell the stock photo then).
  @Test(arguments: [true, false])
  func aLandlordsNewFlatsOnALaterRunAreAnnounced(stillListed: Bool) throws {
    for addresses in [true, false] {
      let store = try Self.store()
      let first = Self.landlord(0..<83, addresses: addresses)
      try Self.record(first, in: store)
      let more = Self.landlord(83..<93, addresses: addresses)
      let judged = try Self.fold(more, seen: stillListed ? first : [], store: store, at: 3600)
      #expect(
        Self.announced(judged).count == 10, "addresses: \(addresses) \(judged.map(\.verdict))")
    }
  }

  /// A real repost still folds: the same flat again with its title, price and address (the
  /// campaign photo counts for nothing), or later with its own photo and title at a new price.
  @Test func aLandlordsRepostStillFolds() throws {
    let store = try Self.store()
    let flats = Self.landlord(0..<83)
    try Self.record(flats, in: store)
    var again = flats[6]
    again.id = "ll-6-again"
    var cheaper = flats[7]
    cheaper.id = "ll-7-again"
    cheaper.price = 600
    cheaper.address = nil
    let judged = try Self.fold([again, cheaper], store: store, at: 3600)
    let verdicts = judged.map(\.verdict)
    #expect(verdicts.contains(.repost(of: "ll-6", firstSeen: Self.now)), "\(verdicts)")
    #expect(verdicts.contains(.repost(of: "ll-7", firstSeen: Self.now)), "\(verdicts)")
  }

  /// Two flats at two addresses are never one item, whatever they share; a map pin neither
  /// joins nor parts them alone (Craigslist pins a neighbourhood, and a cross-post another).
  @Test func twoAddressesAreTwoItems() {
    var first = Listing(
      id: "a", site: "landlord", url: "u", title: "Helle Wohnung", price: 900, currency: "EUR",
      imageURLs: ["https://cdn.landlord.example/a.jpg"])
    var second = first
    second.id = "b"
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == .titleAndPrice)
    first.address = "Musterstraße 1"
    second.address = "Musterstraße 3"
    #expect(Fingerprint.sameItem(first, second) == nil)
    second.address = "Musterstrasse 1"
    #expect(Fingerprint.sameItem(first, second) == nil, "another spelling is another address")
    second.address = "Musterstraße 1"
    #expect(Fingerprint.sameItem(first, second) == .titleAndPrice)
    // The same address with a title: one flat reposted at another price, but side by side two
    // units of one building; and never with another floor area or number of rooms.
    second.price = 850
    #expect(Fingerprint.sameItem(first, second) == .place)
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    (first.floorArea, second.floorArea) = (57, 55)
    #expect(Fingerprint.sameItem(first, second) == nil)
    second.price = 900
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    (first.floorArea, second.floorArea, first.rooms, second.rooms) = (57, 57, 2, 3)
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    (first.rooms, second.rooms) = (nil, nil)
    second.price = 850
    (first.address, second.address) = (nil, nil)
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    first.coordinates = Coordinates(latitude: 51.2277, longitude: 6.7735)
    second.coordinates = Coordinates(latitude: 51.22771, longitude: 6.7735)  // 1 m north
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == .place)
    second.imageURLs = []
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil, "a pin and a title")
  }

  /// Side by side in one answer, a photo and a title are not enough; the same price and
  /// description are.
  @Test func twoIdsOfOneAnswerNeedMoreThanAPhotoAndATitle() {
    var first = Listing(
      id: "a", site: "s", url: "u", title: "Sofa", description: "Grey three-seater, pick up only",
      price: 120, currency: "EUR", imageURLs: ["https://img.example/sofa.jpg"])
    var second = first
    second.id = "b"
    second.price = 100
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    #expect(Fingerprint.sameItem(first, second) == .photo("https://img.example/sofa.jpg"))
    second.price = 120
    second.title = "Sofa, grey"
    second.description = "Pick up in Bilk"
    #expect(
      Fingerprint.sameItem(first, second, inOneAnswer: true)
        == .photo("https://img.example/sofa.jpg"),
      "a photo and the price")
    second.imageURLs = []
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
    second.description = first.description
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == .priceAndDescription)
    // A few words are no evidence: "20 EUR" on every lamp of a feed.
    (first.description, second.description) = ("20 EUR", "20 EUR")
    #expect(Fingerprint.sameItem(first, second, inOneAnswer: true) == nil)
  }

  /// A definition that says `ids: unique` is never folded within its site, and `sites check`
  /// says so.
  @Test func idsUniqueIsNeverFolded() throws {
    var twin = Self.landlord(0..<1)[0]
    twin.id = "ll-twin"
    let judged = try Self.fold(Self.landlord(0..<1) + [twin], store: Self.store(), idsUnique: true)
    #expect(Self.announced(judged) == ["ll-0", "ll-twin"])
    let folded = try Self.fold(Self.landlord(0..<1) + [twin], store: Self.store())
    #expect(Self.announced(folded) == ["ll-0"])
    #expect(
      Fingerprint.foldLine(Self.landlord(0..<1) + [twin], idsUnique: false)
        == "would fold 1 of 2 as reposts: same title and price (1)")
    #expect(
      Fingerprint.foldLine(Self.landlord(0..<1) + [twin], idsUnique: true)
        == "would fold none of 2 as reposts: ids: unique")
  }

  /// `ids: unique` in a definition reaches the searches of its site, through the config.
  @Test func aDefinitionsUniqueIDsReachItsSearches() throws {
    let shipped = try String(
      contentsOf: Fixtures.root.appendingPathComponent("../Sites/Flatfox/flatfox.site.yaml"),
      encoding: .utf8)
    for (line, unique) in [("", false), ("ids: unique\n", true), ("ids: may_repost\n", false)] {
      let (definition, diagnostics) = DefinitionReader.read(
        Array((shipped + "\n" + line).utf8), file: "flatfox.site.yaml")
      let site = DeclaredSite(definition: try #require(definition, "\(diagnostics)"))
      #expect(site.idsUnique == unique)
      let config = try #require(
        ConfigLoader.load(
          bytes: Array(
            "version: 1\nsearches:\n  - {name: flats, site: flatfox, cities: [zurich]}\n".utf8),
          name: "s.yaml", environment: [:], sites: SiteCatalog([site]),
          channels: ChannelRegistry.all
        ).config)
      #expect(config.searches.first?.idsUnique == unique)
    }
    let (_, wrong) = DefinitionReader.read(
      Array((shipped + "\nids: uniq\n").utf8), file: "flatfox.site.yaml")
    #expect(wrong.contains { $0.message.contains("'ids'") && $0.location?.line != nil })
  }

  /// A title and a photo shared by 20,000 listings: each look-up checks a bounded bucket (all
  /// of them, 200 million comparisons, would keep this test running for minutes).
  @Test func oneTitleOnTwentyThousandListingsIsBounded() {
    let many = (0..<20_000).map {
      Listing(
        id: "\($0)", site: "s", url: "u", title: "Wohnung", price: Double($0), currency: "EUR",
        imageURLs: [Self.campaign])
    }
    #expect(Fingerprint.folds(in: many, idsUnique: false).isEmpty)
  }
}
