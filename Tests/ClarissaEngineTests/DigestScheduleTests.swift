import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// Scheduled digests (`digest: daily 08:00`): read and checked from the config, due at the first
/// scheduled time after the oldest owed delivery, held by quiet hours, sent as one message per
/// channel (every search's part of it) through the runner on a fake clock to a loopback
/// receiver, and left owed when refused.
@Suite(.serialized) struct DigestScheduleTests {
  /// 2026-05-25 07:00 UTC, a Monday.
  static let seven = Date(timeIntervalSince1970: 1_779_692_400)
  static func at(_ hours: Double) -> Date { seven.addingTimeInterval(hours * 3600) }

  @Test func schedulesAreReadWithTheirDayTimeAndZone() throws {
    let utc = DigestSchedule(time: TimeOfDay(minutes: 8 * 60), timeZone: "UTC")
    #expect(try DigestSchedule.parse("daily 08:00 UTC").get() == utc)
    #expect(
      try DigestSchedule.parse("Weekly Monday 8:00").get()
        == DigestSchedule(day: .mon, time: TimeOfDay(minutes: 480)))
    #expect(utc.occurrence(atOrAfter: Self.seven) == Self.at(1))
    #expect(utc.occurrence(atOrAfter: Self.at(1)) == Self.at(1))
    #expect(utc.occurrence(atOrAfter: Self.at(1.01)) == Self.at(25))
    let tuesday = DigestSchedule(day: .tue, time: TimeOfDay(minutes: 480), timeZone: "UTC")
    #expect(tuesday.occurrence(atOrAfter: Self.at(2)) == Self.at(25))
    // Paris in summer is UTC+2: 08:00 there is 06:00 UTC, so the next is tomorrow's.
    let paris = DigestSchedule(time: TimeOfDay(minutes: 480), timeZone: "Europe/Paris")
    #expect(paris.occurrence(atOrAfter: Self.seven) == Self.at(23))
  }

  @Test func badSchedulesAreExplainedWhereTheyAreWritten() throws {
    let yaml = """
      version: 1
      notify:
        a: {url: "json://127.0.0.1:9/a", digest: dayly 8:00}
        b: {url: "json://127.0.0.1:9/b", digest: weekly mnday 08:00}
        c: {url: "json://127.0.0.1:9/c", digest: daily 8:61}
        d: {url: "json://127.0.0.1:9/d", digest: daily 08:00 Mars/Olympus}
        e: {url: "json://127.0.0.1:9/e", digest: yes}
      searches: []
      """
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "test.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let said = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
    #expect(
      said.contains(
        "test.yaml:3:44: error: unknown digest schedule 'dayly'; did you mean 'daily'?"), "\(said)")
    #expect(
      said.contains("test.yaml:4:51: error: unknown day 'mnday'; did you mean 'monday'?"), "\(said)"
    )
    #expect(
      said.contains("test.yaml:5:50: error: expected a 24-hour time such as '08:00', found '8:61'"),
      "\(said)")
    #expect(said.contains("test.yaml:6:56: error: unknown time zone 'Mars/Olympus'"), "\(said)")
    #expect(said.contains("test.yaml:7:44: error: expected true or false"), "\(said)")
  }

  @Test(arguments: StoreKind.built)
  func pendingCountsWhatIsOwedPerChannelUntilGivenUp(kind: StoreKind) throws {
    let store = try kind.open()
    let (a, b) = (StoreSamples.flat("a", 100), StoreSamples.flat("b", 120))
    try store.record(
      SearchRecord(
        search: "desks", now: Self.seven, seen: [a, b], owed: [a, b],
        channels: ["morning", "phone"], reached: true))
    try store.markDelivered(search: "desks", key: a.key, channel: "phone", at: Self.at(0.5))
    #expect(
      try store.pending(channels: ["morning", "phone", "none"], maxAttempts: 3) == [
        "morning": PendingDigest(count: 2, oldest: Self.seven),
        "phone": PendingDigest(count: 1, oldest: Self.seven),
      ])
    for _ in 0..<3 {
      _ = try store.markFailed(
        search: "desks", key: b.key, channel: "phone", error: "500", at: Self.at(1))
    }
    #expect(try store.pending(channels: ["phone"], maxAttempts: 3).isEmpty, "given up")
  }

  static func config(receiver: UInt16, feed: String, quiet: String = "") throws -> Config {
    try RunnerTests.config(
      """
      version: 1
      \(quiet)
      notify:
        morning: {url: "json://127.0.0.1:\(receiver)/digest", digest: daily 08:00 UTC}
      searches:
        - name: desks
          site: feed
          feeds: [\(feed)]
          notify: [morning]
          interval: 10m
      \(quiet.isEmpty ? "" : "    blackout: [lunch]")
      """)
  }

  @Test func aDigestGoesWhenDueOnceAcceptedAndARefusalLeavesItOwed() async throws {
    let ids = (1...6).map { "d\($0)" }
    let feed = try LoopbackServerFeed(ids)
    feed.prices = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, 100 + 10 * $0) })
    let refusing = Flag()
    refusing.value = true
    let receiver = try LoopbackServer { _, _ in .init(status: refusing.value ? 500 : 200) }
    let config = try Self.config(receiver: receiver.port, feed: feed.url)
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state).delivering(to: config)
    // 07:00: six new, owed to the digest; 08:00 is an hour away.
    _ = try await runner.run(RunOptions(now: Self.seven, notifyFirstRun: true)).commit()
    #expect(receiver.requests.isEmpty)
    let store = try ListingStore.open(path: state, readOnly: true)
    let plan = try DigestTiming.plan(config: config, memory: store)
    #expect(plan.map { $0.pending.count } == [6] && plan.map { $0.next } == [Self.at(1)])
    #expect(try DigestTiming.nextWake(config: config, memory: store, now: Self.seven) == Self.at(1))
    #expect(
      try WatchSchedule.nextWake(config: config, memory: store, now: Self.at(0.99)) <= Self.at(1))
    // 08:01, refused: tried once, all six still owed; 08:02 accepted: one message, nothing owed.
    _ = try await runner.run(RunOptions(now: Self.at(1.02))).commit()
    #expect(receiver.requests.count == 1)
    #expect(try DigestTiming.plan(config: config, memory: store).map { $0.pending.count } == [6])
    refusing.value = false
    _ = try await runner.run(RunOptions(now: Self.at(1.04))).commit()
    #expect(receiver.requests.count == 2)
    let body = receiver.requests[1].text
    #expect(body.contains("6 new for desks"), "\(body)")
    for id in ids { #expect(body.contains("/d/\(id)")) }
    // Each with its deal context: d1 at 100 against the other five (median 130).
    #expect(body.contains("23% below the median of 5 (130)"), "\(body)")
    #expect(receiver.requests[0].text == body, "the same message, sent again")
    #expect(try DigestTiming.plan(config: config, memory: store).isEmpty)
    // A new one at 08:10 waits for tomorrow's digest.
    feed.prices["d7"] = 170
    feed.items = ids + ["d7"]
    _ = try await runner.run(RunOptions(now: Self.at(1.2), force: true)).commit()
    #expect(receiver.requests.count == 2)
    #expect(try DigestTiming.plan(config: config, memory: store).map { $0.next } == [Self.at(25)])
  }

  @Test func aDigestDueInQuietHoursWaitsForTheirEnd() async throws {
    let feed = try LoopbackServerFeed(["q1"])
    let receiver = try LoopbackServer { _, _ in .init(status: 200) }
    let quiet = "blackout:\n  lunch: {timezone: UTC, from: \"07:30\", to: \"09:00\", mode: skip}"
    let config = try Self.config(receiver: receiver.port, feed: feed.url, quiet: quiet)
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state).delivering(to: config)
    _ = try await runner.run(RunOptions(now: Self.seven, notifyFirstRun: true)).commit()
    let store = try ListingStore.open(path: state, readOnly: true)
    #expect(try DigestTiming.plan(config: config, memory: store).map { $0.next } == [Self.at(2)])
    _ = try await runner.run(RunOptions(now: Self.at(1.5))).commit()
    #expect(receiver.requests.isEmpty, "08:30 is in the quiet hours")
    _ = try await runner.run(RunOptions(now: Self.at(2.01))).commit()
    #expect(receiver.requests.count == 1)
  }

  @Test func aDigestOfTwoSearchesIsOneMessageRecordedWholeOrLeftOwedWhole() async throws {
    let desks = try LoopbackServerFeed(["d1", "d2", "d3"])
    desks.prices = ["d1": 100, "d2": 110, "d3": 120]
    let ipads = try LoopbackServerFeed(["i1", "i2"])
    ipads.prices = ["i1": 300, "i2": 320]
    let refusing = Flag()
    refusing.value = true
    let receiver = try LoopbackServer { _, _ in .init(status: refusing.value ? 500 : 200) }
    let config = try RunnerTests.config(
      """
      version: 1
      notify:
        morning: {url: "json://127.0.0.1:\(receiver.port)/digest", digest: daily 08:00 UTC}
      searches:
        - {name: desks, site: feed, feeds: [\(desks.url)], notify: [morning], interval: 10m}
        - {name: ipads, site: feed, feeds: [\(ipads.url)], notify: [morning], interval: 10m}
      """)
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state).delivering(to: config)
    _ = try await runner.run(RunOptions(now: Self.seven, notifyFirstRun: true)).commit()
    #expect(receiver.requests.isEmpty)
    let store = try ListingStore.open(path: state, readOnly: true)
    func owed() throws -> [String: [String]] {
      Dictionary(grouping: try store.owedDeliveries(maxAttempts: Deliver.maxAttempts)) {
        $0.search
      }.mapValues { $0.map(\.listing.id).sorted() }
    }
    let all = ["desks": ["d1", "d2", "d3"], "ipads": ["i1", "i2"]]
    #expect(try owed() == all)
    // 08:01, refused: one message for both searches, and all five still owed, tried once.
    _ = try await runner.run(RunOptions(now: Self.at(1.02))).commit()
    #expect(receiver.requests.count == 1)
    #expect(try owed() == all)
    #expect(try store.owedDeliveries(maxAttempts: 10).allSatisfy { $0.attempts == 1 })
    // 08:02, accepted: the same message again, and nothing owed in either search.
    refusing.value = false
    _ = try await runner.run(RunOptions(now: Self.at(1.04))).commit()
    #expect(receiver.requests.count == 2)
    #expect(receiver.requests[0].text == receiver.requests[1].text, "the same message")
    #expect(receiver.requests[0].headers["idempotency-key"] != nil)
    #expect(try owed().isEmpty)
    let sent = try #require(
      try JSONSerialization.jsonObject(with: Data(receiver.requests[1].body)) as? [String: Any])
    #expect(sent["title"] as? String == "5 new in 2 searches")
    #expect(sent["search"] as? String == "desks, ipads")
    #expect((sent["listings"] as? [Any])?.count == 5)
    // Each listing under its own search's name, in the order they were owed.
    let lines = try #require(sent["body"] as? String).split(separator: "\n").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(
      lines == [
        "desks:", "• Oak desk $100 — 100", "http://127.0.0.1/d/d1", "• Oak desk $110 — 110",
        "http://127.0.0.1/d/d2", "• Oak desk $120 — 120", "http://127.0.0.1/d/d3",
        "ipads:", "• Oak desk $300 — 300", "http://127.0.0.1/d/i1", "• Oak desk $320 — 320",
        "http://127.0.0.1/d/i2",
      ], "\(lines)")
    #expect(try DigestTiming.plan(config: config, memory: store).isEmpty)
  }

  @Test func eachSearchsPartIsShownWithItsOwnFactsUnderItsName() throws {
    var metres = Search(name: "flats", site: "feed")
    metres.facts.floorArea = PriceRange(min: 40)
    var feet = Search(name: "lofts", site: "feed")
    feet.facts.floorArea = PriceRange(min: 400)
    feet.facts.floorAreaUnit = .squareFeet
    let (a, b) = (
      StoreSamples.flat("a", 900, area: 50), StoreSamples.flat("b", 1200, area: 93)
    )
    let channel = Channel(
      name: "morning", kind: .json, url: "json://127.0.0.1:9/", grouping: .digest)
    // The same flat found by both searches is under both, in each one's unit.
    let digest = Search.digest([(metres, 2), (feet, 1)])
    let sent = MessageTemplate.messages(for: [a, b, a], search: digest, channel: channel)
    #expect(sent.count == 1 && sent.first?.listings.count == 3)
    let message = try #require(sent.first?.message)
    #expect(message.title == "3 new in 2 searches")
    #expect(
      message.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == [
        "flats:", "• Flat a — €900", "50 m²", "https://flats.example.org/a",
        "• Flat b — €1,200", "93 m²", "https://flats.example.org/b",
        "lofts:", "• Flat a — €900", "538 ft²", "https://flats.example.org/a",
      ], "\(message.body)")
    // A retry of the same content is the same message; another content is another.
    let again = MessageTemplate.messages(for: [a, b, a], search: digest, channel: channel)
    #expect(again.first?.message.key == message.key)
    let fewer = MessageTemplate.messages(
      for: [a, b], search: .digest([(metres, 1), (feet, 1)]), channel: channel)
    #expect(fewer.first?.message.key != message.key)
    // One search: the digest as a per-run digest says it.
    let one = MessageTemplate.messages(for: [a, b], search: metres, channel: channel)
    #expect(one.first?.message.title == "2 new for flats")
    #expect(one.first?.message.body.contains("flats:") == false)
  }
}
