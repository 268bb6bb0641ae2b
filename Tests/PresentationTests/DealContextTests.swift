import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore
@testable import Presentation

/// Deal context (issue 28): the lines said of a listing, their numbers checked against SQL
/// written here, on the SQLite file, without the store's statements (the median by sorting
/// with LIMIT/OFFSET, the earlier prices by the repost links read by hand).
@Suite(.serialized) struct DealContextTests {
  static let start = StoreSamples.start
  static let day: TimeInterval = 86_400
  static let now = start.addingTimeInterval(120 * day)

  static func record(
    _ store: any ListingMemory, day offset: Double, _ seen: [Listing],
    reposts: [String: String] = [:], search: String = "flats"
  ) throws {
    var record = SearchRecord(
      search: search, now: start.addingTimeInterval(offset * day), seen: seen, recent: seen,
      reached: true)
    for (id, original) in reposts { record.reposts[ListingKey(site: "feed", id: id)] = original }
    try store.record(record)
  }

  /// The story: listings too old to compare (day 0), the market (day 100: EUR with and without
  /// floor areas, USD), an original that drops (day 100, 110), and two reposts of it (day 115,
  /// day 120, now).
  static func market(_ store: any ListingMemory) throws {
    try record(store, day: 0, (1...6).map { StoreSamples.flat("old\($0)", Double($0) * 10) })
    var market: [Listing] = []
    for index in 1...9 {
      let price = index <= 6 ? 700 + 37 * Double(index) : 500 + 61 * Double(index)
      let area: Double? = index <= 6 ? 40 + 5 * Double(index) : nil
      let bedrooms: Double? = index <= 6 ? nil : 2
      market.append(StoreSamples.flat("p\(index)", price, area: area, bedrooms: bedrooms))
    }
    market += [
      StoreSamples.flat("u1", 900, currency: "USD"), StoreSamples.flat("u2", 950, currency: "USD"),
    ]
    try record(store, day: 100, market + [StoreSamples.flat("O", 450)])
    try record(store, day: 110, [StoreSamples.flat("O", 420)])
    try record(store, day: 115, [StoreSamples.flat("R1", 400)], reposts: ["R1": "O"])
    try record(
      store, day: 120,
      [
        StoreSamples.flat("R2", 390, posted: now.addingTimeInterval(-3600)),
        StoreSamples.flat("Q", 1_000, area: 50),
      ],
      reposts: ["R2": "O"])
  }

