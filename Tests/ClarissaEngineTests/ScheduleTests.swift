import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Foundation
import ListingStore
import Sites
import Testing

/// When a search is due again: after its interval from the last run that reached a source, and
/// after a failed attempt never at once (in `watch` that asked a failing host every second).
@Suite struct ScheduleTests {
  static let t0 = Date(timeIntervalSince1970: 1_780_000_000)

  @Test func aSearchThatNeverRanIsDueNow() {
    #expect(SearchMemory().nextDue(interval: 1800) == nil)
  }

  @Test func aRunThatReachedASourceWaitsItsInterval() {
    let state = SearchMemory(lastRun: Self.t0, lastAttempt: Self.t0)
    #expect(state.nextDue(interval: 1800) == Self.t0.addingTimeInterval(1800))
  }

  @Test(arguments: [(60.0, 60.0), (1800, 900), (21_600, 900)])
  func aFailedAttemptIsRetriedAfterTheShorterOfIntervalAndRetryDelay(
    interval: Double, wait: Double
  ) {
    let failedFirst = SearchMemory(lastRun: nil, lastAttempt: Self.t0)
    #expect(failedFirst.nextDue(interval: interval) == Self.t0.addingTimeInterval(wait))
    let failedLater = SearchMemory(
      lastRun: Self.t0.addingTimeInterval(-interval), lastAttempt: Self.t0)
    #expect(failedLater.nextDue(interval: interval) == Self.t0.addingTimeInterval(wait))
  }

  @Test func watchDoesNotWakeAtOnceForASearchWhoseSourcesFailed() throws {
    let yaml = """
      version: 1
      searches:
        - name: down
          site: feed
          feeds: [http://127.0.0.1:9/feed.xml]
          interval: 30m
      """
    let loaded = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "s.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let config = try #require(loaded.config)
    let wake = WatchSchedule.nextWake(
      config: config, searches: ["down": SearchMemory(lastRun: nil, lastAttempt: Self.t0)],
      held: [], owed: false, now: Self.t0, jitter: 0)
    #expect(wake == Self.t0.addingTimeInterval(900))
  }

  @Test func watchSleepsThroughASkipWindow() throws {
    let yaml = """
      version: 1
      blackout:
        night: {timezone: UTC, from: "22:00", to: "06:00", mode: skip}
      searches:
        - name: quiet
          site: feed
          feeds: [http://127.0.0.1:9/feed.xml]
          blackout: [night]
      """
    let loaded = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "s.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let config = try #require(loaded.config)
    // 05:30 UTC: inside the window, and the search never ran (watch wakes at least hourly).
    let now = try #require(ISO8601DateFormatter().date(from: "2026-11-23T05:30:00Z"))
    let wake = WatchSchedule.nextWake(
      config: config, searches: [:], held: [], owed: false, now: now, jitter: 0)
    #expect(wake == ISO8601DateFormatter().date(from: "2026-11-23T06:00:01Z"))
  }
}
