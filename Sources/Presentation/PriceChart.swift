internal import ClarissaCore
public import Foundation
public import ListingStore

/// Dated values fit to draw: a value that is not finite, below 0 or above ``largest`` is left
/// out, and so is a point whose time is not finite. Prices come from sites: a 1e300 or a NaN
/// is dropped here, never reaches a scale.
public struct PriceSeries: Sendable, Equatable {
  /// One value, and when.
  public struct Point: Sendable, Equatable {
    /// When.
    public var at: Date
    /// The value.
    public var value: Double
  }

  /// The largest value drawn, 10^15: more than any price, and still a whole number a `Double`
  /// keeps exactly.
  public static let largest = 1e15

  /// The points kept, in the order given.
  public private(set) var points: [Point]

  /// The points of `pairs` that are fit to draw.
  public init(_ pairs: [(at: Date, value: Double)]) {
    points = pairs.compactMap { pair in
      let fit =
        pair.value.isFinite && pair.value >= 0 && pair.value <= Self.largest
        && pair.at.timeIntervalSince1970.isFinite
      return fit ? Point(at: pair.at, value: pair.value) : nil
    }
  }

  /// The values.
  public var values: [Double] { points.map(\.value) }
}

/// Values placed on a range: the one rule by which the page's chart puts a value at a height and
/// `show`'s sparkline picks a character for it.
public struct ChartScale: Sendable, Equatable {
  /// The smallest value.
  public var lower: Double
  /// The largest value.
  public var upper: Double

  /// The scale from the smallest to the largest of `values`; nil when there is none.
  public init?(_ values: [Double]) {
    let finite = values.filter(\.isFinite)
    guard let lower = finite.min(), let upper = finite.max() else { return nil }
    self.lower = lower
    self.upper = upper
  }

  /// Where `value` is between ``lower`` (0) and ``upper`` (1), held to 0...1; 0.5 when all the
  /// values are one or `value` is not finite.
  public func fraction(_ value: Double) -> Double {
    let span = upper - lower
    guard span.isFinite, span > 0, value.isFinite else { return 0.5 }
    return min(1, max(0, (value - lower) / span))
  }

  /// `value`'s level among `count` (0 the lowest, `count - 1` the highest).
  public func level(_ value: Double, of count: Int) -> Int {
    guard count > 1 else { return 0 }
    return Int((fraction(value) * Double(count - 1)).rounded())
  }
}

/// A listing's price history beside its search's market (issue 43): the prices it was seen at,
/// the search's weekly median over the same weeks, and a sentence saying what they show. The
/// page draws it as an SVG (module Serve), `show` as a sparkline.
public struct PriceChart: Sendable {
  /// The listing's prices, one point per price the store kept (in ``currency``).
  public var prices: PriceSeries
  /// The prices' currency: the last price's.
  public var currency: String?
  /// The search's weekly medians, each at the middle of its week; weeks without one left out.
  public var market: PriceSeries
  /// Whether the medians are per m².
  public var perArea: Bool
  /// The first moment drawn: the first price's time.
  public var from: Date
  /// The last moment drawn: the later of the last price's time and the listing's last sighting.
  public var through: Date

  /// The chart of `history`, with `market` the weeks of its search (none when it has none).
  public init(history: ListingHistory, market: MarketWeeks?) {
    self.init(
      prices: history.prices.map { ($0.at, $0.price, $0.currency) },
      currency: history.listing.currency, firstSeen: history.firstSeen,
      lastSeen: history.lastSeen, market: market)
  }

  /// The chart of a listing's `prices` (oldest first; those in another currency than the last
  /// one's left out), seen from `firstSeen` to `lastSeen`, its price in `currency` when it has
  /// no price kept.
  public init(
    prices: [(at: Date, price: Double, currency: String?)], currency: String?, firstSeen: Date,
    lastSeen: Date, market: MarketWeeks?
  ) {
    let currency = prices.last?.currency ?? currency
    self.currency = currency
    self.prices = PriceSeries(prices.filter { $0.currency == currency }.map { ($0.at, $0.price) })
    let finite = { (date: Date) in date.timeIntervalSince1970.isFinite }
    let first = self.prices.points.first?.at ?? (finite(firstSeen) ? firstSeen : lastSeen)
    let last = self.prices.points.last?.at ?? first
    from = first
    through = finite(lastSeen) ? max(last, lastSeen) : last
    perArea = market?.perArea ?? false
    let half = MarketWeeks.week / 2
    self.market = PriceSeries(
      (market?.weeks ?? []).compactMap { week in
        week.median.map { (week.start.addingTimeInterval(half), $0) }
      })
  }

