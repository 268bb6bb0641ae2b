import ClarissaConfig
import ClarissaCore
import Feeds
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore
@testable import Presentation

/// Answers an attacker would send, through the real fetcher and runner against loopback
/// servers: a `Retry-After` no integer holds once stopped every run with SIGILL.
@Suite(.serialized) struct HostileAnswerTests {
  static func runner(_ config: Config, state: String) -> Runner {
    var settings = SchedulerSettings(
      baseBackoff: 0.05, blockCooldown: 3600, userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20))
    return Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher, settings: settings), statePath: state)
  }

  /// Each value with what the report must say of it.
  static let retryAfters: [(String, String)] = [
    ("inf", "is neither a number of seconds nor an HTTP date: ignored"),
    ("1e23", "is neither a number of seconds nor an HTTP date: ignored"),
    ("1e18", "is neither a number of seconds nor an HTTP date: ignored"),
    ("-1", "is neither a number of seconds nor an HTTP date: ignored"),
    ("1000000000000000000", "asks for more than clarissa's ceiling of 7 d: waiting 7 d"),
    ("99999999999999999999999", "asks for more than clarissa's ceiling of 7 d: waiting 7 d"),
    ("Fri, 31 Dec 9999 23:59:59 GMT", "asks for more than clarissa's ceiling of 7 d: waiting 7 d"),
  ]

  @Test(arguments: retryAfters)
  func aRetryAfterNoIntegerHoldsIsReportedAndBounded(value: String, said: String) async throws {
    let limiting = try LoopbackServer { _, _ in
      .text("slow down", status: 429, headers: ["Retry-After": value])
    }
    let feed = try LoopbackServer { _, _ in .init(body: RunnerLoopbackTests.feed) }
    let config = try RunnerLoopbackTests.config([
      limiting.base + "/feed.xml", feed.base + "/feed.xml",
    ])
    let state = RunnerLoopbackTests.state()
    let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let result = try await Self.runner(config, state: state).run(RunOptions(now: now)).commit()
    let host = "127.0.0.1:\(limiting.port)"
    #expect(
      result.blocks.contains { $0.contains(host) && $0.contains("'\(value)' \(said)") },
      "the report names the host and the header: \(result.blocks)")
    #expect(result.searches.count == 2)
    #expect(result.searches[1].failures.isEmpty, "the other source was read: \(result.searches)")
    let cooldown = try #require(try Stored(state).cooldowns()[host])
    #expect(cooldown.until <= now.addingTimeInterval(Cooldown.ceiling))
    #expect(cooldown.until > now)
  }

  @Test func aCooldownStoredBeyondTheCeilingWaitsNoLongerThanIt() async throws {
    // An older version stored `Retry-After: 1e18` as it came: the year 31,688,740,533.
    let server = try LoopbackServer { _, _ in .init(body: RunnerLoopbackTests.feed) }
    let config = try RunnerLoopbackTests.config([server.base + "/feed.xml"])
    let state = RunnerLoopbackTests.state()
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    _ = try await Self.runner(config, state: state).run(RunOptions(now: now)).commit()
    let host = "127.0.0.1:\(server.port)"
    let store = try ListingStore.open(path: state, readOnly: false)
    try store.setCooldown(
      Cooldown(
        until: now.addingTimeInterval(1e18), reason: "answered 429 3 times", since: now,
        status: 429),
      host: host)
    let later = now.addingTimeInterval(Cooldown.ceiling + 60)
    _ = try await Self.runner(config, state: state).run(RunOptions(now: later, force: true))
      .commit()
    #expect(server.requests.count == 2, "asked again once the ceiling had passed")
  }

  @Test func anExportOfAnyCooldownImportsAndExportsTheSame() throws {
    let store = try StoreSamples.store()
    try StoreSamples.filled(store)
    let start = StoreSamples.start
    for (host, seconds) in [("far.example", 1e18), ("farther.example", 1e300)] {
      try store.setCooldown(
        Cooldown(until: start.addingTimeInterval(seconds), reason: "asked", status: 429),
        host: host)
    }
    let exported = try StoreSamples.lines(store)
    let copy = try StoreSamples.store()
    _ = try copy.importLines(StoreSamples.data(exported), file: "state.jsonl")
    #expect(try StoreSamples.lines(copy) == exported)
    #expect(exported.contains { $0.contains("far.example") && $0.contains("9999-12-31T23:59:59Z") })
  }

  @Test func retryAfterValuesAreReadWithoutTrusting() {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    #expect(RetryAfter("120", now: now).seconds == 120)
    #expect(RetryAfter("1.5", now: now).seconds == 1.5)
    #expect(RetryAfter(nil, now: now) == RetryAfter(seconds: nil, problem: nil))
    #expect(RetryAfter("nan", now: now).seconds == nil)
    #expect(RetryAfter("0x10", now: now).seconds == nil)
    #expect(RetryAfter("\u{1B}]0;owned\u{07}", now: now).problem?.contains("\u{1B}") == false)
    #expect(RetryAfter("604801", now: now).seconds == Cooldown.ceiling)
    #expect(RetryAfter("604800", now: now).problem == nil)
  }

  @Test func aClockNoIntegerHoldsIsNoDate() {
    // Found by the answers fuzzer once it saw the feed parser's code: a trap in FeedDate.
    // The clock is passed over, as any word that is no clock is: the day is kept.
    let day = FeedDate.parse("10 Jun 2003")
    #expect(day != nil)
    #expect(FeedDate.parse("10 Jun 2003 04:\(String(repeating: "6", count: 70))00:00 EST") == day)
    #expect(FeedDate.parse("10 Jun 2003 1e300:00:00 GMT") == day)
    #expect(FeedDate.parse("10 Jun 2003 04:00:00 GMT") != nil)
  }

  @Test func numbersFromOutsideNeverTrap() {
    #expect(CheckedNumber.integer(Double.infinity) == nil)
    #expect(CheckedNumber.integer(Double.nan) == nil)
    #expect(CheckedNumber.integer(9.223_372_036_854_775_808e18) == nil)
    #expect(CheckedNumber.integer(-9.223_372_036_854_775_808e18) == nil)
    #expect(CheckedNumber.integer(9.223_372_036_854_774_784e18) == 9_223_372_036_854_774_784)
    #expect(CheckedNumber.clampedInteger(1e300) == Int.max)
    #expect(CheckedNumber.clampedInteger(-.infinity) == Int.min)
    #expect(CheckedNumber.text(1e30) == "1e+30")
    #expect(CheckedNumber.text(120) == "120")
    #expect(CheckedNumber.text(.nan) == "nan")
    #expect(CheckedNumber.percent(from: 1e-300, to: 1e300) == nil)
    #expect(CheckedNumber.percent(from: 100, to: 75) == -25)
    #expect(CheckedNumber.sum(Int.max, 1) == nil)
    #expect(CheckedNumber.nanoseconds(.infinity) == UInt64(Cooldown.ceiling * 1e9))
    #expect(CheckedNumber.nanoseconds(-1) == 0)
    #expect(CheckedNumber.integer(NSNumber(value: 1e30)) == nil)
    #expect(CheckedNumber.integer(NSNumber(value: true)) == nil)
    #expect(CheckedNumber.integer(NSNumber(value: Int64.max)) == Int.max)
    #expect(CheckedNumber.grouped(140_000) == "140,000")
    #expect(Age.describe(from: .distantFuture, to: .distantPast) == "just now")
    #expect(
      ReportClock.span(.infinity).hasSuffix("d") || ReportClock.span(.infinity).hasSuffix("h"))
  }
}
