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
      bytes: Array(yaml.utf8), name: "loop.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
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
      "clarissa-loop-\(UUID().uuidString)/clarissa.db"
    ).path
  }

  @Test func aBlockIsReportedOnceAndTheHostCoolsDownOnTheNextRun() async throws {
    let server = try LoopbackServer { _, _ in
      .text("<html><body>Your request has been blocked</body></html>", status: 403)
    }
    let config = try Self.config([server.base + "/feed.xml"])
    let path = Self.state()
    let now = Date()
    let first = try await Self.runner(config, state: path).run(RunOptions(now: now)).commit()
    #expect(first.blocks.count == 1)
    #expect(first.blocks.first?.contains("the server answered 403 Forbidden") == true)
    #expect(first.sourcesFailed)
    let cooldown = try #require(
      try Stored(path).cooldowns()["127.0.0.1:\(server.port)"])
    #expect(cooldown.until > now)
    let second = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(120))
    ).commit()
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
    ).commit()
    #expect(result.searches[0].failures.count == 1)
    #expect(result.searches[1].failures.isEmpty)
    #expect(result.searches[1].new.map(\.id) == ["loop-1", "loop-2"])
  }

  @Test func aFirstRunWhoseSourcesFailDoesNotUnprimeTheSearch() async throws {
    let answering = Flag()
    let server = try LoopbackServer { _, _ in
      answering.value ? .init(body: Self.feed) : .text("down for maintenance", status: 500)
    }
    let config = try Self.config([server.base + "/feed.xml"])
    let path = Self.state()
    let now = Date()
    let first = try await Self.runner(config, state: path).run(RunOptions(now: now)).commit()
    #expect(first.searches[0].status == .failed, "nothing was primed: no source answered")
    #expect(first.sourcesFailed)
    answering.value = true
    let second = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(120))
    ).commit()
    #expect(second.searches[0].status == .primed)
    #expect(second.searches[0].new.isEmpty, "the listings already up are recorded, not notified")
    #expect(try Stored(path).seenCount("s0") == 2)
  }

  /// A feed with one item per id.
  static func feed(_ ids: [String]) -> String {
    let items = ids.map {
      "<item><title>Bike \($0)</title><link>http://127.0.0.1/l/\($0)</link><guid>\($0)</guid></item>"
    }
    return "<rss version=\"2.0\"><channel><title>t</title>\(items.joined())</channel></rss>"
  }

  @Test func aSourceAnsweringForTheFirstTimeIsPrimedAlone() async throws {
    // One search, two feeds. Run 1: /a answers, /b fails. Run 2: /b answers for the first time
    // with what it already had up (recorded, not notified); /a has one new listing (notified).
    let server = try LoopbackServer { request, count in
      switch (request.path, count) {
      case ("/a", 0): .text(Self.feed(["a1", "a2"]))
      case ("/a", _): .text(Self.feed(["a1", "a2", "a3"]))
      case ("/b", 0): .text("unavailable", status: 500)
      default: .text(Self.feed(["b1", "b2", "b3"]))
      }
    }
    let yaml = """
      version: 1
      searches:
        - name: bikes
          site: feed
          feeds: [\(server.base)/a, \(server.base)/b]
          interval: 1m
      """
    let loaded = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "loop.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let config = try #require(loaded.config)
    let path = Self.state()
    let now = Date()
    let first = try await Self.runner(config, state: path).run(RunOptions(now: now)).commit()
    #expect(first.searches[0].status == .primed)
    #expect(first.searches[0].new.isEmpty)
    let second = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(120))
    ).commit()
    #expect(second.searches[0].new.map(\.id) == ["a3"], "b's listings were up before b answered")
    #expect(second.searches[0].notes.contains { $0.contains("3 listings from a source") })
    let stored = try #require(try Stored(path).search("bikes"))
    #expect(stored.sources == [server.base + "/a", server.base + "/b"])
    #expect(try Stored(path).seenCount("bikes") == 6)
    let third = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(240))
    ).commit()
    #expect(third.searches[0].new.isEmpty, "nothing twice")
  }

  @Test func aFailingSourceIsNotAskedAgainBeforeItsRetryDelay() async throws {
    let server = try LoopbackServer { _, _ in .text("unavailable", status: 500) }
    let config = try Self.config([server.base + "/feed.xml"])  // interval 1m
    let path = Self.state()
    let now = Date()
    _ = try await Self.runner(config, state: path).run(RunOptions(now: now)).commit()
    let asked = server.requests.count
    let soon = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(10))
    ).commit()
    #expect(soon.searches[0].status == .notDue)
    #expect(server.requests.count == asked, "not asked again 10 s later")
    let later = try await Self.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(61))
    ).commit()
    #expect(later.searches[0].status == .failed, "asked again, and failed again")
    #expect(server.requests.count > asked)
  }
}

/// `run --record DIR` saves every answer, even where the state holds validators that would have
/// made the server answer 304; the recording then replays.
@Suite struct RecordingLoopbackTests {
  @Test func recordingSendsUnconditionalRequestsSoTheRecordingReplays() async throws {
    let feed = RunnerLoopbackTests.feed
    let server = try LoopbackServer { request, _ in
      if request.headers["if-none-match"] == "\"v1\"" { return .init(status: 304) }
      return .init(status: 200, headers: ["ETag": "\"v1\""], body: feed)
    }
    let config = try RunnerLoopbackTests.config([server.base + "/feed.xml"])
    let path = RunnerLoopbackTests.state()
    let now = Date()
    _ = try await RunnerLoopbackTests.runner(config, state: path).run(RunOptions(now: now)).commit()
    // A second plain run is conditional and gets a 304: the validators are in the state.
    _ = try await RunnerLoopbackTests.runner(config, state: path).run(
      RunOptions(now: now.addingTimeInterval(120), force: true)
    ).commit()
    #expect(server.requests.last?.headers["if-none-match"] == "\"v1\"")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-rec-\(UUID().uuidString)"
    ).path
    var settings = SchedulerSettings(blockCooldown: 3600, userAgent: "clarissa-test/1")
    settings.delayOverride = 0
    let recorder = try RecordingFetcher(
      wrapping: CurlFetcher(limits: FetchLimits(timeout: 5, maxBytes: 1 << 20)), folder: folder)
    let recorded = try await Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: recorder, settings: settings), statePath: path
    ).run(RunOptions(now: now.addingTimeInterval(240), force: true)).commit()
    #expect(server.requests.last?.headers["if-none-match"] == nil, "recording asks unconditionally")
    #expect(!recorded.sourcesFailed)

    let replayed = try await Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: try ReplayFetcher(folder: folder), settings: settings),
      statePath: RunnerLoopbackTests.state()
    ).run(RunOptions(now: now, notifyFirstRun: true)).commit()
    #expect(!replayed.sourcesFailed, "the recording holds the feed: \(replayed)")
    #expect(replayed.searches.first?.new.count ?? 0 > 0)
  }
}
