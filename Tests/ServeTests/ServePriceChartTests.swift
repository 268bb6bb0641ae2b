import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Presentation
import Testing
import WebServer

@testable import Serve

/// The listing page's price chart (issue 43) on a store filled by real runs
/// (``ReplayedStore``: the sfbay capture and its later answers), served on 127.0.0.1.
@Suite(.serialized) struct ServePriceChartTests {
  static var xmllint: String? { TestTools.path("xmllint") }

  /// The listing page of `id` in the replayed store, fetched from a server on 127.0.0.1, and
  /// the store's history of it.
  static func page(_ id: String) async throws -> (page: String, history: ListingHistory) {
    let state = try await ReplayedStore.changes()
    let store = try ListingStore.open(path: state, readOnly: false)
    let now = ReplayedStore.noon.addingTimeInterval(9 * 86_400)
    let app = WebApp(
      store: store,
      config: ServedConfig(
        path: "searches.yaml",
        searches: [
          ServedConfig.Search(
            name: "ipads", site: "craigslist", interval: 900, enabled: true,
            hosts: ["sfbay.craigslist.org"])
        ], problems: "", hasErrors: false),
      access: WebApp.Access(token: nil, hosts: [], actionKey: nil, publicURL: nil),
      map: MapSettings(), clock: { now })
    let server = try HTTPServer(address: "127.0.0.1:0") { app.handle($0) }
    defer { server.stop() }
    server.start()
    let answer = try RawHTTP.exchange(
      port: server.port,
      "GET /listing/craigslist/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
    let history = try #require(try store.history(ListingKey(site: "craigslist", id: id)))
    return (answer, history)
  }

  /// The `<svg>` element of `page`.
  static func svg(_ page: String) throws -> String {
    let start = try #require(page.range(of: "<svg "), "no chart in the page")
    let end = try #require(page.range(of: "</svg>", range: start.upperBound..<page.endIndex))
    return String(page[start.lowerBound..<end.upperBound])
  }

  /// Whether `xml` is well-formed XML by xmllint (read from its standard input).
  static func wellFormed(_ xml: String) throws -> (ok: Bool, complaints: String) {
    let xmllint = try #require(Self.xmllint, "xmllint (Debian: libxml2-utils)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: xmllint)
    process.arguments = ["--noout", "-"]
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(xml.utf8))
    try input.fileHandleForWriting.close()
    let complaints = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus == 0, complaints)
  }

  static func count(_ text: String, in svg: String) -> Int {
    svg.components(separatedBy: text).count - 1
  }

  @Test(
    .enabled(
      if: xmllint != nil || TestTools.underCI,
      "needs xmllint (Debian: libxml2-utils; .ci/run installs it)"))
  func theChangedPriceIsDrawnWithTheSearchsMedian() async throws {
    let (page, history) = try await Self.page(ReplayedStore.priced)
    let svg = try Self.svg(page)
    let checked = try Self.wellFormed(svg)
    #expect(checked.ok, "\(checked.complaints)\n\(svg)")
    // $100 -> $96 -> $90 -> $100 -> $90: the store keeps five prices, one point each.
    #expect(history.prices.map(\.price) == [100, 96, 90, 100, 90])
    #expect(Self.count("<circle class=\"price-point\"", in: svg) == 5)
    // The ipads give no floor area: the weekly median is of prices, over the two weeks.
    #expect(Self.count("<polyline class=\"market\" points=\"", in: svg) == 1)
    let points = try #require(
      svg.split(separator: "points=\"").dropFirst().first?.split(separator: "\"").first)
    #expect(points.split(separator: " ").count == 2, "\(points)")
    // One axis for both (the median is of prices): from the median's $70 to the price's $100.
    for label in ["$100</text>", "$70</text>", ">3 May</text>", ">11 May</text>"] {
      #expect(svg.contains(label), "\(label) in \(svg)")
    }
    let said = "price fell from $100 to $90 over 8 days; the search&apos;s median price held at $70"
    #expect(svg.contains("<title>\(said)"), "\(svg)")
    #expect(svg.contains("role=\"img\" aria-label=\"\(said)"), "\(svg)")
    // Drawn in the page: no script, nothing fetched.
    #expect(!svg.contains("<script") && !svg.contains("href") && !svg.contains("src="))
  }

  @Test(
    .enabled(
      if: xmllint != nil || TestTools.underCI,
      "needs xmllint (Debian: libxml2-utils; .ci/run installs it)"))
  func aListingAtOnePriceIsAFlatLine() async throws {
    // "apple ipad mini 2" at $85: one price, seen from the first run to the last.
    let (page, history) = try await Self.page("7915059614")
    #expect(history.prices.count == 1)
    let svg = try Self.svg(page)
    #expect(try Self.wellFormed(svg).ok)
    #expect(Self.count("<circle class=\"price-point\"", in: svg) == 1)
    let path = try #require(
      svg.split(separator: " d=\"").dropFirst().first?.split(separator: "\"").first)
    #expect(!path.contains("V"), "one price, no step: \(path)")
    #expect(svg.contains("price $85 since 3 May"), "\(svg)")
  }

  @Test(
    .enabled(
      if: xmllint != nil || TestTools.underCI,
      "needs xmllint (Debian: libxml2-utils; .ci/run installs it)"))
  func hostileValuesDrawNoNonsense() throws {
    let start = Date(timeIntervalSince1970: 1_777_834_800)
    let week = MarketWeeks.week
    let market = MarketWeeks(
      perArea: true,
      weeks: [
        .init(start: start, median: .nan, count: 3), .init(start: start, median: 1e300, count: 3),
        .init(start: start.addingTimeInterval(week), median: 14.5, count: 4),
        .init(start: start.addingTimeInterval(2 * week), median: 15, count: 4),
      ])
    let chart = PriceChart(
      prices: [
        (start, 1e300, "EUR"), (start.addingTimeInterval(60), .nan, "EUR"),
        (start.addingTimeInterval(120), .infinity, "EUR"),
        (Date(timeIntervalSince1970: .nan), 1000, "EUR"),
        (start.addingTimeInterval(3600), 1250, "EUR\u{1b}[31m"),
        (start.addingTimeInterval(86_400), 1250, "EUR"),
        (start.addingTimeInterval(3 * week), 1150, "EUR"),
      ], currency: "EUR", firstSeen: start, lastSeen: start.addingTimeInterval(3 * week),
      market: market)
    #expect(chart.prices.values == [1250, 1150])
    #expect(chart.market.values == [14.5, 15])
    let svg = try Self.svg(Pages.priceChart(chart, now: start).description)
    #expect(try Self.wellFormed(svg).ok, "\(svg)")
    #expect(svg.contains("price fell from €1,250 to €1,150 over 20 days; the search"))
    #expect(svg.contains("median per m² rose 3%"))
    #expect(svg.contains(">€15/m²</text>") && svg.contains(">€14.50/m²</text>"), "\(svg)")
    #expect(!svg.contains("nan") && !svg.contains("inf"), "\(svg)")

    // One price at one moment, no floor area, no market: a sentence, no empty drawing.
    let one = PriceChart(
      prices: [(start, 450, "USD")], currency: "USD", firstSeen: start, lastSeen: start,
      market: MarketWeeks(perArea: false, weeks: []))
    let sentence = Pages.priceChart(one, now: start).description
    #expect(
      sentence == "<p class=\"price-chart one-price\">Price $450 since 3 May; too few of the "
        + "search&apos;s listings for a weekly median.</p>", "\(sentence)")
    // Nothing fit to draw: nothing.
    let none = PriceChart(
      prices: [(start, .nan, "USD")], currency: "USD", firstSeen: start, lastSeen: start,
      market: nil)
    #expect(Pages.priceChart(none, now: start).isEmpty)
  }
}
