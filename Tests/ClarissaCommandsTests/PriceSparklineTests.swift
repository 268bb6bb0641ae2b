import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Presentation
import Testing

@testable import ClarissaCommands

/// `show`'s price history as a sparkline (issue 43): the characters of a known series, hostile
/// values, and the command on a store filled by real runs (``ReplayedStore``).
@Suite(.serialized) struct PriceSparklineTests {
  @Test func aKnownSeriesHasItsCharacters() throws {
    let values: [Double] = [100, 96, 90, 100, 90]
    let scale = try #require(ChartScale(values))
    // 90 is the lowest level, 100 the highest; 96 is 0.6 of the way: 4.2 of 7, level 4.
    #expect(PriceSparkline.line(values, scale: scale) == "█▅▁█▁")
    let flat = try #require(ChartScale([450, 450]))
    #expect(PriceSparkline.line([450, 450], scale: flat) == "▅▅", "one value: the middle")
    let long = (0..<100).map(Double.init)
    let wide = try #require(ChartScale(long))
    let line = PriceSparkline.line(long, scale: wide)
    #expect(line.count == PriceSparkline.widest && line.last == "█")
  }

  @Test func hostileValuesDoNotTrap() throws {
    let start = Date(timeIntervalSince1970: 1_777_834_800)
    let chart = PriceChart(
      prices: [
        (start, 1e300, "USD"), (start.addingTimeInterval(60), .nan, "USD"),
        (start.addingTimeInterval(120), -.infinity, "USD"),
      ], currency: "USD", firstSeen: start, lastSeen: start.addingTimeInterval(600),
      market: MarketWeeks(
        perArea: false, weeks: [.init(start: start, median: .infinity, count: 9)]))
    #expect(PriceSparkline.lines(chart, now: start).isEmpty, "nothing fit to draw")
    let one = PriceChart(
      prices: [(start, 1e15, "USD\u{1b}[2J")], currency: "USD", firstSeen: start,
      lastSeen: start, market: nil)
    let lines = PriceSparkline.lines(one, now: start)
    #expect(lines.count == 2, "\(lines)")
    #expect(!lines.joined().contains("\u{1b}"), "no control character reaches the terminal")
    #expect(lines[1].contains("▅"), "\(lines)")
  }

  @Test func showPrintsTheSparklinesOfARealReplay() async throws {
    let state = try await ReplayedStore.changes()
    let config = URL(fileURLWithPath: state).deletingLastPathComponent()
      .appendingPathComponent("searches.yaml")
    try Data(ReplayedStore.config.utf8).write(to: config)
    let now = "2026-05-12T12:00:00Z"
    let show = try CommandLineTests.run([
      "show", ReplayedStore.priced, "--config", config.path, "--state", state, "--now", now,
    ])
    #expect(show.status == 0, "\(show.stderr)")
    let lines = show.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "price history: price fell from $100 to $90 over 8 days; the search's median price "
          + "held at $70"), "\(show.stdout)")
    #expect(lines.contains("  price   █▅▁█▁  $100 on 3 May → $90 on 11 May"), "\(show.stdout)")
    #expect(
      lines.contains("  median  ▅▅  $70 → $70 (the search's median price, weekly, 2 weeks)"),
      "one value, the middle level: \(show.stdout)")
  }
}
