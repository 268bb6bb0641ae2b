public import ClarissaCore
public import Foundation

/// A listing on `clarissa serve`'s map: where it is and what its popup shows. Its ``listing``
/// holds what the popup needs (key, address, title, price, coordinates, photos, the facts
/// ``ListingFacts`` words); not the description nor the site's other facts.
public struct MappedListing: Sendable, Equatable {
  /// The listing, with the columns the map reads (its coordinates always set).
  public var listing: Listing
  /// The searches that saw it (of those the query asked), the newest sighting's first.
  public var searches: [String]
  /// When a person marked it viewed; nil while unviewed.
  public var viewedAt: Date?
  /// The price it was seen at before its last change; nil when it has had one price.
  public var previousPrice: Double?
}

extension ConnectedStore {
  /// Up to this many listings with coordinates are found from their own index, then sorted.
  static var fewLocated: Int { 20_000 }

  /// The listings the query finds that have coordinates, newest first, at most `query.limit`
  /// rows (one per listing and search; each listing is returned once, with its searches). The
  /// plan is chosen as ``listings(_:)`` chooses its own: from the located listings' index
  /// (schema 11) when they are few, else the newest-first walk over the sightings.
  public func mapped(_ query: ListingQuery) throws -> [MappedListing] {
    try mapped(query, fewLocated: Self.fewLocated)
  }

  /// ``mapped(_:)`` with the number of located listings below which their index is read first
  /// (the tests try both plans).
  func mapped(_ query: ListingQuery, fewLocated: Int) throws -> [MappedListing] {
    let located = try locked { database in
      try database.integer(
        "SELECT count(*) FROM (SELECT 1 FROM listings"
          + "\(database.dialect.indexedBy("listings_located")) WHERE latitude IS NOT NULL "
          + "LIMIT \(fewLocated + 1)) few")
    }
    if located == 0 { return [] }
    let byLocated = located <= fewLocated
    let rows = try locked { database in
      let dialect = database.dialect
      let from = Self.joined(from: byLocated ? "listings_located" : nil, query, dialect)
      let (conditions, values) = Self.conditions(query, dialect)
      // From the located listings' index, all the rows are read and sorted here: SQLite's sorter
      // carried every column of each and took a third of the time.
      let order =
        byLocated ? "" : "ORDER BY s.first_seen DESC, l.posted DESC, s.search, s.id LIMIT ?"
      let sql = """
        SELECT s.search, l.viewed_at,
          (SELECT p.price FROM prices p WHERE p.site = l.site AND p.id = l.id
            ORDER BY p.seen_at DESC LIMIT 1 OFFSET 1) AS previous_price,
          l.site, l.id, \(Self.mappedColumns.map { "l." + $0 }.joined(separator: ", ")),
          s.first_seen
        FROM \(from)
        WHERE l.latitude IS NOT NULL AND l.longitude IS NOT NULL AND \(conditions) \(order)
        """
      return try database.rows(sql, values + (byLocated ? [] : [.int(query.limit)])) { row in
        let search = row.text(SightingColumn.search)
        let key = ListingKey(site: row.text(ListingColumn.site), id: row.text(ListingColumn.id))
        return MappedRow(
          search: search, firstSeen: row.double(SightingColumn.firstSeen),
          posted: row.optionalDouble(MappedColumn.posted),
          item: MappedListing(
            listing: Self.mappedListing(row, key: key), searches: [search],
            viewedAt: row.optionalDate(ListingColumn.viewedAt),
            previousPrice: row.optionalDouble(PriceColumn.previousPrice)))
      }
    }
    // Their places sorted, not the rows (a listing is a large value to move).
    let order =
      byLocated
      ? Array(rows.indices.sorted { MappedRow.newer(rows[$0], rows[$1]) }.prefix(query.limit))
      : Array(rows.indices)
    var found: [MappedListing] = []
    var index: [ListingKey: Int] = [:]
    for row in order.lazy.map({ rows[$0] }) {
      let key = row.item.listing.key
      if let seen = index[key] {
        found[seen].searches.append(row.search)
      } else {
        index[key] = found.count
        found.append(row.item)
      }
    }
    return found
  }

  /// The columns the map reads, after the key (column 5 on).
  private static var mappedColumns: [String] { MappedColumn.allCases.map(\.rawValue) }

  private static func mappedListing(_ row: some StoreRow, key: ListingKey) -> Listing {
    typealias Column = MappedColumn
    var listing = Listing(
      id: key.id, site: key.site, url: row.text(Column.url), title: row.text(Column.title))
    listing.price = row.optionalDouble(Column.price)
    listing.currency = row.optionalText(Column.currency)
    listing.coordinates = Coordinates(
      latitude: row.double(Column.latitude), longitude: row.double(Column.longitude))
    let images = row.text(Column.images)
    // Most rows have none: no JSON to read for them.
    if images != "[]", !images.isEmpty {
      listing.imageURLs = StoreJSON.strings(images) ?? []
    }
    listing.rooms = row.optionalDouble(Column.rooms)
    listing.bedrooms = row.optionalDouble(Column.bedrooms)
    listing.bathrooms = row.optionalDouble(Column.bathrooms)
    listing.floorArea = row.optionalDouble(Column.floorArea)
    listing.floorAreaUnit = row.optionalText(Column.floorAreaUnit).flatMap(AreaUnit.init(rawValue:))
    listing.postcode = row.optionalText(Column.postcode)
    listing.address = row.optionalText(Column.address)
    listing.location = row.optionalText(Column.location)
    return listing
  }
}

extension ListingStore {
  /// ``mapped(_:)`` by the newest-first walk over the sightings, whatever the located listings'
  /// count (`.ci/bench map` sets it beside the plan chosen).
  package func mappedByWalk(_ query: ListingQuery) throws -> [MappedListing] {
    try mapped(query, fewLocated: 0)
  }
}

/// A row of the map's query, with what orders it: newest sighting first, then newest post (a
/// post without a time last), then by search and id, as the SQL of the list orders its own.
private struct MappedRow {
  var search: String
  var firstSeen: Double
  var posted: Double?
  var item: MappedListing

  static func newer(_ a: MappedRow, _ b: MappedRow) -> Bool {
    if a.firstSeen != b.firstSeen { return a.firstSeen > b.firstSeen }
    if a.posted != b.posted { return (a.posted ?? -.infinity) > (b.posted ?? -.infinity) }
    if a.search != b.search { return a.search < b.search }
    return a.item.listing.id < b.item.listing.id
  }
}

/// The `listings` columns the map reads: the facts its popup shows (``ListingField/all``'s
/// columns of those names), and the date the site gave (`posted`, for the order).
private enum MappedColumn: String, TableColumns {
  case url, title, price, currency, latitude, longitude, images, rooms, bedrooms, bathrooms
  case floorArea = "floor_area", floorAreaUnit = "floor_area_unit", postcode, address, location
  case posted
}
