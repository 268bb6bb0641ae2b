import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import Curl
@testable import ListingStore

/// The run's stages as one line: `explain` and `run` reach the same verdicts, a batch accepted
/// in part is retried only for the rest, and every cool-down is measured on the run's clock.
@Suite(.serialized) struct SpineTests {
  @Test func explainAndRunGiveTheSameVerdictForEveryListingOfTheBundledReplay() async throws {
    let config = try RunnerTests.config()
    let state = RunnerTests.temporaryState()
    // A first run on one recording, so the second has seen, new and filtered listings.
    _ = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "default", state: state),
      RunOptions(now: RunnerTests.noon))
    let later = RunnerTests.noon.addingTimeInterval(3 * 3600)
    let runner = try RunnerTests.runner(config, replay: "next", state: state)
    var compared = 0
    for search in config.searches where search.enabled {
      let explained = try await runner.explain(search: search.name, now: later)
      let pending = try await runner.run(RunOptions(now: later, only: search.name, dryRun: true))
      let judged = pending.judgements[search.name] ?? []
      let runVerdicts = Dictionary(judged.map { ($0.listing.key, $0.verdict) }) { first, _ in first
      }
      for entry in explained.entries where entry.verdict != .filtered {
        #expect(
          runVerdicts[entry.listing.key] == entry.verdict,
          "\(search.name) \(entry.listing.id): explain says \(entry.status)")
        compared += 1
      }
      // A listing the run did not filter (seen ones are not filtered again) is never one
      // explain says is filtered and new at once.
      #expect(explained.entries.count == judged.count)
    }
    #expect(compared > 100, "the replay's listings were all compared (\(compared))")
    let verdicts = Set(
      try await runner.explain(search: "ipads", now: later).entries.map(\.status))
    #expect(verdicts.contains("new"))
    #expect(verdicts.contains { $0.hasPrefix("seen since") })
    #expect(verdicts.contains("ignored"))
  }

  @Test func aBatchAcceptedInPartIsRetriedOnlyForTheRest() async throws {
    let refusing = Flag()
    refusing.value = true
    // Accepts the first message, refuses every later one while `refusing`.
    let receiver = try LoopbackServer { _, count in
      refusing.value && count > 0 ? .text("busy", status: 503) : .init(status: 200)
    }
    let feed = try LoopbackServer { _, _ in .text(RunnerLoopbackTests.feed(["a", "b", "c"])) }
    let yaml = """
      version: 1
      notify:
        hook: json://127.0.0.1:\(receiver.port)/hook
      searches:
        - name: bikes
          site: feed
          feeds: [\(feed.base)/feed.xml]
          notify: [hook]
      """
    let config = try RunnerTests.config(yaml)
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state).delivering(to: config)
    let first = try await runner.run(RunOptions(now: RunnerTests.noon, notifyFirstRun: true))
      .commit()
    #expect(first.deliveryFailures.first?.contains("HTTP 503") == true)
    #expect(try Stored(state).deliveredTo("bikes", site: "feed", id: "a") == ["hook"])
    #expect(Set(try Stored(state).owed().map(\.listing.id)) == ["b", "c"])
    refusing.value = false
    let second = try await runner.run(RunOptions(now: RunnerTests.noon.addingTimeInterval(120)))
      .commit()
    #expect(second.deliveryFailures.isEmpty)
    #expect(Set(second.searches[0].delivered.map(\.id)) == ["b", "c"])
    let posted = receiver.requests.map(\.text)
    #expect(posted.filter { $0.contains("\"id\":\"a\"") }.count == 1, "a was accepted: not again")
    #expect(posted.filter { $0.contains("\"id\":\"b\"") }.count == 2, "refused once, then sent")
    #expect(posted.filter { $0.contains("\"id\":\"c\"") }.count == 1, "never tried, then sent")
    let keys = receiver.requests.compactMap { $0.headers["idempotency-key"] }
    #expect(keys.count == receiver.requests.count, "every post carries an Idempotency-Key")
    #expect(Set(keys).count == 3, "the same key on b's repeat, one per listing")
  }

  @Test func a403AndA429InOneRunCoolDownOnTheRunsClock() async throws {
    // The run's clock is a day in the past: a cool-down measured on this machine's clock
    // would be off by a day.
    let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 86_400).rounded(.down))
    let retryAt = now.addingTimeInterval(2 * 3600)
    let refusing = try LoopbackServer { _, _ in .text("Forbidden", status: 403) }
    let limiting = try LoopbackServer { _, _ in
      .text("slow down", status: 429, headers: ["Retry-After": Self.httpDate(retryAt)])
    }
    let config = try RunnerLoopbackTests.config([
      refusing.base + "/feed.xml", limiting.base + "/feed.xml",
    ])
    let state = RunnerTests.temporaryState()
    _ = try await RunnerLoopbackTests.runner(config, state: state).run(RunOptions(now: now))
      .commit()
    let cooldowns = try Stored(state).cooldowns()
    let blocked = try #require(cooldowns["127.0.0.1:\(refusing.port)"])
    let limited = try #require(cooldowns["127.0.0.1:\(limiting.port)"])
    #expect(blocked.until == now.addingTimeInterval(3600), "the runner's block cool-down")
    #expect(limited.until == retryAt, "Retry-After's date, measured from the run's clock")
    #expect(blocked.since == now && limited.since == now)
  }

  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }
}

extension Runner {
  /// The same runner with the config's real senders.
  func delivering(to config: Config) -> Runner {
    Runner(
      config: config, sites: sites, scheduler: scheduler, statePath: statePath,
      channels: ChannelFactory.senders(
        for: config, fetcher: CurlFetcher(limits: FetchLimits(timeout: 2, maxBytes: 1 << 20)),
        environment: [:], baseDirectory: "/"),
      outputs: outputs)
  }
}
