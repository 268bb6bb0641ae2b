import ClarissaCore
import Foundation
import ListingStore
import Testing

/// The stores a conformance test runs on: SQLite always; PostgreSQL (a real server on
/// 127.0.0.1, ``LoopbackPostgres``) in a build with the trait.
public enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgres

  public var testDescription: String { rawValue }

  /// The kinds this build has.
  public static var built: [StoreKind] {
    #if PostgreSQL
      [.sqlite, .postgres]
    #else
      [.sqlite]
    #endif
  }

  /// Where a new, empty store of this kind is: a file path, or a PostgreSQL URL.
  public func location() throws -> String {
    switch self {
    case .sqlite: return try StoreSamples.store().path
    case .postgres: return try LoopbackPostgres.shared().database("conf")
    }
  }

  /// A new, empty store of this kind.
  public func open() throws -> any ListingMemory {
    try StoreSamples.open(self, at: location())
  }
}

/// What the store's tests, and the engine's tests that read a store, start from: new stores,
/// sample listings, a store with something in every table, and its export.
public enum StoreSamples {
  public static let start = Date(timeIntervalSince1970: 1_777_800_000)

  /// A new store in a folder of its own.
  public static func store() throws -> ListingStore {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-test-\(UUID().uuidString)/clarissa.db"
    ).path
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    return try ListingStore.open(path: path, readOnly: false)
  }

  /// A new, empty store of `kind` and where it is.
  public static func open(_ kind: StoreKind) throws -> (any BrowsableStore, String) {
    let location = try kind.location()
    return (try open(kind, at: location), location)
  }

  /// The store of `kind` at `location`.
  public static func open(_ kind: StoreKind, at location: String) throws -> any BrowsableStore {
    switch kind {
    case .sqlite: return try ListingStore.open(path: location, readOnly: false)
    case .postgres:
      #if PostgreSQL
        return try PostgresStore.open(url: location, worker: "tests")
      #else
        throw LoopbackPostgres.Unavailable(description: "built without PostgreSQL")
      #endif
    }
  }

  public static func listing(_ id: String, price: Double? = 100, title: String = "Bike") -> Listing
  {
    Listing(
      id: id, site: "feed", url: "https://feeds.example.org/\(id)", title: title,
      description: "line one\nline \"two\"", price: price, currency: "USD",
      posted: start.addingTimeInterval(-3600), location: "Mission", area: "sfc",
      coordinates: Coordinates(latitude: 37.75, longitude: -122.41),
      imageURLs: ["https://feeds.example.org/\(id).jpg"], category: "bik")
  }

  /// A flat offered at `price`, its floor area and bedrooms when given.
  public static func flat(
    _ id: String, _ price: Double, currency: String = "EUR", area: Double? = nil,
    bedrooms: Double? = nil, posted: Date? = nil
  ) -> Listing {
    var listing = Listing(
      id: id, site: "feed", url: "https://flats.example.org/\(id)", title: "Flat \(id)",
      price: price, currency: currency, posted: posted)
    listing.floorArea = area
    listing.bedrooms = bedrooms
    return listing
  }

  /// A search's answer `offset` seconds after ``start``, owed to the channel "phone".
  public static func record(
    _ search: String, at offset: Double, seen: [Listing] = [], owed: [Listing] = [],
    held: [Listing] = [], answered: Set<String> = [], asked: Set<String> = []
  ) -> SearchRecord {
    SearchRecord(
      search: search, now: start.addingTimeInterval(offset), seen: seen, owed: owed,
      channels: ["phone"], held: held, recent: seen, answered: answered, asked: asked,
      reached: true)
  }

  /// Two searches, a price change, a delivery, a refusal, a held listing, validators and a
  /// cool-down: something of every table.
  public static func filled(_ store: ListingStore) throws {
    let a = listing("a")
    let b = listing("b", price: nil)
    try store.record(
      SearchRecord(
        search: "bikes", now: start, seen: [a, b], owed: [a, b], channels: ["phone", "mail"],
        recent: [a, b], answered: ["https://feeds.example.org/feed"],
        asked: ["https://feeds.example.org/feed"],
        validators: ["https://feeds.example.org/feed": Validators(etag: "\"e1\"")], reached: true))
    var cheaper = a
    cheaper.price = 80
    let later = start.addingTimeInterval(86_400.5)
    try store.record(
      SearchRecord(
        search: "cheap-bikes", now: later, seen: [cheaper, listing("c")], held: [listing("c")],
        asked: ["https://feeds.example.org/cheap"], reached: false))
    try store.markDelivered(search: "bikes", key: a.key, channel: "phone", at: later)
    _ = try store.markFailed(search: "bikes", key: b.key, channel: "mail", error: "503", at: later)
    try store.setCooldown(
      Cooldown(
        until: start.addingTimeInterval(86_400), reason: "blocked", since: start, status: 403,
        answer: "Forbidden", urls: ["https://blocked.example.org/x"]),
      host: "blocked.example.org")
  }

  /// The store's export, line by line.
  public static func lines(_ store: ListingStore) throws -> [String] {
    var lines: [String] = []
    try store.export { lines.append($0) }
    return lines
  }

  public static func data(_ lines: [String]) -> Data { Data(lines.map { $0 + "\n" }.joined().utf8) }
}
