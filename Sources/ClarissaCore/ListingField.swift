public import Foundation

/// One fact a listing keeps, declared once: ``all`` is the one list from which the stores'
/// columns and statements (SQLite and PostgreSQL), `state export` and `state import`, the
/// content hash and the listing's JSON are made. Adding a fact is a line in ``all``, a
/// migration in each store that adds its columns (`ListingColumns.added(in:)`), and the places
/// that show it.
///
/// The key (`site`, `id`) and what a store keeps beside the facts (first and last seen, the
/// fingerprint, the content hash, viewed) are not facts: the stores declare them.
public struct ListingField: Sendable {
  /// How a column's value is kept: its SQL type in each store, its form in an export.
  public enum Kind: Sendable {
    /// Text that every listing has (an import must give it).
    case text
    /// Text that every listing has, empty when an import leaves it out.
    case textOrEmpty
    /// Text, or nothing.
    case optionalText
    /// A number, or nothing.
    case number
    /// A time (seconds since 1970 in the stores, ISO 8601 in an export), or nothing.
    case time
    /// A list of texts (a JSON array in the stores, `[]` when empty).
    case texts
    /// Texts by name (a JSON object in the stores, `{}` when empty; left out of an export and
    /// of the JSON when empty).
    case textMap
  }

  /// A column's value, as the listing holds it.
  public enum Value: Sendable, Equatable {
    case text(String?)
    case number(Double?)
    case time(Date?)
    case texts([String])
    case textMap([String: String])
  }

  /// One stored column: its name in both stores and in `state export`.
  public struct Column: Sendable {
    /// The column's and the export member's name.
    public let name: String
    /// What it holds.
    public let kind: Kind
  }

  /// The columns, in the stores' order (most facts have one; coordinates have two).
  public let columns: [Column]
  /// The member of the listing's JSON (``Listing``'s `Codable` form) that holds it.
  public let json: String
  /// The schema versions that added its columns: SQLite's `user_version`, PostgreSQL's
  /// `clarissa_schema`.
  public let since: (sqlite: Int, postgres: Int)
  /// The values of ``columns`` for a listing.
  public let values: @Sendable (Listing) -> [Value]
  /// Sets the fact on a listing from the values of ``columns``.
  public let set: @Sendable (inout Listing, [Value]) -> Void
  /// How it reads in the content hash, when not as its values: a part in two pieces.
  let hashPart: (@Sendable (Listing) -> (String, String))?
  /// The one column's value, for a fact of one column (read without making a list of it).
  let single: (@Sendable (Listing) -> Value)?

  /// A fact kept in one column named `name`.
  static func single(
    _ name: String, _ kind: Kind, json: String? = nil, since: (sqlite: Int, postgres: Int) = (1, 1),
    hash: (@Sendable (Listing) -> (String, String))? = nil,
    get: @escaping @Sendable (Listing) -> Value,
    set: @escaping @Sendable (inout Listing, Value) -> Void
  ) -> ListingField {
    ListingField(
      columns: [Column(name: name, kind: kind)], json: json ?? name, since: since,
      values: { [get($0)] }, set: { listing, values in values.first.map { set(&listing, $0) } },
      hashPart: hash, single: get)
  }

