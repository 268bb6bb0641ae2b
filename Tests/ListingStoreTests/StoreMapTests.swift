import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The map's query (``ConnectedStore/mapped(_:)``) on both stores and by both plans: from the
/// located listings' index (schema 10) and by the newest-first walk over the sightings.
@Suite(.serialized) struct StoreMapTests {

  func mapped(_ store: any ListingMemory, _ query: ListingQuery, few: Int) throws
    -> [MappedListing]
  {
    if let store = store as? ListingStore { return try store.mapped(query, fewLocated: few) }
    #if PostgreSQL
      if let store = store as? PostgresStore { return try store.mapped(query, fewLocated: few) }
    #endif
    throw StoreProblem(message: "not a connected store")
  }

  @Test(arguments: StoreKind.built)
  func theMapFindsTheListingsWithCoordinatesByEitherPlan(kind: StoreKind) throws {
    let store = try kind.open()
    var red = StoreSamples.listing("1", price: 100, title: "Red bike")
    var nowhere = StoreSamples.listing("2", price: 300, title: "Blue bike")
    nowhere.coordinates = nil
    let lamp = StoreSamples.listing("3", price: 40, title: "Desk lamp")
    red.rooms = 2
    red.postcode = "94110"
    try store.record(StoreSamples.record("bikes", at: 0, seen: [red, nowhere]))
    try store.record(StoreSamples.record("lamps", at: 60, seen: [red]))
    try store.record(StoreSamples.record("lamps", at: 90, seen: [lamp]))
    red.price = 90
    try store.record(StoreSamples.record("bikes", at: 120, seen: [red]))
    for few in [0, 100] {
      var query = ListingQuery()
      query.limit = 10
      let all = try mapped(store, query, few: few)
      #expect(all.map(\.listing.id) == ["3", "1"], "newest first, each once (few: \(few))")
      let shared = try #require(all.last)
      #expect(shared.searches == ["lamps", "bikes"], "the newest sighting's first")
      #expect(shared.previousPrice == 100 && shared.listing.price == 90)
      #expect(shared.listing.rooms == 2 && shared.listing.postcode == "94110")
      #expect(shared.listing.coordinates == Coordinates(latitude: 37.75, longitude: -122.41))
      #expect(shared.listing.imageURLs == ["https://feeds.example.org/1.jpg"])
      #expect(shared.listing.description.isEmpty, "the description is not read")
      query.searches = ["bikes"]
      #expect(try mapped(store, query, few: few).map(\.listing.id) == ["1"])
      query.searches = []
      query.maxPrice = 50
      #expect(try mapped(store, query, few: few).map(\.listing.id) == ["3"])
      query.maxPrice = nil
      query.limit = 1
      #expect(try mapped(store, query, few: few).map(\.listing.id) == ["3"])
    }
  }

  /// Photo lists read by splitting at quotes read as Foundation's parser reads them, and what
  /// that shortcut cannot read goes to the parser.
  @Test(arguments: [
    "[]", "[\"https://a.example/1.jpg\"]", "[\"a\",\"b\",\"c\"]", "[\"\"]", "[ \"a\" ]",
    "[\"a\" ,\"b\"]", "[\"with \\\"quote\\\"\"]", "[\"\\u00e9t\\u00e9\"]", "[\"été\"]", "[,\"a\"]",
    "[\"a\"", "\"a\"", "{}", "", "[1]", "[\"a\"]x",
  ])
  func photoListsReadAsTheParserReadsThem(text: String) {
    let parsed = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String]
    #expect(StoreJSON.strings(text) == parsed, "\(text)")
  }
}
