internal import ClarissaCore
public import Foundation

/// A search's market week by week (issue 43, "Price history"): the median asking price per m²
/// of the listings it saw on the market each week, or the median price when too few of them
/// give a floor area. The listing page draws it beside a listing's prices, and `clarissa show`
/// prints it as a sparkline.
public struct MarketWeeks: Sendable, Equatable {
  /// One week of the market.
  public struct Week: Sendable, Equatable {
    /// Its first moment; it lasts seven days.
    public var start: Date
    /// The median of the week's values (per m² when ``MarketWeeks/perArea``); nil when fewer
    /// than ``MarketWeeks/minimumPerWeek`` listings were on the market that week.
    public var median: Double?
    /// How many listings the median is of.
    public var count: Int

    /// Creates a week.
    public init(start: Date, median: Double?, count: Int) {
      self.start = start
      self.median = median
      self.count = count
    }
  }

  /// Seven days.
  public static let week: TimeInterval = 7 * 86_400
  /// Weeks read at most: the last 26 (half a year) of a longer history.
  public static let maximumWeeks = 26
  /// A listing first seen this long (90 days) before the first week still counts while it is
  /// on the market; one first seen earlier does not: the read goes through the index of
  /// `sightings(search, first_seen)` and stays bounded by it.
  public static let lookback: TimeInterval = 90 * 86_400
  /// Price rows read at most, those of the listings first seen last first (the index's order,
  /// so the read stops there): 20,000. A search that saw more in the weeks and the 90 days
  /// before them has its earliest listings left out. Measured (.ci/bench map, a search of
  /// 1,000,000 listings all first seen in one week, release build, 2026-11-28): reading them all
  /// took 4.7 s; with the bound, 75 ms (a listing's page with its chart: 173 ms, was 4.8 s).
  public static let maximumRows = 20_000
  /// Fewer listings with a floor area than this over the weeks, and the medians are of prices.
  public static let minimumWithArea = 5
  /// Fewer listings on the market in a week than this, and the week has no median.
  public static let minimumPerWeek = 3

  /// Whether the medians are of prices per m² (else of prices).
  public var perArea: Bool
  /// The weeks, oldest first.
  public var weeks: [Week]

  /// Creates the weeks.
  public init(perArea: Bool, weeks: [Week]) {
    self.perArea = perArea
    self.weeks = weeks
  }

  /// The week starts from `from` to `through`: one every seven days from `from`, the last
  /// ``maximumWeeks`` of them; at least one. Times that are not finite give one week.
  public static func starts(from: Date, through: Date) -> [Date] {
    let span = through.timeIntervalSince(from)
    guard span.isFinite, span > 0 else { return [from] }
    let count = min(Int((span / week).rounded(.down)) + 1, 100_000)
    let first = max(0, count - maximumWeeks)
    return (first..<count).map { from.addingTimeInterval(Double($0) * week) }
  }
}

/// One listing of the search as the weeks read it.
private struct MarketEntry {
  var firstSeen: Double
  var lastSeen: Double
  var floorArea: Double?
  /// Its prices in the asked currency: when, and how much; oldest first once read.
  var prices: [(at: Double, price: Double)] = []
}

extension ConnectedStore {
  /// The weekly medians of `search` in `currency` over the weeks from `from` to `through`
  /// (``MarketWeeks/starts(from:through:)``): per week, each listing the search saw on the
  /// market in it (first seen before the week ends, last seen after it starts; reposts left
  /// out) at the last price it had by the week's end. One statement, by the index of
  /// `sightings(search, first_seen)` and the primary key of `prices`, of at most
  /// ``MarketWeeks/maximumRows`` rows.
  public func marketWeeks(search: String, currency: String?, from: Date, through: Date) throws
    -> MarketWeeks
  {
    let starts = MarketWeeks.starts(from: from, through: through)
    guard let first = starts.first, let last = starts.last else {
      return MarketWeeks(perArea: false, weeks: [])
    }
    let end = last.addingTimeInterval(MarketWeeks.week)
    let entries = try locked { database in
      var entries: [ListingKey: MarketEntry] = [:]
      let rows = try database.rows(
        """
        SELECT s.site, s.id, s.first_seen, \(LastSeen.sighting("s")) AS last_seen,
          l.floor_area, p.seen_at, p.price, p.currency
        FROM sightings s\(database.dialect.indexedBy("sightings_search_first_seen"))
        \(database.dialect.orderedJoin) listings l ON l.site = s.site AND l.id = s.id
        \(database.dialect.orderedJoin) prices p ON p.site = s.site AND p.id = s.id
        WHERE s.search = ? AND s.first_seen >= ? AND s.first_seen < ?
          AND s.repost_of IS NULL AND p.seen_at < ?
        ORDER BY s.first_seen DESC LIMIT ?
        """,
        [
          .text(search), .time(first.addingTimeInterval(-MarketWeeks.lookback)), .time(end),
          .time(end), .int(MarketWeeks.maximumRows),
        ]
      ) { row in
        (
          ListingKey(site: row.text(WeekColumn.site), id: row.text(WeekColumn.id)),
          row.double(WeekColumn.firstSeen), row.double(WeekColumn.lastSeen),
          row.optionalDouble(WeekColumn.floorArea), row.double(WeekColumn.seenAt),
          row.double(WeekColumn.price), row.optionalText(WeekColumn.currency)
        )
      }
      for row in rows {
        var entry =
          entries[row.0] ?? MarketEntry(firstSeen: row.1, lastSeen: row.2, floorArea: row.3)
        if row.6 == currency, row.5.isFinite, row.5 > 0 { entry.prices.append((row.4, row.5)) }
        entries[row.0] = entry
      }
      return entries
    }
    // Put in order here, not by the statement: nearly every listing has one price.
    let ordered = entries.values.map { entry in
      var entry = entry
      if entry.prices.count > 1 { entry.prices.sort { $0.at < $1.at } }
      return entry
    }
    return Self.weeks(ordered, starts: starts)
  }

  /// The medians of `entries` per week.
  private static func weeks(_ entries: [MarketEntry], starts: [Date]) -> MarketWeeks {
    let priced = entries.filter { !$0.prices.isEmpty }
    let sized = priced.filter { ($0.floorArea ?? 0) > 0 && $0.floorArea?.isFinite == true }
    let perArea = sized.count >= MarketWeeks.minimumWithArea
    let counted = perArea ? sized : priced
    let weeks = starts.map { start -> MarketWeeks.Week in
      let from = start.timeIntervalSince1970
      let until = from + MarketWeeks.week
      var values: [Double] = []
      for entry in counted where entry.firstSeen < until && entry.lastSeen >= from {
        guard let price = entry.prices.last(where: { $0.at < until })?.price else { continue }
        let value = perArea ? price / (entry.floorArea ?? 1) : price
        if value.isFinite { values.append(value) }
      }
      values.sort()
      guard values.count >= MarketWeeks.minimumPerWeek else {
        return .init(start: start, median: nil, count: values.count)
      }
      let middle = values.count / 2
      let median =
        values.count % 2 == 1 ? values[middle] : values[middle - 1] / 2 + values[middle] / 2
      return .init(start: start, median: median, count: values.count)
    }
    return MarketWeeks(perArea: perArea, weeks: weeks)
  }
}

/// The columns of ``ConnectedStore/marketWeeks(search:currency:from:through:)``'s rows.
private enum WeekColumn: String, TableColumns {
  case site, id, firstSeen = "first_seen", lastSeen = "last_seen", floorArea = "floor_area"
  case seenAt = "seen_at", price, currency
}
