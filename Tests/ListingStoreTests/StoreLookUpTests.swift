import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The judge's lookup reads the sightings of the search's last answer in one statement and the
/// other keys one by one; read all by key, the same keys give the same sightings. On both
/// stores.
@Suite(.serialized) struct StoreLookUpTests {
  static func at(_ minutes: Double) -> Date {
    StoreSamples.start.addingTimeInterval(minutes * 60)
  }

  static func listing(_ id: String, _ price: Double) -> Listing {
    StoreSamples.listing(id, price: price)
  }

  /// Both ways, in one read transaction each, on the store's own connection.
  static func bothWays<Store: ConnectedStore>(
    _ store: Store, search: String, keys: [ListingKey]
  ) throws -> (bulk: [ListingKey: Sighting], byKey: [ListingKey: Sighting]) {
    try store.locked { database in
      (
        try database.reading { try Store.lookUp(search, keys, database, inBulk: true) },
        try database.reading { try Store.lookUp(search, keys, database, inBulk: false) }
      )
    }
  }

  @Test(arguments: StoreKind.built)
  func theAnswerReadInBulkGivesWhatEachKeyGives(kind: StoreKind) throws {
    let store = try #require(try kind.open() as? any ConnectedStore)
    let (delivered, held, announced, leaving, back) = (
      Self.listing("a", 100), Self.listing("b", 50), Self.listing("c", 90),
      Self.listing("d", 10), Self.listing("e", 20)
    )
    // e was seen once, then left; a, b, c and d are the first answer.
    try store.record(SearchRecord(search: "bikes", now: Self.at(0), seen: [back], reached: true))
    let first = SearchRecord(
      search: "bikes", now: Self.at(10), seen: [delivered, held, announced, leaving],
      owed: [delivered], channels: ["phone", "mail"], held: [held], reached: true)
    try store.record(first)
    try store.markDelivered(search: "bikes", key: delivered.key, channel: "mail", at: Self.at(11))
    try store.markDelivered(
      search: "bikes", key: delivered.key, channel: "phone", at: Self.at(12))
    var cheaper = announced
    cheaper.price = 80
    cheaper.event = ListingEvent(kind: .priceDrop, oldPrice: 90)
    var change = SearchRecord(
      search: "bikes", now: Self.at(20), seen: [delivered, held, cheaper, leaving],
      channels: ["phone"], reached: true)
    change.changed = [cheaper]
    try store.record(change)
    // d leaves the answer; e comes back to it.
    try store.record(
      SearchRecord(
        search: "bikes", now: Self.at(30), seen: [delivered, held, cheaper, back], reached: true))
    // Another search's answer holds the same listings: none of it is read for "bikes".
    try store.record(
      SearchRecord(search: "other", now: Self.at(40), seen: [leaving, held], reached: true))

    let never = ListingKey(site: "feed", id: "never")
    let keys = [delivered, held, cheaper, leaving, back].map(\.key) + [never]
    let (bulk, byKey) = try Self.bothWays(store, search: "bikes", keys: keys)
    #expect(bulk == byKey)
    #expect(bulk.count == 5 && bulk[never] == nil)
    #expect(bulk[delivered.key]?.deliveredTo == ["mail", "phone"])
    #expect(bulk[delivered.key]?.lastSeen == Self.at(30))
    #expect(bulk[held.key]?.held == true && bulk[delivered.key]?.held == false)
    #expect(bulk[cheaper.key]?.announcedPrice == 80)
    #expect(bulk[leaving.key]?.lastSeen == Self.at(20), "last seen in the answer it left")
    #expect(bulk[back.key]?.firstSeen == Self.at(0) && bulk[back.key]?.lastSeen == Self.at(30))
    // Keys that are not all of the answer, some twice: only those asked, each once.
    let some = [held.key, leaving.key, held.key, never]
    let (fewBulk, fewByKey) = try Self.bothWays(store, search: "bikes", keys: some)
    #expect(fewBulk == fewByKey)
    #expect(Set(fewBulk.keys) == [held.key, leaving.key])
    #expect(try Self.bothWays(store, search: "nobody", keys: keys).bulk.isEmpty)
    #expect(try store.lookUp(search: "bikes", keys: keys) == byKey)
  }

  /// The content hash reads each text's bytes where they are and writes its digits itself:
  /// the same sixteen digits as walking `utf8` and `String(_:radix:)`, which stored hashes
  /// were made with.
  @Test func theContentHashIsTheOneStoresHold() {
    func walked(_ parts: [String]) -> String {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for part in parts {
        for byte in part.utf8 {
          hash ^= UInt64(byte)
          hash = hash &* 0x100_0000_01b3
        }
        hash ^= 0x1F
        hash = hash &* 0x100_0000_01b3
      }
      let digits = String(hash, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }
    var cases: [[String]] = [[], [""], ["a"], ["", ""], ["Vélo 🚲", "=100.0", "ünïcödé"]]
    cases.append([String(repeating: "long text ", count: 200), "html:<p>x</p>"])
    cases.append(["\u{0}", "\u{1F}", "\r\n"])
    cases.append(NSString(string: "bridged Übergröße").components(separatedBy: " "))
    var zeros = 0
    for number in 0..<3000 {
      let parts = ["listing \(number)", number.isMultiple(of: 3) ? "" : "=\(number)"]
      cases.append(parts)
      if ContentHash.hex(parts).hasPrefix("0") { zeros += 1 }
    }
    #expect(zeros > 0, "some hashes start with a zero digit")
    for parts in cases { #expect(ContentHash.hex(parts) == walked(parts)) }
    #expect(ContentHash.hex([]) == "cbf29ce484222325")
  }
}
