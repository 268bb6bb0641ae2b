internal import ClarissaCore
internal import Foundation
internal import Presentation

/// `show`'s price history (issue 43): the listing's prices as a sparkline, one character per
/// price the store kept, with the first and last and their dates, and the search's weekly
/// median beneath, one character per week with one. The heights come from the page chart's
/// rule (``ChartScale``), each line on its own scale. The output is UTF-8, as every
/// other line `show` prints (its arrows and the prices' symbols are too); the house has no
/// ASCII fallback to follow.
enum PriceSparkline {
  /// The eight levels, lowest first.
  static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
  /// Characters at most in one sparkline: the last ones of a longer series.
  static let widest = 60

  /// The characters of `values` on `scale`.
  static func line(_ values: [Double], scale: ChartScale) -> String {
    String(values.suffix(widest).map { levels[scale.level($0, of: levels.count)] })
  }

  /// The lines under `show`'s prices; none when no price was kept.
  static func lines(_ chart: PriceChart, now: Date, timeZone: TimeZone = .current) -> [String] {
    // Each line on its own scale: a sparkline shows a shape, its numbers are written beside it.
    guard let scale = ChartScale(chart.prices.values), let first = chart.prices.points.first,
      let last = chart.prices.points.last
    else { return [] }
    let day = { (date: Date) in PriceChart.day(date, now: now, timeZone: timeZone) }
    let money = { (value: Double) in Money.format(value, chart.currency) }
    let shown = chart.prices.points.count > widest ? " (the last \(widest))" : ""
    var lines = [
      "price history: " + chart.summary(now: now, timeZone: timeZone),
      "  price   \(line(chart.prices.values, scale: scale))  \(money(first.value)) on "
        + "\(day(first.at)) → \(money(last.value)) on \(day(last.at))\(shown)",
    ]
    if let marketScale = ChartScale(chart.market.values), let start = chart.market.points.first,
      let end = chart.market.points.last
    {
      lines.append(
        "  median  \(line(chart.market.values, scale: marketScale))  "
          + "\(chart.marketValue(start.value)) → \(chart.marketValue(end.value)) "
          + "(the search's \(chart.marketWords), weekly, \(chart.market.points.count) "
          + "week\(chart.market.points.count == 1 ? "" : "s"))")
    }
    // Currencies and amounts are the sites' text: no control character reaches the terminal.
    return lines.map(SafeText.line)
  }
}
