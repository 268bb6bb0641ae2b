import FixtureSupport
import Foundation
import Testing

/// `clarissa state cooldowns` and a run whose every host is cooling down, as a user runs them:
/// the built binary, a loopback feed that answers 403, a state file of its own.
@Suite(.serialized) struct StateCommandTests {
  static let noon = "2026-05-03T12:00:00Z"
  static let later = "2026-05-03T12:05:00Z"

  /// A config with one feed search on `server`, and a state path beside it.
  static func setUp(_ server: LoopbackServer) throws -> (config: String, state: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml").path
    let yaml = """
      version: 1
      searches:
        - name: own-feed
          site: feed
          feeds: [\(server.base)/feed.xml]
          interval: 1m
      """
    try yaml.write(toFile: config, atomically: true, encoding: .utf8)
    return (config, folder.appendingPathComponent("clarissa.db").path)
  }

  static func clarissa(_ arguments: [String], environment: [String: String] = [:]) throws
    -> CommandLineTests.Outcome
  {
    var env = ["TZ": "UTC"]
    env.merge(environment) { $1 }
    return try CommandLineTests.run(arguments, environment: env)
  }

  @Test func listClearWithDidYouMeanAndClearAll() throws {
    let server = try LoopbackServer { _, _ in .text("<h1>Forbidden</h1> bad token", status: 403) }
    let (config, state) = try Self.setUp(server)
    let host = "127.0.0.1:\(server.port)"
    let first = try Self.clarissa(["run", "--config", config, "--state", state, "--now", Self.noon])
    #expect(first.status == 3, "a refusal this run is a failed source: \(first.stderr)")
    #expect(first.stdout.contains("blocked: \(host): the server answered 403 Forbidden"))
    #expect(first.stdout.contains("\u{201C}Forbidden bad token\u{201D}"))
    #expect(first.stdout.contains("clarissa will not ask again before 18:00"))
    #expect(!first.stdout.contains("residential"))

    let listed = try Self.clarissa(["state", "cooldowns", "--state", state, "--now", Self.later])
    #expect(listed.status == 0)
    #expect(
      listed.stdout == """
        host\(String(repeating: " ", count: host.count - 4))  since  until  why
        \(host)  12:00  18:00  answered 403 Forbidden: \u{201C}Forbidden bad token\u{201D}

        """)

    let typo = try Self.clarissa([
      "state", "cooldowns", "--state", state, "--clear", "127.0.0.1", "--now", Self.later,
    ])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("error: '127.0.0.1' is not cooling down; did you mean '\(host)'?"))

    let cleared = try Self.clarissa([
      "state", "cooldowns", "--state", state, "--clear", host, "--now", Self.later,
    ])
    #expect(cleared.status == 0, "\(cleared.stderr)")
    #expect(cleared.stdout == "cleared: \(host); the next run asks it again\n")
    let none = try Self.clarissa(["state", "cooldowns", "--state", state, "--now", Self.later])
    #expect(none.stdout == "no host is cooling down\n")

    let again = try Self.clarissa([
      "run", "--config", config, "--state", state, "--now", Self.later,
    ])
    #expect(again.status == 3)
    #expect(server.requests.count == 2, "asked again once cleared")
    let all = try Self.clarissa([
      "state", "cooldowns", "--state", state, "--clear-all", "--now", Self.later,
    ])
    #expect(all.stdout == "cleared: \(host); the next run asks it again\n")
  }

  @Test func everySourceCoolingDownExitsThreeWithExitCodeOrInGitHubActions() throws {
    let server = try LoopbackServer { _, _ in .text("nope", status: 403) }
    let (config, state) = try Self.setUp(server)
    let base = ["run", "--config", config, "--state", state]
    _ = try Self.clarissa(base + ["--now", Self.noon])
    let plain = try Self.clarissa(base + ["--now", Self.later])
    #expect(plain.status == 0, "a known cool-down alone is not an error for cron")
    #expect(plain.stdout.contains("own-feed: every source's host is cooling down"))
    #expect(plain.stdout.contains("0 of 1 search ran, 1 not checked: hosts cooling down"))
    // --force: run again at once; it does not ask a cooling host (only --search NAME --force).
    let strict = try Self.clarissa(base + ["--now", Self.later, "--force", "--exit-code"])
    #expect(strict.status == 3)
    let actions = try Self.clarissa(
      base + ["--now", Self.later, "--force"], environment: ["GITHUB_ACTIONS": "true"])
    #expect(actions.status == 3)
    #expect(server.requests.count == 1)
  }

  @Test func clearingWaitsForARunsLock() throws {
    let server = try LoopbackServer { _, _ in .text("nope", status: 403) }
    let (config, state) = try Self.setUp(server)
    _ = try Self.clarissa(["run", "--config", config, "--state", state, "--now", Self.noon])
    let descriptor = open(state + ".lock", O_CREAT | O_RDWR, 0o644)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let outcome = try Self.clarissa([
      "state", "cooldowns", "--state", state, "--clear-all", "--now", Self.later,
    ])
    #expect(outcome.status == 5)
    #expect(outcome.stderr.contains("another clarissa run holds the lock"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before, "state untouched")
  }
}
