import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Folding by photo hash (issue 43) on recorded listings, with imagehash's hashes of the photo
/// corpus (Fixtures/photos/dhash.tsv) kept as their photos' fingerprints: a repost whose photo
/// was uploaded again, a landlord's campaign picture re-encoded on every flat (a stock photo,
/// never evidence), and the same flat on two sites that give no coordinates.
@Suite(.serialized) struct PhotoFoldTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)

  static func planned(_ name: String, site: String) -> PlannedSearch {
    PlannedSearch(search: Search(name: name, site: site), hold: false, prime: false, memory: nil)
  }

  static func record(_ listings: [Listing], search: String, in store: any ListingMemory) throws {
    try store.record(
      SearchRecord(
        search: search, now: now, seen: listings, recent: listings, answered: ["s"],
        asked: ["s"], reached: true))
  }

  /// Keeps `photos` (address: corpus file) as fetched.
  static func keep(_ photos: [String: String], in store: any ListingMemory) throws {
    try store.rememberPhotoHashes(
      photos.map { url, path in
        PhotoHash(
          url: url, hash: try PhotoCorpus.hash(path), width: 400, height: 250, fetchedAt: now)
      })
  }

  /// `listings` judged new by `planned`'s search an hour later, folded as a run folds them.
  static func fold(_ listings: [Listing], _ planned: PlannedSearch, store: any ListingMemory)
    throws -> [Verdict]
  {
    try Judge.fold(
      listings.map { Judgement(listing: $0, source: "s", reason: nil, verdict: .new) },
      of: planned, memory: store,
      options: RunOptions(now: now.addingTimeInterval(3600), notifyFirstRun: true)
    ).map(\.verdict)
  }

  static func kleinanzeigen() throws -> [Listing] {
    try PhotoCorpus.listings("kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.listings.json")
  }

  /// A Kleinanzeigen flat posted again under a new title with its photo uploaded again (another
  /// address, the photo re-encoded at quality 60): one photo by hash, so a repost; the same
  /// without kept hashes is a new listing (the addresses differ).
  @Test(arguments: [true, false]) func aRepostWithItsPhotoUploadedAgainFolds(hashed: Bool) throws {
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    let flat = try #require(try Self.kleinanzeigen().first)
    try Self.record([flat], search: "flats", in: store)
    var again = flat
    again.id = "3323958999"
    again.title = "Loft mit Galerie - wieder frei!"
    again.description = "Wieder verfügbar."
    again.imageURLs = [
      "https://img.kleinanzeigen.de/api/v1/prod-ads/images/9c/9c0a1f00-reupload?rule=$_59.AUTO"
    ]
    if hashed {
      try Self.keep(
        [
          flat.imageURLs[0]: "originals/opencv-home.jpg",
          again.imageURLs[0]: "variants/opencv-home--q60.jpg",
        ], in: store)
    }
    let verdicts = try Self.fold(
      [again], Self.planned("flats", site: "kleinanzeigen"), store: store)
    #expect(verdicts == [hashed ? .repost(of: flat.id, firstSeen: Self.now) : .new])
    let hashes = try store.photoHashes(flat.imageURLs + again.imageURLs).compactMapValues(\.hash)
    #expect(
      Fingerprint.sameItem(flat, again, hashes: hashes)
        == (hashed ? .photo(Fingerprint.image(flat.imageURLs[0])) : nil))
  }

  /// Two ids of one answer at one price whose photos are one by hash fold within the run.
  @Test func twoIdsOfOneAnswerWithOnePhotoAndPriceFold() throws {
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    let flat = try #require(try Self.kleinanzeigen().first)
    var twin = flat
    twin.id = "3323958998"
    twin.title = "Dachgeschoss-Loft, Flingern"
    twin.imageURLs = [
      "https://img.kleinanzeigen.de/api/v1/prod-ads/images/aa/aa-twin?rule=$_59.AUTO"
    ]
    try Self.keep(
      [
        flat.imageURLs[0]: "originals/mate-aqua.jpg",
        twin.imageURLs[0]: "variants/mate-aqua--half.jpg",
      ],
      in: store)
    let verdicts = try Self.fold(
      [flat, twin], Self.planned("flats", site: "kleinanzeigen"), store: store)
    #expect(verdicts == [.new, .repost(of: flat.id, firstSeen: nil)])
  }

  /// Deutsche Wohnen's 83 flats (the recorded answer of issue 40) each carry the landlord's
  /// campaign picture. Uploaded once per flat (83 addresses) and re-encoded each time, the
  /// picture is still one photo by hash, on flats at 83 prices: a stock photo. Without their
  /// addresses and sizes (as a feed would give them), the flats of a later run that share it
  /// and a stock title with a stored one would be its reposts; they are announced.
  @Test(arguments: StoreKind.built) func aCampaignPictureReencodedPerFlatIsAStockPhoto(
    kind: StoreKind
  ) throws {
    let flats = try PhotoCorpus.listings("deutsche-wohnen/deutscheWohnen_list.listings.json")
      .map { flat -> Listing in
        var flat = flat
        flat.imageURLs = ["https://cdn.expose.vonovia.de/CAMP-Gruenstrom-\(flat.id).jpg"]
        flat.coordinates = nil
        (flat.address, flat.postcode, flat.floorArea, flat.rooms) = (nil, nil, nil, nil)
        return flat
      }
    let kinds = ["q60.jpg", "q85.jpg", "half.jpg", "conv.png", "w320.jpg", "gray.jpg"]
    var photos: [String: String] = [:]
    for (index, flat) in flats.enumerated() {
      photos[flat.imageURLs[0]] = "variants/plasma-onestandsout--\(kinds[index % kinds.count])"
    }
    let hashes = try photos.mapValues { try PhotoCorpus.hash($0) }
    #expect(Set(hashes.values).count > 1, "the re-encodings differ in their bits")
    #expect(Fingerprint.stockPhotos(flats, hashes: hashes).count == 83)
    #expect(Fingerprint.stockPhotos(flats).isEmpty, "83 addresses: no photo shared without hashes")
    // Two flats of one stock title share the picture: evidence without the stock rule.
    let stock = flats.filter { $0.title == "Schön hier zu wohnen." }
    #expect(
      Fingerprint.sameItem(stock[0], stock[1], hashes: hashes) == .photo(stock[0].imageURLs[0]))
    #expect(
      Fingerprint.sameItem(
        stock[0], stock[1], stock: Fingerprint.stockPhotos(flats, hashes: hashes), hashes: hashes)
        == nil)

    let store = try kind.open()
    try Self.keep(photos, in: store)
    // Five of the stock-titled flats come in a later run, the 78 others stored before.
    let later = Array(stock.suffix(5))
    let laterIDs = Set(later.map(\.id))
    try Self.record(flats.filter { !laterIDs.contains($0.id) }, search: "berlin", in: store)
    let verdicts = try Self.fold(
      later, Self.planned("berlin", site: "deutsche-wohnen"), store: store)
    #expect(verdicts == Array(repeating: .new, count: 5), "\(verdicts)")
  }

  /// Vlamingstraat 33 in Delft, recorded on funda and on Pararius: neither site gives
  /// coordinates. With their photos one by hash (funda's the original, Pararius's re-encoded
  /// at quality 85), the same price and floor area, the Pararius listing is the funda one.
  @Test(arguments: StoreKind.built) func theSameFlatOnTwoSitesWithoutCoordinatesFoldsByPhoto(
    kind: StoreKind
  ) throws {
    let funda = try #require(
      try PhotoCorpus.listings("funda/latest.listings.json").first { $0.id == "80876599" })
    let pararius = try #require(
      try PhotoCorpus.listings("pararius/latest.listings.json").first { $0.id == "2e760d4e" })
    #expect(funda.coordinates == nil && pararius.coordinates == nil)
    let planned = Self.planned("delft-pararius", site: "pararius")
    func judged(_ listing: Listing, photo: String, fundaPhoto: String = "originals/mate-blinds.jpg")
      throws -> [Verdict]
    {
      let store = try kind.open()
      try Self.record([funda], search: "delft-funda", in: store)
      try Self.keep([funda.imageURLs[0]: fundaPhoto, listing.imageURLs[0]: photo], in: store)
      return try Self.fold([listing], planned, store: store)
    }
    let fundaKey = ListingKey(site: "funda", id: "80876599")
    #expect(
      try judged(pararius, photo: "variants/mate-blinds--q85.jpg") == [
        .alsoOn(fundaKey, firstSeen: Self.now)
      ])
    // Another photo, another price, or neither rooms nor area to compare: not the same flat.
    #expect(try judged(pararius, photo: "originals/mate-dune.jpg") == [.new])
    var dearer = pararius
    dearer.price = 2_900
    #expect(try judged(dearer, photo: "variants/mate-blinds--q85.jpg") == [.new])
    var bare = pararius
    bare.floorArea = nil
    #expect(try judged(bare, photo: "variants/mate-blinds--q85.jpg") == [.new])
  }

  /// The same, but funda shows that photo on three of its flats at three prices (an agent's
  /// picture): a stock photo on funda, never evidence across sites.
  @Test(arguments: StoreKind.built) func aStockPhotoDoesNotFoldAcrossSites(kind: StoreKind) throws {
    let fundas = try PhotoCorpus.listings("funda/latest.listings.json")
    let funda = try #require(fundas.first { $0.id == "80876599" })
    let pararius = try #require(
      try PhotoCorpus.listings("pararius/latest.listings.json").first { $0.id == "2e760d4e" })
    let others = fundas.filter { $0.id != funda.id && $0.price != funda.price }.prefix(2)
    #expect(Set(others.compactMap(\.price)).count == 2)
    let store = try kind.open()
    try Self.record([funda] + others, search: "delft-funda", in: store)
    var photos = [
      funda.imageURLs[0]: "originals/mate-blinds.jpg",
      pararius.imageURLs[0]: "variants/mate-blinds--q85.jpg",
    ]
    for (other, kind) in zip(others, ["q60", "half"]) {
      photos[other.imageURLs[0]] = "variants/mate-blinds--\(kind).jpg"
    }
    try Self.keep(photos, in: store)
    let verdicts = try Self.fold(
      [pararius], Self.planned("delft-pararius", site: "pararius"), store: store)
    #expect(verdicts == [.new])
  }
}

