import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import Sites
import Testing

/// Runs through the real fetcher against loopback servers: a block cools the host down across
/// runs; one host down does not stop the others.
@Suite(.serialized) struct RunnerLoopbackTests {
  static let feed = (try? Fixtures.bytes("http/feed.xml")) ?? []

  static func config(_ feeds: [String]) throws -> Config {
    let yaml = """
      version: 1
      searches:
      \(feeds.enumerated().map { "  - name: s\($0.offset)\n    site: feed\n    feeds: [\($0.element)]\n    interval: 1m" }.joined(separator: "\n"))
      """
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "loop.yaml", environment: [:], sites: Registry.sites)
    return try #require(
      result.config, "\(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))")
  }

  static func runner(_ config: Config, state: String) -> Runner {
    var settings = SchedulerSettings(blockCooldown: 3600, userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20))
    return Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher, settings: settings), statePath: state)
  }

  static func state() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-loop-\(UUID().uuidString)/state.json"
    ).path
  }

  @Test func aBlockIsReportedOnceAndTheHostCoolsDownOnTheNextRun() async throws {
    let server = try LoopbackServer { _, _ in
      .text("<html><body>Your request has been blocked</body></html>", status: 403)
    }
    let config = try Self.config([server.base + "/feed.xml"])
    let path = Self.state()
    let now = Date()
    let first = try await Self.runner(config, state: path).run(RunOptions(now: now)) { _ in }
    #expect(first.blocks.count == 1)
    #expect(first.blocks.first?.contains("blocked clarissa") == true)
    #expect(first.sourcesFailed)
    let cooldown = try #require(
      try StateStore(path: path).load().cooldowns["127.0.0.1:\(server.port)"])
    #expect(cooldown.until > now)
    let second = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(120))
    ) { _ in }
    #expect(server.requests.count == 1, "no request during the cool-down")
    #expect(second.searches.first?.notes.first?.contains("cooling down") == true)
    #expect(!second.sourcesFailed, "a known cool-down is a note, not a new failure")
  }

  @Test func oneHostDownWhileTheOtherAnswers() async throws {
    let server = try LoopbackServer { _, _ in .init(body: Self.feed) }
    let down = "http://127.0.0.1:\(LoopbackServer.closedPort())/feed.xml"
    let config = try Self.config([down, server.base + "/feed.xml"])
    let result = try await Self.runner(config, state: Self.state()).run(
      RunOptions(now: Date(), notifyFirstRun: true)
    ) { _ in }
    #expect(result.searches[0].failures.count == 1)
    #expect(result.searches[1].failures.isEmpty)
    #expect(result.searches[1].new.map(\.id) == ["loop-1", "loop-2"])
  }
}