  /// The chart of `history` as `store` has it: its weeks are those of the first search that saw
  /// it (by name), as its deal context is.
  public static func read(_ history: ListingHistory, in store: any BrowsableStore) throws
    -> PriceChart
  {
    let bare = PriceChart(history: history, market: nil)
    guard let search = history.searches.first?.search else { return bare }
    let weeks = try store.marketWeeks(
      search: search, currency: bare.currency, from: bare.from, through: bare.through)
    return PriceChart(history: history, market: weeks)
  }

  /// What the median is of, in words: "median per m²" or "median price".
  public var marketWords: String { perArea ? "median per m²" : "median price" }

  /// A value of the market as people read it: "$2,400", or "€14.50/m²".
  public func marketValue(_ value: Double) -> String {
    perArea
      ? Money.format((value * 100).rounded() / 100, currency) + "/m²"
      : Money.format(value.rounded(), currency)
  }

  /// The scale of the prices; with prices, the medians' too when they are prices (one axis).
  public var priceScale: ChartScale? {
    ChartScale(prices.values + (perArea ? [] : market.values))
  }

  /// The scale of the medians: their own when per m² (a second axis), else the prices'.
  public var marketScale: ChartScale? {
    perArea ? ChartScale(market.values) : priceScale
  }

  /// What the chart shows, in a sentence: "price fell from €1,250 to €1,150 over 5 weeks; the
  /// search's median per m² rose 3%".
  public func summary(now: Date, timeZone: TimeZone = .current) -> String {
    let over = Self.duration(through.timeIntervalSince(from))
    var words: String
    if let first = prices.points.first, let last = prices.points.last {
      let (start, end) = (Money.format(first.value, currency), Money.format(last.value, currency))
      if prices.points.count == 1 {
        words = "price \(start) since \(DealContext.day(first.at, now: now, timeZone: timeZone))"
      } else if last.value < first.value {
        words = "price fell from \(start) to \(end) over \(over)"
      } else if last.value > first.value {
        words = "price rose from \(start) to \(end) over \(over)"
      } else {
        words = "price back at \(end) after \(prices.points.count - 1) changes over \(over)"
      }
    } else {
      words = "no price seen"
    }
    if let first = market.points.first, let last = market.points.last {
      let change = first.value > 0 ? (last.value - first.value) / first.value * 100 : 0
      let percent = change.isFinite ? Int(change.rounded()) : 0
      if market.points.count == 1 {
        words += "; the search's \(marketWords) was \(marketValue(first.value))"
      } else if percent > 0 {
        words += "; the search's \(marketWords) rose \(percent)%"
      } else if percent < 0 {
        words += "; the search's \(marketWords) fell \(-percent)%"
      } else {
        words += "; the search's \(marketWords) held at \(marketValue(last.value))"
      }
    } else {
      words += "; too few of the search's listings for a weekly median"
    }
    return words
  }

  /// A date on an axis: "3 Mar", or "3 Mar 2025" in another year than `now`'s.
  public static func day(_ date: Date, now: Date, timeZone: TimeZone = .current) -> String {
    DealContext.day(date, now: now, timeZone: timeZone)
  }

  /// "3 hours", "5 days", "5 weeks".
  static func duration(_ seconds: TimeInterval) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "an unknown time" }
    let days = Int(min(seconds, 1e12) / 86_400)
    if days < 1 {
      let hours = max(1, Int(min(seconds, 1e12) / 3600))
      return "\(hours) hour\(hours == 1 ? "" : "s")"
    }
    if days < 28 { return "\(days) day\(days == 1 ? "" : "s")" }
    return "\(days / 7) weeks"
  }
}
