import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Cross-site folding: the rule (``SameFlat``) on its table of cases, and the store's look-up
/// and links on both stores.
@Suite(.serialized) struct SameFlatTests {
  static let start = StoreSamples.start
  /// Kreuzberg, Oranienstraße.
  static let here = Coordinates(latitude: 52.5010, longitude: 13.4180)

  /// A flat on `site`: 2.5 rooms, 64.5 m², €1,199, at `here` moved `north` metres.
  static func flat(
    _ id: String, site: String = "kleinanzeigen", north: Double = 0, rooms: Double? = 2.5,
    area: Double? = 64.5, price: Double? = 1_199, currency: String? = "EUR",
    located: Bool = true
  ) -> Listing {
    var listing = Listing(
      id: id, site: site, url: "https://\(site).example/\(id)", title: "Altbau \(id)",
      description: "", price: price, currency: currency, posted: nil, location: "Kreuzberg",
      area: nil,
      coordinates: located
        ? Coordinates(
          latitude: here.latitude + north / 111_195, longitude: here.longitude) : nil,
      imageURLs: [], category: nil)
    listing.rooms = rooms
    listing.floorArea = area
    return listing
  }

  static let cases: [(String, Listing, Bool)] = [
    (
      "the same flat, pinned 100 m apart, 65 m² and €1,200",
      flat("b", site: "immoscout", north: 100, area: 65, price: 1_200), true
    ),
    ("151 m apart", flat("b", site: "immoscout", north: 151), false),
    ("rooms differ", flat("b", site: "immoscout", rooms: 3), false),
    ("area 1 m² apart (within 1 m²)", flat("b", site: "immoscout", area: 65.5), true),
    ("area 3 % apart (within 3 %)", flat("b", site: "immoscout", area: 66.4), true),
    ("area 3.5 % apart", flat("b", site: "immoscout", area: 66.8), false),
    ("price 2 % apart", flat("b", site: "immoscout", price: 1_223), true),
    ("price 2.1 % apart", flat("b", site: "immoscout", price: 1_224.8), false),
    ("another currency", flat("b", site: "immoscout", currency: "CHF"), false),
    ("the same site", flat("b"), false),
    ("only the price in common", flat("b", site: "immoscout", rooms: nil, area: nil), false),
    ("rooms and price, no area", flat("b", site: "immoscout", area: nil), true),
    ("no coordinates", flat("b", site: "immoscout", located: false), false),
  ]

  @Test(arguments: cases)
  func theRule(_ name: String, other: Listing, same: Bool) {
    let flat = Self.flat("a")
    #expect(SameFlat.matches(flat, other) == same, "\(name)")
    #expect(SameFlat.matches(other, flat) == same, "\(name), the other way")
  }

  @Test func theBoxHoldsEveryPointWithinTheDistance() {
    for latitude in [0.0, 47.4, 52.5, 64.1, -33.9] {
      let point = Coordinates(latitude: latitude, longitude: 13.4)
      let box = SameFlat.box(around: point)
      // 150 m due north and due east of the point are inside.
      let east = 150 / (111_195 * cos(latitude * .pi / 180))
      #expect(box.latitudes.contains(latitude + 150 / 111_195))
      #expect(box.longitudes.contains(13.4 + east))
      #expect(box.longitudes.contains(13.4 - east))
    }
  }

  /// The second site's listing finds the first site's, seen by another search, within the
  /// window; the links are read both ways, exported, and gone when the listing is pruned.
  @Test(arguments: StoreKind.built)
  func theStoreFindsTheSameFlatOnAnotherSiteAndLinksBothWays(kind: StoreKind) throws {
    let store = try kind.open()
    let first = Self.flat("k1")
    let far = Self.flat("k2", north: 400)
    var record = StoreSamples.record("flats-kleinanzeigen", at: 0, seen: [first, far])
    record.recent = []
    try store.record(record)
    let mine = Self.flat("i1", site: "immoscout", north: 80, area: 65, price: 1_200)
    let lone = Self.flat("i2", site: "immoscout", north: 400, rooms: 4)
    let found = try store.sameFlats(
      of: [mine, lone, Self.flat("i3", site: "immoscout", located: false)],
      since: Self.start.addingTimeInterval(-60))
    #expect(found == [mine.key: CrossPost(key: first.key, firstSeen: Self.start)])
    // A window that ends after the other listing was last seen finds nothing.
    #expect(try store.sameFlats(of: [mine], since: Self.start.addingTimeInterval(60)).isEmpty)
    var second = StoreSamples.record("flats-immoscout", at: 60, seen: [mine])
    second.crossPosts = [mine.key: first.key]
    try store.record(second)
    let browsable = try #require(store as? any BrowsableStore)
    let links = try browsable.alsoOn([first.key, mine.key, far.key])
    #expect(links[first.key] == [AlsoOn(key: mine.key, url: mine.url)])
    #expect(links[mine.key] == [AlsoOn(key: first.key, url: first.url)])
    #expect(links[far.key] == nil)
    #expect(try browsable.history(first.key)?.alsoOn?.map(\.key) == [mine.key])
    #expect(try browsable.history(mine.key)?.alsoOn?.map(\.key) == [first.key])
    #expect(try browsable.history(far.key)?.alsoOn == nil)
    // Forgotten with its listing.
    let pruned = try store.prune(now: Self.start.addingTimeInterval(86_400 * 400), retention: 1)
    #expect(pruned["listings"] == 3)
    #expect(try browsable.alsoOn([first.key, mine.key]).isEmpty)
  }

  @Test func explainNamesTheOtherSitesListing() {
    let entry = Explanation.Entry(
      listing: Self.flat("i1", site: "immoscout"), accepted: true, reason: "",
      verdict: .alsoOn(ListingKey(site: "kleinanzeigen", id: "k1"), firstSeen: Self.start))
    #expect(
      entry.status
        == "the same flat as kleinanzeigen k1 (first seen 2026-05-03T09:20:00Z): not announced again"
    )
  }

  @Test func theLinksAreExportedAndImported() throws {
    let store = try StoreSamples.store()
    let first = Self.flat("k1")
    let mine = Self.flat("i1", site: "immoscout", north: 80)
    try store.record(StoreSamples.record("a", at: 0, seen: [first]))
    var second = StoreSamples.record("b", at: 60, seen: [mine])
    second.crossPosts = [mine.key: first.key]
    try store.record(second)
    var lines: [String] = []
    try store.export { lines.append($0) }
    let link = try #require(lines.last)
    #expect(
      link == "{\"type\":\"crossPost\",\"foundAt\":\"2026-05-03T09:21:00Z\",\"id\":\"i1\","
        + "\"otherId\":\"k1\",\"otherSite\":\"kleinanzeigen\",\"site\":\"immoscout\"}", "\(link)")
    let copy = try StoreSamples.store()
    _ = try copy.importLines(
      Data((lines.joined(separator: "\n") + "\n").utf8), file: "state.jsonl")
    #expect(try copy.alsoOn([first.key]) == [first.key: [AlsoOn(key: mine.key, url: mine.url)]])
    #expect(try copy.check().isEmpty)
  }
}