/// Which photos a run asks for (``PhotoFetch``), on recorded answers: only those of listings
/// the search would judge new, their first photos, http(s) only.
@Suite struct PhotoFetchChoiceTests {
  @Test func aNewListingsFirstWebPhotosOnly() throws {
    var flats = try PhotoCorpus.listings(
      "kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.listings.json")
    #expect(flats.count == 27)
    flats[0].imageURLs = [
      "data:image/png;base64,iVBORw0KGgo=", "file:///etc/passwd", flats[0].imageURLs[0],
      "HTTPS://img.example/second.jpg", "https://img.example/third.jpg",
    ]
    let wanted = PhotoFetch.wanted(flats, perListing: 2)
    #expect(wanted.prefix(2) == [flats[0].imageURLs[2], "HTTPS://img.example/second.jpg"])
    #expect(wanted.count == 2 + 26, "one photo each on the other 26")
    #expect(!PhotoFetch.isWeb("https:///no-host.jpg") && !PhotoFetch.isWeb("/relative.jpg"))
  }

  /// Seen, filtered and primed listings get no photo fetched; a source the search does not
  /// know yet (primed) neither.
  @Test func onlyTheListingsTheSearchWouldJudgeNew() throws {
    let flats = try PhotoCorpus.listings(
      "kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.listings.json")
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    try PhotoFoldTests.record(Array(flats.prefix(20)), search: "flats", in: store)
    var search = Search(name: "flats", site: "kleinanzeigen")
    search.price = PriceRange(min: nil, max: 1_000)
    let memory = try #require(try store.searches(["flats"])["flats"])
    let reading = SearchReading(batches: [SourceBatch(url: "s", listings: flats)])
    let options = RunOptions(now: PhotoFoldTests.now)
    let planned = PlannedSearch(search: search, hold: false, prime: false, memory: memory)
    let chosen = try PhotoFetch.candidates(
      planned, reading: reading, memory: store, options: options)
    let expected = flats.suffix(7).filter { ($0.price ?? 0) <= 1_000 }
    #expect(!expected.isEmpty && expected.count < 7)
    #expect(chosen.map(\.id) == expected.map(\.id))
    var primed = planned
    primed.prime = true
    #expect(
      try PhotoFetch.candidates(primed, reading: reading, memory: store, options: options).isEmpty)
    let unknown = SearchReading(batches: [SourceBatch(url: "another", listings: flats)])
    #expect(
      try PhotoFetch.candidates(planned, reading: unknown, memory: store, options: options).isEmpty)
  }
}