  /// Every fact a listing keeps, in the order of the stores' columns.
  public static let all: [ListingField] = [
    .single("url", .text, get: { .text($0.url) }, set: { $0.url = $1.text ?? "" }),
    .single("title", .text, get: { .text($0.title) }, set: { $0.title = $1.text ?? "" }),
    .single(
      "description", .textOrEmpty,
      // The description as the site gave it: a listing seen again arrives with its HTML
      // pending, and is unchanged if that HTML is.
      hash: { $0.descriptionHTML.map { ("html:", $0) } ?? ("text:", $0.description) },
      get: { .text($0.description) }, set: { $0.description = $1.text ?? "" }),
    .single("price", .number, get: { .number($0.price) }, set: { $0.price = $1.number }),
    .single(
      "currency", .optionalText, get: { .text($0.currency) }, set: { $0.currency = $1.text }),
    .single("posted", .time, get: { .time($0.posted) }, set: { $0.posted = $1.time }),
    .single(
      "location", .optionalText, get: { .text($0.location) }, set: { $0.location = $1.text }),
    .single("area", .optionalText, get: { .text($0.area) }, set: { $0.area = $1.text }),
    ListingField(
      columns: [Column(name: "latitude", kind: .number), Column(name: "longitude", kind: .number)],
      json: "coordinates", since: (1, 1),
      values: { [.number($0.coordinates?.latitude), .number($0.coordinates?.longitude)] },
      set: { listing, values in
        guard values.count == 2, let latitude = values[0].number, let longitude = values[1].number
        else { return listing.coordinates = nil }
        listing.coordinates = Coordinates(latitude: latitude, longitude: longitude)
      }, hashPart: nil, single: nil),
    .single(
      "images", .texts, json: "imageURLs", get: { .texts($0.imageURLs) },
      set: { $0.imageURLs = $1.texts }),
    .single(
      "category", .optionalText, get: { .text($0.category) }, set: { $0.category = $1.text }),
    // What the listing describes (issue 27: SQLite schema 9, PostgreSQL 5).
    .single(
      "rooms", .number, since: facts, get: { .number($0.rooms) }, set: { $0.rooms = $1.number }),
    .single(
      "bedrooms", .number, since: facts, get: { .number($0.bedrooms) },
      set: { $0.bedrooms = $1.number }),
    .single(
      "bathrooms", .number, since: facts, get: { .number($0.bathrooms) },
      set: { $0.bathrooms = $1.number }),
    .single(
      "floor_area", .number, json: "floorArea", since: facts, get: { .number($0.floorArea) },
      set: { $0.floorArea = $1.number }),
    .single(
      "floor_area_unit", .optionalText, json: "floorAreaUnit", since: facts,
      get: { .text($0.floorAreaUnit?.rawValue) },
      set: { $0.floorAreaUnit = $1.text.flatMap(AreaUnit.init(rawValue:)) }),
    .single(
      "postcode", .optionalText, since: facts, get: { .text($0.postcode) },
      set: { $0.postcode = $1.text }),
    .single(
      "address", .optionalText, since: facts, get: { .text($0.address) },
      set: { $0.address = $1.text }),
    .single(
      "facts", .textMap, since: facts, get: { .textMap($0.facts) }, set: { $0.facts = $1.textMap }),
    // The tops of prices, rooms and floor areas given as ranges (issue 41: SQLite schema 17,
    // PostgreSQL 13).
    .single(
      "price_high", .number, json: "priceHigh", since: ranges, get: { .number($0.priceHigh) },
      set: { $0.priceHigh = $1.number }),
    .single(
      "rooms_high", .number, json: "roomsHigh", since: ranges, get: { .number($0.roomsHigh) },
      set: { $0.roomsHigh = $1.number }),
    .single(
      "floor_area_high", .number, json: "floorAreaHigh", since: ranges,
      get: { .number($0.floorAreaHigh) }, set: { $0.floorAreaHigh = $1.number }),
    // When the seller's account was made, where a site says (issue 43: OLX's API, `user.created`;
    // SQLite schema 18, PostgreSQL 14).
    .single(
      "seller_since", .time, json: "sellerSince", since: seller,
      get: { .time($0.sellerSince) }, set: { $0.sellerSince = $1.time }),
  ]

  /// The schema versions that added rooms, areas, places and the other facts.
  static let facts = (sqlite: 9, postgres: 5)

  /// The schema versions that added the tops of ranges.
  static let ranges = (sqlite: 17, postgres: 13)

  /// The schema versions that added the seller's account date.
  static let seller = (sqlite: 19, postgres: 15)

