import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Presentation
import Sites
import Testing

/// A refusing host, end to end through the real fetcher on loopback servers: what the report
/// says (the server's own words, advice for the kind of host), the cool-down on the run's clock,
/// and the one request a changed URL or `--search NAME --force` earns.
@Suite(.serialized) struct CooldownTests {
  static let noon = ISO8601DateFormatter().date(from: "2026-05-03T12:00:00Z") ?? Date()
  static let utc = TimeZone(identifier: "UTC") ?? .current
  static let refusal = "<html><body><h1>Forbidden</h1>\n<p>token expired</p></body></html>"

  static func options(
    _ minutes: Double = 0, force: Bool = false, only: String? = nil
  ) -> RunOptions {
    var options = RunOptions(
      now: noon.addingTimeInterval(minutes * 60), force: force, only: only)
    options.timeZone = utc
    return options
  }

  static func run(_ feed: String, state: String, _ options: RunOptions) async throws
    -> RunResult
  {
    let config = try RunnerLoopbackTests.config([feed])
    return try await RunnerLoopbackTests.runner(config, state: state).run(options).commit()
  }

  @Test func aRefusalFromOnesOwnFeedSaysWhatTheServerSaidAndHowToClearIt() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.refusal, status: 403) }
    let path = RunnerLoopbackTests.state()
    let result = try await Self.run(server.base + "/feed.xml", state: path, Self.options())
    let host = "127.0.0.1:\(server.port)"
    #expect(
      result.blocks == [
        "\(host): the server answered 403 Forbidden: \u{201C}Forbidden token expired\u{201D}: "
          + "check the URL and any token it needs; clarissa will not ask again before 13:00; "
          + "clear with 'clarissa state cooldowns --clear \(host)'"
      ])
    #expect(result.searches[0].status == .failed, "no source answered")
    let stored = try #require(try Stored(path).cooldowns()[host])
    #expect(stored.until == Self.noon.addingTimeInterval(3600), "on the run's clock")
    #expect(stored.since == Self.noon)
    #expect(stored.status == 403)
    #expect(stored.answer == "Forbidden token expired")
    #expect(stored.urls == [server.base + "/feed.xml"])
  }

  @Test func craigslistHostsGetCraigslistsAdviceAndOnlyThey() {
    let cooldown = Cooldown(
      until: Self.noon.addingTimeInterval(6 * 3600), reason: "answered 403 Forbidden",
      status: 403, answer: "Your request has been blocked")
    let craigslist = cooldown.advice(
      host: "sapi.craigslist.org", now: Self.noon, timeZone: Self.utc)
    #expect(craigslist.contains("residential connection"))
    #expect(craigslist.contains("before 18:00"))
    #expect(!craigslist.contains("token"))
    let own = cooldown.advice(host: "feeds.example.org", now: Self.noon, timeZone: Self.utc)
    #expect(!own.contains("residential"))
    #expect(own.contains("check the URL and any token it needs"))
    #expect(!Cooldown.isCraigslist("notcraigslist.org"))
    #expect(Cooldown.isCraigslist("craigslist.org:443"))
  }

  @Test func aChangedURLAsksOnceAndARefusalRenewsTheCooldown() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.refusal, status: 403) }
    let path = RunnerLoopbackTests.state()
    _ = try await Self.run(server.base + "/old.xml", state: path, Self.options())
    #expect(server.requests.count == 1)
    let same = try await Self.run(server.base + "/old.xml", state: path, Self.options(2))
    #expect(server.requests.count == 1, "the same URL waits out the cool-down")
    #expect(same.searches[0].status == .coolingDown)
    #expect(same.everySourceCoolingDown)
    let changed = try await Self.run(server.base + "/new.xml", state: path, Self.options(4))
    #expect(server.requests.count == 2, "one request for the changed URL")
    #expect(server.requests.last?.path == "/new.xml")
    #expect(
      changed.blocks.first?.contains(
        "again (asked once because a request URL changed); the cool-down is renewed") == true,
      "\(changed.blocks)")
    #expect(changed.blocks.first?.contains("before 13:04") == true, "renewed from this run")
    let stored = try #require(try Stored(path).cooldowns().values.first)
    #expect(stored.since == Self.noon, "still cooling since the first refusal")
    _ = try await Self.run(server.base + "/new.xml", state: path, Self.options(6))
    #expect(server.requests.count == 2, "asked once, not on every run")
  }

  @Test func aChangedURLThatAnswersLiftsTheCooldown() async throws {
    let server = try LoopbackServer { request, _ in
      request.path == "/old.xml"
        ? .text(Self.refusal, status: 403) : .text(RunnerLoopbackTests.feed(["a1", "a2"]))
    }
    let path = RunnerLoopbackTests.state()
    _ = try await Self.run(server.base + "/old.xml", state: path, Self.options())
    let fixed = try await Self.run(server.base + "/new.xml", state: path, Self.options(2))
    #expect(fixed.blocks.isEmpty)
    #expect(fixed.searches[0].status == .primed)
    #expect(fixed.searches[0].primed == 2)
    #expect(fixed.searches[0].notes.contains { $0.contains("cool-down lifted") })
    #expect(try Stored(path).cooldowns().isEmpty)
  }

  @Test func forceOnOneSearchAsksOnceButForceOnAllDoesNot() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.refusal, status: 403) }
    let path = RunnerLoopbackTests.state()
    let feed = server.base + "/feed.xml"
    _ = try await Self.run(feed, state: path, Self.options())
    let all = try await Self.run(feed, state: path, Self.options(2, force: true))
    #expect(server.requests.count == 1, "--force alone never floods a refusing host")
    #expect(
      all.blocks.first?.contains("ask it once with 'clarissa run --search s0 --force'") == true)
    let one = try await Self.run(feed, state: path, Self.options(4, force: true, only: "s0"))
    #expect(server.requests.count == 2)
    #expect(one.blocks.first?.contains("asked once because of 'run --search s0 --force'") == true)
  }

  @Test func aRefusalIsReportedOnceForEverySearchOnTheHost() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.refusal, status: 403) }
    let config = try RunnerLoopbackTests.config([server.base + "/a.xml", server.base + "/b.xml"])
    let result = try await RunnerLoopbackTests.runner(config, state: RunnerLoopbackTests.state())
      .run(Self.options()).commit()
    #expect(server.requests.count == 1, "nothing more asked of a host that refused")
    #expect(result.blocks.count == 1, "\(result.blocks)")
    #expect(result.searches.map(\.status) == [.failed, .coolingDown])
  }
}
