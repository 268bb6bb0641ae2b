import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// `clarissa run` as users and CI run it: replayed answers, exit statuses, report formats,
/// GitHub Actions output, and SIGKILL at random moments.
@Suite(.serialized) struct RunCommandTests {
  static let noon = "2026-05-03T12:00:00-07:00"

  static func temporaryState() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-cli-\(UUID().uuidString)/clarissa.db"
    ).path
  }

  static func run(_ arguments: [String], state: String, environment: [String: String] = [:]) throws
    -> CommandLineTests.Outcome
  {
    try CommandLineTests.run(
      ["run", "--state", state, "--now", noon] + arguments, environment: environment)
  }

  @Test func lockWaitIsHowLongARunWaitsForAnotherOne() throws {
    let state = Self.temporaryState()
    let held = try RunLock(path: state, wait: 0)
    let started = Date()
    let busy = try Self.run(
      ["--replay", "Fixtures/replay/default", "--lock-wait", "1"], state: state)
    #expect(busy.status == 5)
    #expect(busy.stderr.contains("another clarissa run holds the lock"), "\(busy.stderr)")
    #expect(busy.stderr.contains("waited 1 s"))
    #expect(Date().timeIntervalSince(started) >= 1)
    // Released while the next run waits: it runs.
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { held.release() }
    let patient = try Self.run(
      ["--replay", "Fixtures/replay/default", "--lock-wait", "20"], state: state)
    #expect(patient.status == 0, "\(patient.stderr)")
  }

  @Test func theReadmeMainCommandShowsListings() throws {
    let outcome = try CommandLineTests.run(
      [
        "run", "--replay", "Fixtures/replay/default", "--dry-run", "--notify-first-run", "--now",
        Self.noon,
      ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("ipads: "))
    #expect(outcome.stdout.contains("manhattan-apartments: "))
    #expect(outcome.stdout.contains("https://sfbay.craigslist.org/"))
    #expect(outcome.stdout.contains("dry run: nothing saved or sent"))
    #expect(
      !FileManager.default.fileExists(
        atPath: CommandLineTests.packageRoot.appendingPathComponent("clarissa.db").path))
  }

  @Test func exitCodeTenOnlyWhenAskedAndNewListingsFound() throws {
    let state = Self.temporaryState()
    let prime = try Self.run(["--replay", "Fixtures/replay/default", "--exit-code"], state: state)
    #expect(prime.status == 0, "priming finds nothing new: \(prime.stderr)")
    let next = try Self.run(
      ["--replay", "Fixtures/replay/next", "--force", "--exit-code"], state: state)
    #expect(next.status == 10)
    #expect(next.stdout.contains("iPad Air 5th gen 64GB, like new"))
    let again = try Self.run(
      ["--replay", "Fixtures/replay/next", "--force", "--exit-code"], state: state)
    #expect(again.status == 0)
  }

  @Test func jsonReportFollowsItsSchema() throws {
    let state = Self.temporaryState()
    _ = try Self.run(["--replay", "Fixtures/replay/default"], state: state)
    let outcome = try Self.run(
      ["--replay", "Fixtures/replay/next", "--force", "--format", "json"], state: state)
    #expect(outcome.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(object["schema"] as? Int == 1)
    let searches = try #require(object["searches"] as? [[String: Any]])
    let ipads = try #require(searches.first { $0["name"] as? String == "ipads" })
    let new = try #require(ipads["new"] as? [[String: Any]])
    #expect(new.first?["id"] as? String == "7931742798")
    #expect(new.first?["price"] as? Double == 280)
  }

  @Test func githubActionsGetsAnnotationsAndAStepSummary() throws {
    let summary = FileManager.default.temporaryDirectory.appendingPathComponent(
      "summary-\(UUID().uuidString).md")
    _ = FileManager.default.createFile(atPath: summary.path, contents: Data())
    let config = FileManager.default.temporaryDirectory.appendingPathComponent(
      "gha-\(UUID().uuidString).yaml")
    try """
    version: 1
    notify:
      terminal: stdout
    searches:
      - name: elsewhere
        cities: [boston]
        notify: [terminal]
    """.write(to: config, atomically: true, encoding: .utf8)
    let outcome = try Self.run(
      ["--config", config.path, "--replay", "Fixtures/replay/default"],
      state: Self.temporaryState(),
      environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path])
    #expect(outcome.status == 3, "the unrecorded request is a failed source")
    #expect(outcome.stdout.contains("::warning title=clarissa::elsewhere: "))
    let markdown = try String(contentsOf: summary, encoding: .utf8)
    #expect(markdown.contains("## clarissa: 0 new listings"))
    #expect(markdown.contains("no recorded response for"))
  }

  @Test func aLockedStateExitsFive() throws {
    let state = Self.temporaryState()
    try FileManager.default.createDirectory(
      atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let descriptor = open(state + ".lock", O_CREAT | O_RDWR, 0o644)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    let outcome = try Self.run(["--replay", "Fixtures/replay/default"], state: state)
    #expect(outcome.status == 5)
    #expect(outcome.stderr.contains("another clarissa run holds the lock"))
  }

  @Test func anUnknownSearchIsAUsageError() throws {
    let outcome = try Self.run(
      ["--replay", "Fixtures/replay/default", "--search", "ipad"], state: Self.temporaryState())
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("no search named 'ipad'; did you mean 'ipads'?"))
  }

  /// SIGKILL at random moments never leaves a store that fails SQLite's check, and no listing is
  /// marked delivered to the terminal unless it was printed (.ci/crashes does the same with a
  /// webhook, 200 kills, and counts what was delivered twice or never).
  @Test func killedAtRandomMomentsTheStateStaysSound() throws {
    let state = Self.temporaryState()
    var printed = ""
    var generator = SystemRandomNumberGenerator()
    var kills = 0
    for round in 0..<40 {
      let replay = round % 3 == 0 ? "Fixtures/replay/default" : "Fixtures/replay/next"
      var arguments = ["run", "--state", state, "--now", Self.noon, "--replay", replay, "--force"]
      if round % 4 == 1 { arguments.append("--notify-first-run") }
      let process = Process()
      process.executableURL = try CommandLineTests.binary()
      process.arguments = arguments
      process.currentDirectoryURL = CommandLineTests.packageRoot
      process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let delay = UInt32.random(in: 5_000...250_000, using: &generator)
      usleep(delay)
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        kills += 1
      }
      process.waitUntilExit()
      printed += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      if round % 5 == 4 { try? FileManager.default.removeItem(atPath: state) }
      guard FileManager.default.fileExists(atPath: state) else { continue }
      let store = try ListingStore.open(path: state, readOnly: true)
      let check = try store.locked { try $0.rows("PRAGMA quick_check") { $0.text(0) } }
      #expect(check == ["ok"], "round \(round): the store is damaged after SIGKILL: \(check)")
      let delivered = try store.locked { database in
        try database.rows(
          "SELECT id FROM deliveries WHERE channel = 'terminal' AND state = 'delivered'"
        ) { $0.text(0) }
      }
      for id in delivered {
        #expect(
          printed.contains("/\(id).html") || printed.contains(id),
          "round \(round): \(id) marked delivered but never printed")
      }
    }
    #expect(kills > 5, "enough runs were killed mid-way (\(kills))")
  }
}

