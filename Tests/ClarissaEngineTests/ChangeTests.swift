import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore

/// Price drops and rises and returns, announced once per change (`notify_on`), through the real
/// pipeline against a loopback feed whose answer changes between runs.
@Suite(.serialized) struct ChangeTests {
  static let start = Date(timeIntervalSince1970: 1_780_000_000)

  static func config(_ feed: String, _ extra: String) throws -> Config {
    try RunnerTests.config(
      """
      version: 1
      searches:
        - name: desks
          site: feed
          feeds: [\(feed)]
          interval: 1m
      \(extra)
      """)
  }

  /// Runs the feed through the prices given, an hour apart; what each run announced as changed.
  static func changes(_ prices: [Int], notifyOn: String, extra: String = "") async throws
    -> [[String]]
  {
    let feed = try LoopbackServerFeed(["desk"])
    let config = try Self.config(feed.url, "    notify_on: \(notifyOn)\n\(extra)")
    let runner = RunnerLoopbackTests.runner(config, state: RunnerTests.temporaryState())
    var announced: [[String]] = []
    for (hour, price) in prices.enumerated() {
      feed.prices = ["desk": price]
      let result = try await runner.run(
        RunOptions(now: start.addingTimeInterval(Double(hour) * 3600), notifyFirstRun: true)
      ).commit()
      announced.append(
        result.searches[0].changed.map {
          "\($0.event?.kind.rawValue ?? "?") \(Change.describe($0) ?? "")"
        })
    }
    return announced
  }

  @Test func aDropPastTheThresholdIsAnnouncedOnceAndOneBelowItNot() async throws {
    let runs = try await Self.changes([100, 96, 90, 90], notifyOn: "[new, price_drop]")
    #expect(runs[1].isEmpty, "4% is below the 5% threshold")
    #expect(runs[2] == ["price_drop 100 → 90 (-10%)"], "from the price last announced")
    #expect(runs[3].isEmpty, "announced once, not on every run")
  }

  @Test func aWobblingPriceIsAnnouncedOncePerChange() async throws {
    // Drops only: 100 -> 90 is one drop; back to 100 is no drop; 90 again is no change from
    // the 90 announced.
    let drops = try await Self.changes([100, 90, 100, 90], notifyOn: "[new, price_drop]")
    #expect(drops.flatMap { $0 } == ["price_drop 100 → 90 (-10%)"])
    // Drops and rises: each change past the threshold, once.
    let both = try await Self.changes(
      [100, 90, 100, 90], notifyOn: "[new, price_drop, price_rise]")
    #expect(
      both.flatMap { $0 } == [
        "price_drop 100 → 90 (-10%)", "price_rise 90 → 100 (+11%)",
        "price_drop 100 → 90 (-10%)",
      ])
  }

  @Test func theThresholdIsConfigurable() async throws {
    let runs = try await Self.changes(
      [100, 96], notifyOn: "[price_drop]",
      extra: "    price_drop: {min_percent: 2, min_amount: 1}\n")
    #expect(runs[1] == ["price_drop 100 → 96 (-4%)"])
  }

  @Test func aListingGoneLongerThanBackAfterAndUpAgainIsAnnounced() async throws {
    let feed = try LoopbackServerFeed(["desk"])
    let config = try Self.config(feed.url, "    notify_on: [new, back]\n    back_after: 2d\n")
    let runner = RunnerLoopbackTests.runner(config, state: RunnerTests.temporaryState())
    _ = try await runner.run(RunOptions(now: Self.start, notifyFirstRun: true)).commit()
    let day: TimeInterval = 86_400
    let hour: TimeInterval = 3600
    func run(_ items: [String], at offset: TimeInterval) async throws -> RunResult {
      feed.items = items
      return try await runner.run(RunOptions(now: Self.start.addingTimeInterval(offset))).commit()
    }
    _ = try await run([], at: hour)
    let early = try await run(["desk"], at: day)
    #expect(early.searches[0].changed.isEmpty, "missing from one answer an hour later: not 'back'")
    _ = try await run([], at: day + hour)
    _ = try await run([], at: 3 * day + 2 * hour)
    let back = try await run(["desk"], at: 3 * day + 3 * hour)
    #expect(back.searches[0].changed.map { $0.event?.kind } == [.back], "missing 2d 2h after")
    // Clarissa switched off for a week: the desk was there on the run before, so not 'back'.
    let rested = try await run(["desk"], at: 10 * day)
    #expect(rested.searches[0].changed.isEmpty)
    #expect(RunReport.text(back, colored: false).contains("back: back at 120"))
  }

  @Test func aChangeReachesChannelsWithOldPriceAndChange() async throws {
    let feed = try LoopbackServerFeed(["desk"])
    let receiver = try LoopbackServer { _, _ in .init(status: 200) }
    let config = try RunnerTests.config(
      """
      version: 1
      notify:
        hook: json://127.0.0.1:\(receiver.port)/hook
        phone:
          url: json://127.0.0.1:\(receiver.port)/phone
          title: "{event}: {old_price} -> {price} ({change})"
      searches:
        - name: desks
          site: feed
          feeds: [\(feed.url)]
          notify: [hook, phone]
          notify_on: [new, price_drop]
      """)
    let runner = RunnerLoopbackTests.runner(config, state: RunnerTests.temporaryState())
      .delivering(to: config)
    _ = try await runner.run(RunOptions(now: Self.start, notifyFirstRun: true)).commit()
    feed.prices = ["desk": 100]
    _ = try await runner.run(RunOptions(now: Self.start.addingTimeInterval(3600))).commit()
    let bodies = receiver.requests.map(\.text)
    #expect(bodies.count == 4, "new, then the drop, to each channel")
    // The feed's "$" names no currency: prices are shown as numbers.
    #expect(bodies[2].contains("\"title\":\"120 → 100 (-17%) · Oak desk $100\""), "\(bodies[2])")
    #expect(bodies[2].contains("\"event\":{\"kind\":\"price_drop\",\"oldPrice\":120}"))
    #expect(bodies[3].contains("\"title\":\"price_drop: 120 -> 100 (120 → 100 (-17%))\""))
  }

  @Test func theFeedsAndThePageShowTheChange() async throws {
    let feed = try LoopbackServerFeed(["desk"])
    let config = try Self.config(feed.url, "    notify_on: [new, price_drop]\n")
    let folder = URL(fileURLWithPath: NSTemporaryDirectory())
      .appendingPathComponent("clarissa-change-\(UUID().uuidString)")
    var settings = SchedulerSettings(userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(
        fetcher: CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20)),
        settings: settings),
      statePath: folder.appendingPathComponent("clarissa.db").path,
      outputs: OutputPaths(
        atomFolder: folder.appendingPathComponent("feeds").path,
        htmlFile: folder.appendingPathComponent("new.html").path))
    _ = try await runner.run(RunOptions(now: Self.start, notifyFirstRun: true)).commit()
    let atom = folder.appendingPathComponent("feeds/desks.xml")
    let before = try String(contentsOf: atom, encoding: .utf8)
    #expect(before.contains("<title>Oak desk $120</title>"))
    feed.prices = ["desk": 90]
    let later = Self.start.addingTimeInterval(3600)
    _ = try await runner.run(RunOptions(now: later)).commit()
    let after = try String(contentsOf: atom, encoding: .utf8)
    #expect(after.contains("<title>120 → 90 (-25%) · Oak desk $90</title>"), "\(after)")
    #expect(
      after.contains(
        "<id>urn:clarissa:feed:desk:price_drop:\(Int(later.timeIntervalSince1970))</id>"))
    #expect(after.contains(#"<category scheme="urn:clarissa:event" term="price_drop"/>"#))
    #expect(after.components(separatedBy: "<entry>").count == 2, "the change replaces the entry")
    let page = try String(
      contentsOf: folder.appendingPathComponent("new.html"), encoding: .utf8)
    #expect(page.contains(#"<div class="event">price drop: 120 → 90 (-25%)</div>"#))
    // A change in the export, and back.
    let store = try ListingStore.open(
      path: folder.appendingPathComponent("clarissa.db").path, readOnly: true)
    let recent = try store.recent(searches: ["desks"], limit: 10)
    #expect(recent.map { $0.listing.event } == [ListingEvent(kind: .priceDrop, oldPrice: 120)])
  }
}

