import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// A search's weekly median (issue 43, price history), in both stores: per m² when enough
/// listings give a floor area, else of prices; each week of the listings on the market in it, at
/// the price they had by its end.
@Suite(.serialized) struct StoreMarketWeeksTests {
  static let start = StoreSamples.start
  static let day: TimeInterval = 86_400

  /// Six flats of 50 m² at €1,000 to €1,500 on day 0; on day 8 the three cheapest 10% dearer;
  /// a flat in dollars and one without an area beside them. `area` nil: no flat gives one.
  static func filled(_ kind: StoreKind, area: Double?) throws -> any BrowsableStore {
    let (store, _) = try StoreSamples.open(kind)
    let first =
      (0..<6).map { StoreSamples.flat("f\($0)", 1000 + 100 * Double($0), area: area) }
      + [StoreSamples.flat("usd", 9000, currency: "USD", area: 10), StoreSamples.flat("bare", 5)]
    try store.record(SearchRecord(search: "flats", now: start, seen: first, reached: true))
    var later = first
    for index in 0..<3 { later[index].price = (later[index].price ?? 0) * 1.1 }
    try store.record(
      SearchRecord(
        search: "flats", now: start.addingTimeInterval(8 * day), seen: later, reached: true))
    return store
  }

  @Test(arguments: StoreKind.built)
  func theMedianPerSquareMetreWeekByWeek(_ kind: StoreKind) throws {
    let store = try Self.filled(kind, area: 50)
    let weeks = try store.marketWeeks(
      search: "flats", currency: "EUR", from: Self.start,
      through: Self.start.addingTimeInterval(8 * Self.day))
    #expect(weeks.perArea)
    #expect(weeks.weeks.map(\.start) == [Self.start, Self.start.addingTimeInterval(7 * Self.day)])
    #expect(
      weeks.weeks.map(\.count) == [6, 6], "the dollars and the flat without an area left out")
    // Week one: €20 ... €30 per m², median (24 + 26) / 2; week two: 22, 24.2, 26, 26.4, 28, 30.
    let medians = weeks.weeks.compactMap(\.median)
    #expect(medians.count == 2)
    #expect(abs(medians[0] - 25) < 1e-9 && abs(medians[1] - 26.2) < 1e-9, "\(medians)")
    #expect(
      try store.marketWeeks(
        search: "elsewhere", currency: "EUR", from: Self.start, through: Self.start
      ).weeks.map(\.count) == [0])
  }

  @Test(arguments: StoreKind.built)
  func withoutFloorAreasTheMedianIsOfPrices(_ kind: StoreKind) throws {
    let store = try Self.filled(kind, area: nil)
    let weeks = try store.marketWeeks(
      search: "flats", currency: "EUR", from: Self.start,
      through: Self.start.addingTimeInterval(8 * Self.day))
    #expect(!weeks.perArea)
    // The bare flat at €5 counts now: seven prices a week.
    #expect(weeks.weeks.map(\.median) == [1200, 1300], "\(weeks.weeks)")
  }

  @Test func theWeeksAreBounded() {
    let starts = MarketWeeks.starts(
      from: Self.start, through: Self.start.addingTimeInterval(730 * Self.day))
    #expect(starts.count == MarketWeeks.maximumWeeks)
    let last = starts.last
    #expect(
      last.map {
        Self.start.addingTimeInterval(730 * Self.day).timeIntervalSince($0) < MarketWeeks.week
      } == true)
    #expect(MarketWeeks.starts(from: Self.start, through: Self.start) == [Self.start])
    let broken = Date(timeIntervalSince1970: .nan)
    #expect(MarketWeeks.starts(from: Self.start, through: broken) == [Self.start])
    #expect(
      MarketWeeks.starts(from: Self.start, through: .distantFuture).count
        == MarketWeeks.maximumWeeks)
  }
}
