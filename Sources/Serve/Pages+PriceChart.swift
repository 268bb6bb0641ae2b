internal import ClarissaCore
internal import Foundation
internal import Presentation

/// The listing page's price chart (issue 43): the listing's price over time and its search's
/// weekly median, an SVG written into the page (no script, no file of its own), its heights
/// from ``ChartScale`` as `show`'s sparkline has them.
extension Pages {
  /// The drawing's size, in its own units.
  static let chartWidth = 640.0
  static let chartHeight = 200.0
  /// Room for the axes' labels: the prices on the left, the medians per m² on the right, the
  /// dates below.
  static let chartInset = (left: 84.0, right: 96.0, top: 14.0, bottom: 30.0)

  /// The chart, or a sentence when the listing was seen at one price at one moment (nothing to
  /// draw a line along); nothing when the store kept no price.
  static func priceChart(_ chart: PriceChart, now: Date) -> HTML {
    let summary = chart.summary(now: now)
    guard let priceScale = chart.priceScale, let first = chart.prices.points.first else {
      return .empty
    }
    let span = chart.through.timeIntervalSince(chart.from)
    guard span.isFinite, span > 0 else {
      return
        "<p class=\"price-chart one-price\">\(summary.prefix(1).uppercased() + summary.dropFirst()).</p>"
    }
    let x = { (date: Date) -> Double in
      let inset = chartInset
      let fraction = min(1, max(0, date.timeIntervalSince(chart.from) / span))
      return inset.left + fraction * (chartWidth - inset.left - inset.right)
    }
    let y = { (scale: ChartScale, value: Double) -> Double in
      let inset = chartInset
      return inset.top + (1 - scale.fraction(value)) * (chartHeight - inset.top - inset.bottom)
    }
    // The price holds from one change to the next: steps, the last held to the end.
    var path = "M\(number(x(first.at))),\(number(y(priceScale, first.value)))"
    for point in chart.prices.points.dropFirst() {
      path += " H\(number(x(point.at))) V\(number(y(priceScale, point.value)))"
    }
    path += " H\(number(x(chart.through)))"
    let dots = chart.prices.points.map { point -> HTML in
      let words =
        Money.format(point.value, chart.currency) + " on "
        + PriceChart.day(point.at, now: now)
      return """
        <circle class="price-point" cx="\(number(x(point.at)))" \
        cy="\(number(y(priceScale, point.value)))" r="3.5" fill="#1f5fa8">\
        <title>\(words)</title></circle>
        """
    }
    var market: HTML = .empty
    if let marketScale = chart.marketScale, !chart.market.points.isEmpty {
      let points = chart.market.points.map {
        "\(number(x($0.at))),\(number(y(marketScale, $0.value)))"
      }
      market = """
        <polyline class="market" points="\(points.joined(separator: " "))" fill="none" \
        stroke="#b5651d" stroke-width="2" stroke-dasharray="6 4"/>
        """
      if let only = chart.market.points.first, chart.market.points.count == 1 {
        market += """
          <circle class="market-point" cx="\(number(x(only.at)))" \
          cy="\(number(y(marketScale, only.value)))" r="3" fill="#b5651d"/>
          """
      }
    }
    return """
      <figure class="price-chart">\
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(Int(chartWidth)) \(Int(chartHeight))" \
      role="img" aria-label="\(summary)" font-size="11" font-family="sans-serif">\
      <title>\(summary)</title>\
      \(axes(chart, priceScale: priceScale, now: now))\
      <path class="price" d="\(path)" fill="none" stroke="#1f5fa8" stroke-width="2"/>\
      \(market)\(dots)\
      </svg>\
      <figcaption>\(legend(chart))</figcaption></figure>
      """
  }

  /// The frame, the prices' and medians' lowest and highest values, and the first and last
  /// dates.
  private static func axes(_ chart: PriceChart, priceScale: ChartScale, now: Date) -> HTML {
    let inset = chartInset
    let (left, right) = (inset.left, chartWidth - inset.right)
    let (top, bottom) = (inset.top, chartHeight - inset.bottom)
    let low = Money.format(priceScale.lower, chart.currency)
    let high = Money.format(priceScale.upper, chart.currency)
    var out: HTML = """
      <g class="axes" fill="#555">\
      <rect x="\(number(left))" y="\(number(top))" width="\(number(right - left))" \
      height="\(number(bottom - top))" fill="none" stroke="#ccc"/>\
      <text class="price-label" x="\(number(left - 6))" y="\(number(top + 4))" \
      text-anchor="end">\(high)</text>\
      <text class="price-label" x="\(number(left - 6))" y="\(number(bottom))" \
      text-anchor="end">\(low)</text>\
      <text class="date-label" x="\(number(left))" y="\(number(bottom + 18))">\
      \(PriceChart.day(chart.from, now: now))</text>\
      <text class="date-label" x="\(number(right))" y="\(number(bottom + 18))" \
      text-anchor="end">\(PriceChart.day(chart.through, now: now))</text>
      """
    if chart.perArea, let scale = chart.marketScale {
      out += """
        <text class="market-label" x="\(number(right + 6))" y="\(number(top + 4))" \
        fill="#b5651d">\(chart.marketValue(scale.upper))</text>\
        <text class="market-label" x="\(number(right + 6))" y="\(number(bottom))" \
        fill="#b5651d">\(chart.marketValue(scale.lower))</text>
        """
    }
    return out + "</g>"
  }

  /// What each line is, under the drawing.
  private static func legend(_ chart: PriceChart) -> HTML {
    let market: HTML =
      chart.market.points.isEmpty
      ? "too few of the search's listings for a weekly median"
      : "<span class=\"market-key\">- -</span> the search's \(chart.marketWords), weekly"
        + (chart.perArea ? " (right axis)" : "")
    return "<span class=\"price-key\">—</span> price · \(market)"
  }

  /// A coordinate with one decimal: what a drawing 640 wide needs.
  private static func number(_ value: Double) -> String {
    String(format: "%.1f", value.isFinite ? value : 0)
  }
}
