import FixtureSupport
import Foundation
import Testing

/// `clarissa watch` as a process: on schedule against a loopback server, reloading on SIGHUP,
/// stopping cleanly on SIGTERM.
@Suite(.serialized) struct WatchCommandTests {
  static func config(_ base: String, interval: String, extra: String = "") -> String {
    """
    version: 1
    notify:
      terminal: stdout
    searches:
      - name: loop
        site: feed
        feeds: [\(base)/feed.xml]
        interval: \(interval)
        notify: [terminal]
    \(extra)
    """
  }

  @Test func runsOnScheduleReloadsOnHangupAndStopsOnTerm() throws {
    let feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    let server = try LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configFile = folder.appendingPathComponent("searches.yaml")
    try Self.config(server.base, interval: "2s").write(
      to: configFile, atomically: true, encoding: .utf8)

    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "watch", "--config", configFile.path, "--notify-first-run", "--politeness-delay", "0",
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    Thread.sleep(forTimeInterval: 5.5)
    let times = server.requests.map(\.arrived)
    #expect((2...4).contains(times.count), "every 2 s for 5.5 s: \(times.count) requests")
    if let first = times.first, let last = times.last, times.count > 1 {
      let mean = last.timeIntervalSince(first) / Double(times.count - 1)
      #expect(mean >= 1.5 && mean < 3.5, "mean gap \(mean) s for a 2 s interval")
    }

    // A broken config on SIGHUP keeps the old one running.
    try "version: 1\nsearches: [".write(to: configFile, atomically: true, encoding: .utf8)
    kill(process.processIdentifier, SIGHUP)
    Thread.sleep(forTimeInterval: 2.5)
    #expect(process.isRunning)
    let afterBroken = server.requests.count
    #expect(afterBroken > times.count, "still polling with the old config")

    // A good config on SIGHUP takes over (interval 1 s now).
    try Self.config(server.base, interval: "1s").write(
      to: configFile, atomically: true, encoding: .utf8)
    kill(process.processIdentifier, SIGHUP)
    Thread.sleep(forTimeInterval: 3.2)
    let recent = server.requests.map(\.arrived).suffix(3)
    if let first = recent.first, let last = recent.last {
      #expect(last.timeIntervalSince(first) < 3.5, "1 s interval after the reload")
    }

    let stop = Date()
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(Date().timeIntervalSince(stop) < 1, "stopped within a second")
    #expect(process.terminationStatus == 0)
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(log.contains("the new config has errors; still running the previous one"))
    #expect(log.contains("config re-read"))
    #expect(log.contains("clarissa watch: stopped"))
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(printed.contains("Road bike - $300"), "the first pass notified the feed's listings")
    let check = try CommandLineTests.run(
      ["state", "check", "--config", configFile.path])
    #expect(check.status == 0, "the store is whole after the stop: \(check.stdout)\(check.stderr)")
  }

  /// A watch keeps the database open and holds the writers' lock only while it runs: a manual
  /// run in between takes the lock at once, and readers never wait at all.
  @Test func aWatchAndManualRunsShareOneDatabase() throws {
    let feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    let server = try LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "watch-share-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configFile = folder.appendingPathComponent("searches.yaml")
    try Self.config(server.base, interval: "1h").write(
      to: configFile, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = ["watch", "--config", configFile.path, "--politeness-delay", "0"]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // The watch's first pass primes the search, then it sleeps for an hour with the store open.
    let deadline = Date().addingTimeInterval(10)
    while server.requests.isEmpty && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
    Thread.sleep(forTimeInterval: 1)
    for round in 0..<3 {
      let started = Date()
      let manual = try CommandLineTests.run([
        "run", "--config", configFile.path, "--force", "--politeness-delay", "0",
      ])
      #expect(manual.status == 0, "round \(round): \(manual.stderr)")
      #expect(Date().timeIntervalSince(started) < 4, "the lock was free: no wait for the watch")
      let info = try CommandLineTests.run(["state", "info", "--config", configFile.path])
      #expect(info.status == 0, "\(info.stderr)")
      #expect(info.stdout.contains("loop"))
    }
    #expect(process.isRunning, "the watch runs on beside them")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let check = try CommandLineTests.run(["state", "check", "--config", configFile.path])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  @Test func termDuringASlowRunStopsWithinASecond() throws {
    let server = try LoopbackServer { _, _ in .init(hang: true) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configFile = folder.appendingPathComponent("searches.yaml")
    try Self.config(server.base, interval: "2s").write(
      to: configFile, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = ["watch", "--config", configFile.path, "--quiet"]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    Thread.sleep(forTimeInterval: 1.5)
    #expect(server.requests.count == 1, "the request is in flight")
    let stop = Date()
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(Date().timeIntervalSince(stop) < 1, "the in-flight request was abandoned")
    #expect(process.terminationStatus == 0)
  }
}