/// `--record` then `--replay` gives the same run, offline.
@Suite struct RecordReplayTests {
  @Test func aRecordedRunReplaysIdentically() throws {
    let feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    let server = try FixtureSupport.LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rec-\(UUID().uuidString)")
    let config = folder.appendingPathExtension("yaml")
    try """
    version: 1
    notify:
      terminal: stdout
    searches:
      - name: loop
        site: feed
        feeds: [\(server.base)/feed.xml]
        notify: [terminal]
    """.write(to: config, atomically: true, encoding: .utf8)
    let live = try RunCommandTests.run(
      ["--config", config.path, "--record", folder.path, "--notify-first-run", "--format", "json"],
      state: RunCommandTests.temporaryState())
    #expect(live.status == 0, "\(live.stderr)")
    #expect(server.requests.count == 1)
    let replayed = try RunCommandTests.run(
      ["--config", config.path, "--replay", folder.path, "--notify-first-run", "--format", "json"],
      state: RunCommandTests.temporaryState())
    #expect(replayed.status == 0)
    #expect(server.requests.count == 1, "the replay sent nothing")
    #expect(replayed.stdout.contains("\"id\" : \"loop-1\""))
    let liveIDs = live.stdout.components(separatedBy: "\"id\" : ").count
    #expect(liveIDs == replayed.stdout.components(separatedBy: "\"id\" : ").count)
  }