/// The summary line names what changed: a plain price drop is "1 price drop".
@Suite struct ChangeSummaryTests {
  static func listing(_ id: String, _ kind: ListingEventKind) -> Listing {
    var listing = Listing(id: id, site: "feed", url: "https://example.org/\(id)", title: id)
    listing.event = ListingEvent(kind: kind, oldPrice: 100)
    return listing
  }

  @Test func oneKindIsNamedAlone() {
    #expect(RunReport.changes([Self.listing("a", .priceDrop)]) == "1 price drop")
    #expect(
      RunReport.changes([Self.listing("a", .priceRise), Self.listing("b", .priceRise)])
        == "2 price rises")
  }

  @Test func severalKindsAreCountedEach() {
    let listings = [
      Self.listing("a", .priceDrop), Self.listing("b", .back), Self.listing("c", .priceDrop),
    ]
    #expect(RunReport.changes(listings) == "3 changed (2 price drops, 1 returned)")
  }

  /// Text changes are counted as changes, not as "changeds", and the summary message of an
  /// announcement over its room says what it stands for ("1,951 more new" said it of changes).
  @Test func textChangesAreCountedAsChanges() {
    let changed = (0..<2_000).map { Self.listing("c\($0)", .changed) }
    #expect(RunReport.changes(changed) == "2,000 changed")
    #expect(
      RunReport.changes([Self.listing("a", .gone), Self.listing("b", .gone)]) == "2 gone")
    let fresh = (0..<51).map { Listing(id: "n\($0)", site: "feed", url: "u", title: "t") }
    let mixed = Announcement.summary(Array(changed.prefix(1_900)) + fresh, search: "flats")
    #expect(
      mixed.title.hasPrefix("and 1,951 more (51 new, 1,900 changed) in 'flats'"), "\(mixed.title)")
    let new = Announcement.summary(fresh, search: "flats")
    #expect(new.title.hasPrefix("and 51 more new in 'flats'"), "\(new.title)")
  }
}
