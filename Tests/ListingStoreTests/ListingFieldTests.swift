import FixtureSupport
import Foundation
import Testing

@testable import ClarissaCore
@testable import ListingStore

/// A listing's facts are declared once (`ListingField.all`): the stores' columns, what they
/// write and read back, `state export` and `state import`, and the JSON all come from that list,
/// so a listing with every fact set comes back whole through each of them.
@Suite(.serialized) struct ListingFieldTests {
  /// Every fact set, none at a default.
  static let full: Listing = {
    var listing = StoreSamples.listing("f1")
    listing.rooms = 2.5
    listing.bedrooms = 1
    listing.bathrooms = 1.5
    listing.floorArea = 46.45
    listing.floorAreaUnit = .squareFeet
    listing.priceHigh = (listing.price ?? 0) + 250
    listing.roomsHigh = 3.5
    listing.floorAreaHigh = 92.9
    listing.postcode = "94110"
    listing.address = "24th St & Mission St"
    listing.facts = ["laundry": "w/d in unit", "pets": "cats are OK - purrr"]
    listing.sellerSince = Date(timeIntervalSince1970: 1_780_000_000)
    return listing
  }()

  @Test func theListCoversEveryFactOfAListingWithAValue() {
    // A listing with no fact set, and the full one: every column of the list tells them apart.
    let empty = Listing(id: "f1", site: "feed", url: "", title: "")
    for field in ListingField.all {
      #expect(
        field.values(empty) != field.values(Self.full),
        "'\(field.json)' reads no fact of the listing")
    }
    let names = ListingField.allColumns.map(\.name)
    #expect(Set(names).count == names.count, "a column is declared twice: \(names)")
  }

  @Test(arguments: StoreKind.built)
  func theStoreHasEveryDeclaredColumnOfItsType(kind: StoreKind) throws {
    let store = try #require(try kind.open() as? any ConnectedStore)
    let declared = try store.locked { database in
      try database.rows(
        kind == .sqlite
          ? "SELECT name, type, \"notnull\" FROM pragma_table_info('listings')"
          : "SELECT column_name, data_type, CASE is_nullable WHEN 'NO' THEN 1 ELSE 0 END "
            + "FROM information_schema.columns WHERE table_name = 'listings'", []
      ) { ($0.text(0), $0.text(1).lowercased(), $0.int(2) == 1) }
    }
    for column in ListingField.allColumns {
      let type = ListingColumns.type(column.kind, postgres: kind == .postgres).lowercased()
      let found = declared.first { $0.0 == column.name }
      #expect(found != nil, "no column '\(column.name)' in the \(kind) store")
      if let found {
        #expect(type.hasPrefix(found.1), "'\(column.name)' is \(found.1), declared \(type)")
        #expect(found.2 == type.contains("not null"), "'\(column.name)' nullability")
      }
    }
  }

  @Test(arguments: StoreKind.built)
  func aListingComesBackWholeFromTheStore(kind: StoreKind) throws {
    let store = try #require(try kind.open() as? any BrowsableStore)
    try store.record(
      SearchRecord(search: "bikes", now: StoreSamples.start, seen: [Self.full], reached: true))
    let history = try #require(try store.history(Self.full.key))
    #expect(history.listing == Self.full)
  }

  @Test func aListingComesBackWholeFromAnExportAndItsJSON() throws {
    let line = try StoreLine.text("listing", StoreLine.listing(Self.full))
    let imported = try ImportedLine(Data(line.utf8), file: "export.jsonl", line: 1).listing()
    #expect(imported == Self.full)
    let json = try #require(ListingJSON.data(Self.full))
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(try decoder.decode(Listing.self, from: json) == Self.full)
  }

  /// The facts a later schema added leave a listing's content hash what it was while a site
  /// gives none of them (a store upgraded to them rewrites nothing), and change it when it does.
  @Test func laterFactsChangeTheContentHashOnlyWhenTheyHaveAValue() {
    let plain = StoreSamples.listing("f1")
    // The hash the list gave before rooms, areas and places were declared (schema 8).
    #expect(ListingField.contentHash(plain) == Self.hashBeforeFacts)
    var withRooms = plain
    withRooms.rooms = 2
    #expect(ListingField.contentHash(withRooms) != Self.hashBeforeFacts)
    var otherFacts = withRooms
    otherFacts.facts = ["pets": "no"]
    #expect(ListingField.contentHash(otherFacts) != ListingField.contentHash(withRooms))
  }

  /// The content hash is fed piece by piece (no list of parts, no joined texts) and gives the
  /// digits the list of parts gave, which stores hold: for listings with and without each fact,
  /// pending HTML, several photos, texts beyond ASCII.
  @Test func theHashFedPieceByPieceIsTheHashOfTheListOfParts() {
    func listOfParts(_ listing: Listing) -> String {
      var (parts, lists, later): ([String], [String], [String]) = ([], [], [])
      for field in ListingField.all {
        if field.json == "description" {
          parts.append(
            listing.descriptionHTML.map { "html:" + $0 } ?? "text:" + listing.description)
          continue
        }
        for (column, value) in zip(field.columns, field.values(listing)) {
          if field.isLater {
            if let text = value.hashText { later.append(column.name + "=" + text) }
            continue
          }
          switch (column.kind, value) {
          case (.text, .text(let text)), (.textOrEmpty, .text(let text)): parts.append(text ?? "")
          case (_, .text(let text)): parts.append(text.map { "=" + $0 } ?? "")
          case (_, .number(let number)): parts.append(number.map { "=\($0)" } ?? "")
          case (_, .time(let date)):
            parts.append(date.map { "=\($0.timeIntervalSince1970)" } ?? "")
          case (_, .texts(let texts)): lists += texts
          case (_, .textMap(let map)):
            lists += map.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
          }
        }
      }
      return ContentHash.hex(parts + lists + later)
    }
    var listings = [
      StoreSamples.listing("f1"), Self.full, Listing(id: "", site: "", url: "", title: ""),
    ]
    var pending = Self.full
    pending.descriptionHTML = "<p>Zwei Zimmer, Balkon – 850 €</p>"
    pending.imageURLs = ["https://a.example/1.jpg", "https://a.example/2.jpg", ""]
    listings.append(pending)
    var sparse = Listing(id: "ü", site: "feed", url: "https://b.example/ä", title: "Vélo 🚲")
    sparse.posted = Date(timeIntervalSince1970: 1_777_796_400.5)
    sparse.price = -0.0
    sparse.floorArea = 1e-7
    sparse.facts = ["z": "", "a": "\u{1F}"]
    listings.append(sparse)
    for number in 0..<500 {
      var listing = number.isMultiple(of: 2) ? Self.full : StoreSamples.listing("n\(number)")
      listing.price = number.isMultiple(of: 3) ? nil : Double(number) / 7
      listing.title += String(repeating: "x", count: number % 40)
      listing.rooms = number.isMultiple(of: 5) ? Double(number) : nil
      listings.append(listing)
    }
    for listing in listings {
      #expect(ListingField.contentHash(listing) == listOfParts(listing), "\(listing.id)")
    }
  }

  /// The FNV-1a of that listing's parts as the list at 054d6db made them (url, title,
  /// `text:` and the description, `=100.0`, `=USD`, `=1777796400.0`, `=Mission`, `=sfc`,
  /// `=37.75`, `=-122.41`, `=bik`, then the photo), worked out apart from this code.
  static let hashBeforeFacts = "87d8ef03258f0b5a"

  @Test func anExportLineMissingAFactAnImportNeedsIsRefusedByName() throws {
    var object = StoreLine.listing(Self.full)
    object["title"] = nil
    let line = try StoreLine.text("listing", object)
    #expect {
      try ImportedLine(Data(line.utf8), file: "export.jsonl", line: 3).listing()
    } throws: { "\($0)".contains("line 3 needs 'title' as a text") }
  }
}