  @Test func primeRecordsWithoutNotifying() throws {
    let state = RunCommandTests.temporaryState()
    let primed = try RunCommandTests.run(
      ["--replay", "Fixtures/replay/next", "--prime", "--exit-code"], state: state)
    #expect(primed.status == 0)
    let next = try RunCommandTests.run(
      ["--replay", "Fixtures/replay/next", "--force", "--exit-code"], state: state)
    #expect(next.status == 0, "everything was primed, including the newest listing")
  }
}

/// `clarissa explain` and `clarissa notify test`.
@Suite struct ExplainAndNotifyTests {
  @Test func explainWithoutFetchJudgesTheLastRunsListingsFromTheStore() throws {
    let state = RunCommandTests.temporaryState()
    let never = try CommandLineTests.run(["explain", "--search", "ipads", "--state", state])
    #expect(never.status == 64, "\(never.stderr)")
    #expect(never.stderr.contains("has not run yet"), "\(never.stderr)")
    #expect(never.stderr.contains("--fetch"))
    _ = try RunCommandTests.run(["--replay", "Fixtures/replay/default"], state: state)
    let outcome = try CommandLineTests.run(["explain", "--search", "ipads", "--state", state])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.hasPrefix("from the state database: the listings the last run ("))
    let listed = outcome.stdout.components(separatedBy: "\n    included by").count - 1
    #expect(listed > 100, "the last run's kept listings, each with its filter (\(listed))")
    #expect(outcome.stdout.contains("seen since 2026-05-03T19:00:00Z"))
    #expect(!outcome.stdout.contains("; new\n"), "everything in the store was seen")
  }

  @Test func explainShowsTheDecidingFilterAndTheStatus() throws {
    let state = RunCommandTests.temporaryState()
    _ = try RunCommandTests.run(["--replay", "Fixtures/replay/default"], state: state)
    let outcome = try CommandLineTests.run(
      ["explain", "--search", "ipads", "--replay", "Fixtures/replay/next", "--state", state])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains(
        "✗ 💥We Buy iPhone 17 IPad Macbook Pro Samsung Instant  Pay $$$$$💥\n    excluded by 'we buy' (title): \"We Buy\" in title; ignored"
      ))
    #expect(
      outcome.stdout.contains(
        "✗ $1  Apple iPad Lot (2010–2017) | Some Working, Some Repair/Parts\n    price 1 outside 20-400; ignored"
      ))
    #expect(
      outcome.stdout.contains(
        "✓ $280  iPad Air 5th gen 64GB, like new\n    included by '\\bipad\\b' (title): \"iPad\" in title; new"
      ))
    #expect(outcome.stdout.contains("seen since 2026-05-03T19:00:00Z"))
    // 214, not 213: 'iso' matches whole words now, so "Maison Martin Margiela" is kept.
    #expect(
      outcome.stdout.contains(
        "✓ $299  Brand New Maison Martin Margiela 11 Buffalo Leather iPad Case\n"))
    #expect(outcome.stdout.hasSuffix("361 listings, 214 pass the filters, 1 new\n"))
  }

  @Test func notifyTestSendsASampleThroughTheChannel() throws {
    let server = try FixtureSupport.LoopbackServer { _, _ in .init(status: 200) }
    let config = FileManager.default.temporaryDirectory.appendingPathComponent(
      "nt-\(UUID().uuidString).yaml")
    try """
    version: 1
    notify:
      phone: ntfy://127.0.0.1:\(server.port)/${TOPIC}
    searches:
      - name: s
        cities: [sfbay]
        notify: [phone]
    """.write(to: config, atomically: true, encoding: .utf8)
    let sent = try CommandLineTests.run(
      ["notify", "test", "phone", "--config", config.path], environment: ["TOPIC": "deals"])
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(server.requests.first?.path == "/deals")
    #expect(server.requests.first?.text.contains("craigslist.org") == true)
    server.stop()
    let refused = try CommandLineTests.run(
      ["notify", "test", "phone", "--config", config.path], environment: ["TOPIC": "deals"])
    #expect(refused.status == 4)
    #expect(refused.stderr.contains("channel 'phone'"))
    let unknown = try CommandLineTests.run(
      ["notify", "test", "phon", "--config", config.path], environment: ["TOPIC": "deals"])
    #expect(unknown.status == 64)
    #expect(
      unknown.stderr
        == "error: no channel named 'phon'; did you mean 'phone'? (channels: phone)\n")
  }
}

