import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing

/// Servers that misbehave, and answers far larger than usual: each a clear failure of that
/// source only, or a clean success.
@Suite(.serialized) struct FaultTests {
  static let feed = (try? Fixtures.bytes("http/feed.xml")) ?? []

  static func scheduler() -> RequestScheduler {
    var settings = SchedulerSettings(userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    return RequestScheduler(
      fetcher: CurlFetcher(limits: FetchLimits(timeout: 3, maxBytes: 8 << 20)),
      settings: settings)
  }
  /// A runner over `yaml` with a fresh state file, and that file's path.
  static func runner(_ yaml: String) throws -> (runner: Runner, state: String) {
    let config = try #require(
      ConfigLoader.load(
        bytes: Array(yaml.utf8), name: "f.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all
      ).config)
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fault-\(UUID().uuidString)/clarissa.db"
    ).path
    let runner = Runner(
      config: config, sites: Registry.sites, scheduler: Self.scheduler(), statePath: state)
    return (runner, state)
  }

  static func job(_ url: String) -> FetchJob {
    FetchJob(
      search: "s", request: RequestSpec(url: url, mode: "feed"),
      politeness: Politeness(minimumDelay: 0, jitter: 0, concurrencyPerHost: 1, minimumInterval: 60)
    )
  }

  @Test func aServerThatClosesMidBodyIsAFailureNotAShortFeed() async throws {
    let server = try LoopbackServer { _, _ in .init(body: Self.feed, cutAfter: Self.feed.count / 2)
    }
    let (outcomes, _) = await Self.scheduler().run(
      [Self.job(server.base + "/feed.xml")], validators: [:], cooldowns: [:], now: Date())
    guard case .failed(let reason) = outcomes[0].status else {
      Issue.record("a body cut short must fail, got \(outcomes[0].status)")
      return
    }
    #expect(!reason.isEmpty)
  }

  @Test func garbageInsteadOfHTTPIsAFailure() async throws {
    let server = try LoopbackServer { _, _ in
      .init(raw: Array("\u{0}\u{1}garbage, not HTTP\r\n\r\n".utf8))
    }
    let (outcomes, _) = await Self.scheduler().run(
      [Self.job(server.base + "/feed.xml")], validators: [:], cooldowns: [:], now: Date())
    guard case .failed = outcomes[0].status else {
      Issue.record("garbage must fail, got \(outcomes[0].status)")
      return
    }
  }

  @Test func garbageWithAnOKStatusIsTheSourcesFailureOnly() async throws {
    let good = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let bad = try LoopbackServer { _, _ in .text("<html><body>maintenance</body></html>") }
    let yaml = """
      version: 1
      searches:
        - name: good
          site: feed
          feeds: [\(good.base)/feed.xml]
        - name: bad
          site: feed
          feeds: [\(bad.base)/feed.xml]
      """
    let (runner, _) = try Self.runner(yaml)
    let result = try await runner.run(RunOptions(notifyFirstRun: true)).commit()
    #expect(result.searches[0].new.count == 2)
    #expect(
      result.searches[1].failures.first?.contains("not a feed: the root element is <html>") == true)
  }

  @Test func tenThousandListingsInOneAnswer() async throws {
    let items = (0..<10_000).map { index in
      "<item><title>Listing \(index) - $\(index)</title><link>http://127.0.0.1/l/\(index)</link><guid>big-\(index)</guid><description>&lt;p&gt;Item \(index)&amp;nbsp;for sale&lt;/p&gt;</description></item>"
    }
    let body = Array(
      ("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>big</title>" + items.joined()
        + "</channel></rss>").utf8)
    let server = try LoopbackServer { _, _ in .init(body: body) }
    let yaml = """
      version: 1
      searches:
        - name: big
          site: feed
          feeds: [\(server.base)/feed.xml]
          price: {max: 4999}
      limits:
        new_per_answer: 5000
      """
    let (runner, state) = try Self.runner(yaml)
    let first = try await runner.run(RunOptions(notifyFirstRun: true)).commit()
    #expect(first.searches[0].fetched == 10_000)
    #expect(first.searches[0].new.count == 5_000)
    let second = try await runner.run(RunOptions(now: Date().addingTimeInterval(3600))).commit()
    #expect(second.newListings.isEmpty)
    #expect(try Stored(state).seenCount("big") == 5_000)
  }
}