  @Test func theLinesMatchWhatSQLWrittenHereComputes() throws {
    let store = try StoreSamples.store()
    try Self.market(store)
    let book = DealContextBook(memory: store, now: Self.now, timeZone: TimeZone(identifier: "UTC")!)
    let (r2, q) = (
      StoreSamples.flat("R2", 390, posted: Self.now.addingTimeInterval(-3600)),
      StoreSamples.flat("Q", 1_000, area: 50)
    )
    let lines = try book.lines(for: [r2, q], search: "flats")

    let database = try SQLiteDatabase(path: store.path, readOnly: true)
    // The item's posts: the original and every sighting that names it.
    let family = try database.rows(
      "SELECT id FROM sightings WHERE search = 'flats' AND (id = 'O' OR repost_of = 'O')"
    ) { $0.text(0) }.sorted()
    #expect(family == ["O", "R1", "R2"])
    let idList = family.map { "'\($0)'" }.joined(separator: ",")
    let prices = try database.rows(
      "SELECT id, price, seen_at FROM prices WHERE site = 'feed' AND id IN (\(idList)) "
        + "ORDER BY seen_at"
    ) { ($0.text(0), $0.double(1), Date(timeIntervalSince1970: $0.double(2))) }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "d MMM"
    // Every price but the present one (R2's, the last row), oldest first.
    let earlier = prices.dropLast().map { id, price, at in
      "€\(Int(price)) on \(formatter.string(from: at))" + (id == "R2" ? "" : " as \(id)")
    }
    #expect(earlier.count == 3)
    let firstSeen = try database.rows(
      "SELECT min(first_seen) FROM sightings WHERE search = 'flats' AND id IN (\(idList))"
    ) { Date(timeIntervalSince1970: $0.double(0)) }[0]
    let span = Int((Self.now.timeIntervalSince(firstSeen) / Self.day).rounded(.up))
    let cutoff = Self.now.addingTimeInterval(-90 * Self.day).timeIntervalSince1970
    // The market: the search's EUR listings last seen in 90 days, not reposts, the item's posts
    // left out; the median by sorting.
    let seen = """
      SELECT l.price AS price, l.floor_area AS area, l.id AS id FROM sightings s, listings l
      WHERE l.site = s.site AND l.id = s.id AND s.search = 'flats' AND s.repost_of IS NULL
        AND l.currency = 'EUR' AND l.price > 0 AND l.id NOT IN (\(idList))
        AND max(s.last_seen, CASE WHEN s.in_answer THEN
          (SELECT answered_at FROM answers a WHERE a.search = s.search) ELSE 0 END) >= \(cutoff)
      """
    func median(_ value: String, _ filter: String) throws -> (Double, Int) {
      let rows = "SELECT \(value) AS v FROM (\(seen)) WHERE \(filter)"
      let count = try database.integer("SELECT count(*) FROM (\(rows))")
      let median = try database.rows(
        "SELECT avg(v) FROM (SELECT v FROM (\(rows)) ORDER BY v LIMIT 2 - \(count) % 2 "
          + "OFFSET (\(count) - 1) / 2)"
      ) { $0.double(0) }[0]
      return (median, count)
    }
    let (whole, count) = try median("price", "1")
    #expect(count == 10, "p1...p9 and Q; the old, the USD and the item's posts left out")
    let percent = Int(((390 - whole) / whole * 100).rounded())
    let expected = [
      "seen before: " + earlier.joined(separator: ", "),
      "reposted 2 times in \(span) days",
      "\(-percent)% below the median of \(count) (€\(Int(whole.rounded())))",
      "on the market 20 days (first seen \(formatter.string(from: firstSeen)))",
    ]
    #expect(lines[r2.key] == expected)

    let (perArea, sized) = try median("price / area", "area > 0 AND id != 'Q'")
    #expect(sized == 6)
    let qPercent = Int(((1_000.0 / 50 - perArea) / perArea * 100).rounded())
    let cents = (perArea * 100).rounded() / 100
    #expect(
      lines[q.key] == [
        "\(qPercent)% \(qPercent < 0 ? "below" : "above") the median per m² of \(sized) "
          + "(\(Money.format(cents, "EUR"))/m²)"
      ])
  }

  @Test(arguments: StoreKind.built)
  func tooFewToCompareSaysNothingAndBedroomsNarrowWhenEnoughShareThem(kind: StoreKind) throws {
    let store = try kind.open()
    try Self.record(
      store, day: 119.5, (1...4).map { StoreSamples.flat("s\($0)", 500 + Double($0)) })
    let lone = StoreSamples.flat("s1", 501)
    let book = DealContextBook(memory: store, now: Self.now)
    let none = try book.lines(for: [lone], search: "flats")
    #expect(none.isEmpty, "3 others: below the minimum")
    #expect(DealContext.minimumPeers == 5)
    let twos = (1...5).map { StoreSamples.flat("b\($0)", Double(1_000 * $0), bedrooms: 2) }
    try Self.record(store, day: 119.8, twos + [StoreSamples.flat("b9", 100_000, bedrooms: 3)])
    let asked = StoreSamples.flat("b1", 1_000, bedrooms: 2)
    let said = try DealContextBook(memory: store, now: Self.now).lines(
      for: [asked], search: "flats")
    // The other four twos and the rest: only 4 with 2 bedrooms, so all 9 others are the market.
    #expect(said[asked.key] == ["50% below the median of 9 (€2,000)"])
  }
}

/// The cost of a batch's context over one search of 50,000 listings seen in 90 days (the
/// figure in docs/notifications.md); run with `CLARISSA_CONTEXT_FIGURES=1`.
@Suite(.serialized) struct DealContextFigures {
  @Test(.enabled(if: ProcessInfo.processInfo.environment["CLARISSA_CONTEXT_FIGURES"] == "1"))
  func aBatchOverFiftyThousandListings() throws {
    let store = try StoreSamples.store()
    var listings: [Listing] = []
    for index in 0..<50_000 {
      let area: Double? = index % 3 == 0 ? nil : Double(30 + index % 90)
      listings.append(
        StoreSamples.flat("m\(index)", Double(500 + index % 1_000), area: area))
    }
    try DealContextTests.record(store, day: 100, listings)
    let batch = Array(listings.prefix(50))
    let began = Date()
    let book = DealContextBook(memory: store, now: DealContextTests.now)
    let lines = try book.lines(for: batch, search: "flats")
    let first = Date().timeIntervalSince(began)
    let again = Date()
    _ = try book.lines(for: batch, search: "flats")
    let second = Date().timeIntervalSince(again)
    print(
      "deal context figures: 50 listings over 50,000: \(Int(first * 1000)) ms with the market "
        + "read, \(Int(second * 1000)) ms with it read already")
    #expect(lines.count == 50)
  }
}