/// `notify test` and `validate` with the mail and header-carrying channels.
@Suite struct NotifyChannelCommandTests {
  static func config(_ notify: String) throws -> URL {
    let config = FileManager.default.temporaryDirectory.appendingPathComponent(
      "nc-\(UUID().uuidString).yaml")
    try """
    version: 1
    notify:
    \(notify)
    searches:
      - name: s
        cities: [sfbay]
        notify: [mail]
    """.write(to: config, atomically: true, encoding: .utf8)
    return config
  }

  @Test(.enabled(if: LoopbackSMTP.available, "no python3 with aiosmtpd"))
  func notifyTestMailsASampleAndARefusalExitsFour() throws {
    let server = try LoopbackSMTP(.plain)
    let config = try Self.config(
      "  mail: smtp://bot:${SMTP_PASSWORD}@127.0.0.1:\(server.port)?tls=none&to=me@example.com")
    let environment = ["SMTP_PASSWORD": "hunter2"]
    let sent = try CommandLineTests.run(
      ["notify", "test", "mail", "--config", config.path], environment: environment)
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(sent.stdout.hasPrefix("sent a sample listing to 'mail' (smtp smtp://***@127.0.0.1:"))
    #expect(!sent.stdout.contains("hunter2"))
    #expect(server.mails.count == 1)
    server.refuse(true)
    let refused = try CommandLineTests.run(
      ["notify", "test", "mail", "--config", config.path], environment: environment)
    #expect(refused.status == 4)
    #expect(refused.stderr.contains("error: channel 'mail': the mail server refused the mail: 550"))
    #expect(!refused.stderr.contains("hunter2"))
    #expect(server.mails.count == 1)
  }

  @Test func headerValuesAreNeverPrinted() throws {
    let receiver = try FixtureSupport.LoopbackServer { _, _ in .init(status: 200) }
    let config = try Self.config(
      "  mail: ntfy://127.0.0.1:\(receiver.port)/deals?+X-Secret=${SECRET}&priority=high")
    let environment = ["SECRET": "sesame-42"]
    let validated = try CommandLineTests.run(
      ["validate", "--config", config.path], environment: environment)
    #expect(validated.status == 0, "\(validated.stderr)")
    #expect(validated.stdout.contains("?+X-Secret=***&priority=high"))
    let sent = try CommandLineTests.run(
      ["notify", "test", "mail", "--config", config.path], environment: environment)
    #expect(sent.status == 0, "\(sent.stderr)")
    #expect(!(validated.stdout + sent.stdout + sent.stderr).contains("sesame-42"))
    #expect(receiver.requests.first?.headers["x-secret"] == "sesame-42")
  }
}