  /// Whether a later schema added it (its part in the content hash is named and only there when
  /// it has a value, so that a store's hashes stay what they were until a site gives the fact).
  var isLater: Bool { since.sqlite > 1 }

  /// Every column of every fact, in order.
  public static let allColumns: [Column] = all.flatMap(\.columns)

  /// Sixteen hex digits naming every fact of a listing as a run stores it: equal hashes, nothing
  /// to write. Each fact in order (a text as it is, a value that may be absent as `=value` or
  /// nothing), the lists' texts last; then each later fact that has a value, as
  /// `name=value` (a map's entries by name).
  public static func contentHash(_ listing: Listing) -> String {
    // Fed piece by piece, in the parts' order: no list of parts, no joined text.
    var hash = ContentHash.Parts()
    var lists: [String] = []
    var later: [(name: String, text: String)] = []
    for field in all {
      if let part = field.hashPart {
        let (prefix, text) = part(listing)
        hash.add(prefix)
        hash.part(text)
      } else if let value = field.single {
        hashed(value(listing), field.columns[0], later: field.isLater, &hash, &lists, &later)
      } else {
        for (column, value) in zip(field.columns, field.values(listing)) {
          hashed(value, column, later: field.isLater, &hash, &lists, &later)
        }
      }
    }
    for text in lists { hash.part(text) }
    for (name, text) in later {
      hash.add(name)
      hash.add("=")
      hash.part(text)
    }
    return hash.hex
  }

  /// One column's value in the content hash: a part, texts for the lists, or a later fact.
  private static func hashed(
    _ value: Value, _ column: Column, later isLater: Bool, _ hash: inout ContentHash.Parts,
    _ lists: inout [String], _ later: inout [(name: String, text: String)]
  ) {
    if isLater {
      if let text = value.hashText { later.append((column.name, text)) }
      return
    }
    switch (column.kind, value) {
    case (.text, .text(let text)), (.textOrEmpty, .text(let text)): hash.part(text ?? "")
    case (_, .text(let text)): valued(text)
    case (_, .number(let number)): valued(number?.description)
    case (_, .time(let date)): valued(date?.timeIntervalSince1970.description)
    case (_, .texts(let texts)): lists += texts
    case (_, .textMap(let map)): lists += map.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
    }
    /// A value that may be absent: `=value`, or an empty part.
    func valued(_ text: String?) {
      if let text {
        hash.add("=")
        hash.add(text)
      }
      hash.end()
    }
  }
}

extension ListingField.Value {
  /// The text, if a text.
  public var text: String? { if case .text(let text) = self { text } else { nil } }
  /// The number, if a number.
  public var number: Double? { if case .number(let number) = self { number } else { nil } }
  /// The time, if a time.
  public var time: Date? { if case .time(let date) = self { date } else { nil } }
  /// The texts, if a list (else none).
  public var texts: [String] { if case .texts(let texts) = self { texts } else { [] } }
  /// The texts by name, if a map (else none).
  public var textMap: [String: String] { if case .textMap(let map) = self { map } else { [:] } }

  /// Whether it holds nothing (an absent text, number or time, an empty map; a list is never
  /// absent).
  public var isAbsent: Bool {
    switch self {
    case .text(let text): text == nil
    case .number(let number): number == nil
    case .time(let date): date == nil
    case .texts: false
    case .textMap(let map): map.isEmpty
    }
  }

  /// The value as a later fact's part of the content hash; nil when absent.
  var hashText: String? {
    switch self {
    case .text(let text): text
    case .number(let number): number.map { "\($0)" }
    case .time(let date): date.map { "\($0.timeIntervalSince1970)" }
    case .texts(let texts): texts.isEmpty ? nil : texts.joined(separator: "\u{1F}")
    case .textMap(let map):
      map.isEmpty
        ? nil
        : map.sorted { $0.key < $1.key }.map { "\($0.key)\u{1F}\($0.value)" }
          .joined(separator: "\u{1E}")
    }
  }
}
