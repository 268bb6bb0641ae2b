import FixtureSupport
import Foundation
import Synchronization
import Testing
import WebServer

/// `clarissa serve` and `clarissa watch --http` as processes.
@Suite(.serialized) struct ServeCommandTests {
  @Test func anAddressThatIsNotLoopbackNeedsAToken() throws {
    let refused = try CommandLineTests.run(["serve", "--http", "0.0.0.0:0"])
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("--http 0.0.0.0:0 is not a loopback address"))
    #expect(refused.stderr.contains("--token-file"))
    // Fewer than 128 bits: 16 letters, 31 hex digits, 21 characters.
    for weak in [
      "abc", "abcdefghijklmnop", String(repeating: "f", count: 31), "abcdefghij-klmnopqrst",
    ] {
      let short = try CommandLineTests.run(["serve", "--http", "0.0.0.0:0", "--token", weak])
      #expect(short.status != 0, "\(weak)")
      #expect(short.stderr.contains("at least 22 characters"), "\(weak)")
      #expect(short.stderr.contains("openssl rand -hex 24"), "\(weak)")
    }
    let malformed = try CommandLineTests.run(["serve", "--http", "8421"])
    #expect(malformed.status != 0)
    #expect(malformed.stderr.contains("write HOST:PORT"))
    // A refusal touches no file: the bundled config's state was not created.
    #expect(
      !FileManager.default.fileExists(
        atPath: CommandLineTests.packageRoot.appendingPathComponent("clarissa.db").path))
  }

  /// accept() failing for want of file descriptors (a low `ulimit -n`) pauses accepting, says
  /// so once, and serving goes on once descriptors are free again.
  @Test func aTileTemplateThatIsNoTileAddressIsRefusedAtStart() throws {
    for (template, problem) in [
      ("file:///etc/{z}/{x}/{y}", "is not an http: or https: address"),
      ("https://tiles.example/{z}/{y}.png", "does not name {x}"),
    ] {
      let refused = try CommandLineTests.run([
        "serve", "--http", "127.0.0.1:0", "--map-tiles", template,
      ])
      #expect(refused.status == 64, "\(refused.stderr)")
      #expect(refused.stderr.contains("--map-tiles: '\(template)' \(problem)"), "\(refused.stderr)")
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aPortInUseIsAClearFailureNotAUsageError() throws {
    let holder = try LoopbackServer { _, _ in .init(status: 200) }
    let busy = try CommandLineTests.run(["serve", "--http", "127.0.0.1:\(holder.port)"])
    #expect(busy.status == 1, "exit 1 (README's table), not 64: \(busy.stderr)")
    #expect(busy.stderr.contains("cannot listen on '127.0.0.1:\(holder.port)'"))
    #expect(busy.stderr.contains("choose another port"), "\(busy.stderr)")
    #expect(!busy.stderr.contains("Usage:"), "no usage message for a port in use")
    let malformed = try CommandLineTests.run(["serve", "--http", "127.0.0.1:port"])
    #expect(malformed.status == 64, "a badly written address is the command line's mistake")
  }

  @Test func runningOutOfDescriptorsNeverEndsServing() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-fd-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c",
      "ulimit -n 48 && exec \"$0\" serve --config \"$1/searches.yaml\" --state \"$1/state.db\" --http 127.0.0.1:0",
      try CommandLineTests.binary().path, folder.path,
    ]
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let (port, lines) = try Self.start(process)
    let served = try #require(port, "serve said where it serves: \(lines.all)")
    var clients: [LoopbackClient] = []
    for _ in 0..<80 {
      if let client = LoopbackClient(port: served, timeout: 1) { clients.append(client) }
    }
    Thread.sleep(forTimeInterval: 2.5)
    #expect(lines.all.contains("cannot accept a connection"), "\(lines.all)")
    for client in clients { client.close() }
    let health = try Self.poll(served, "/healthz", until: "HTTP/1.1 200", seconds: 10)
    #expect(health.hasPrefix("HTTP/1.1 200"))
    #expect(process.isRunning)
    #expect(
      lines.all.components(separatedBy: "cannot accept a connection").count == 2, "once a burst")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
  }

  /// Lines a process writes to standard error, read as they come.
  /// Starts `process` (serve or watch --http on port 0) and reads from its standard error the
  /// port it serves on (nil after 10 s without one); its lines so far for a failure's message.
  static func start(_ process: Process) throws -> (port: UInt16?, lines: Lines) {
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    let lines = Lines(errors)
    try process.run()
    for _ in 0..<100 {
      if let range = lines.all.range(
        of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression)
      {
        return (UInt16(lines.all[range].dropFirst("http://127.0.0.1:".count).dropLast()), lines)
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return (nil, lines)
  }

  final class Lines: Sendable {
    private let text = Mutex("")
    init(_ pipe: Pipe) {
      pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
        let data = handle.availableData
        self?.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
      }
    }
    var all: String { text.withLock { $0 } }
  }

  /// Asks `target` every 0.1 s until the answer holds `expected` (or `seconds` pass); the last
  /// answer.
  static func poll(_ port: UInt16, _ target: String, until expected: String, seconds: Double = 10)
    throws -> String
  {
    var answer = ""
    let deadline = Date().addingTimeInterval(seconds)
    while !answer.contains(expected), Date() < deadline {
      Thread.sleep(forTimeInterval: 0.1)
      answer = try get(port, target)
    }
    return answer
  }

  static func get(_ port: UInt16, _ target: String) throws -> String {
    try RawHTTP.exchange(
      port: port, "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
  }

  @Test func watchWithHTTPServesItsRoundsAndANewConfigsProblems() throws {
    let feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    let server = try LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "watch-http-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let configFile = folder.appendingPathComponent("searches.yaml")
    try WatchCommandTests.config(server.base, interval: "1h").write(
      to: configFile, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "watch", "--config", configFile.path, "--politeness-delay", "0", "--http", "127.0.0.1:0",
    ]
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let (port, lines) = try Self.start(process)
    let served = try #require(port, "watch --http said where it serves: \(lines.all)")
    let metrics = try Self.poll(served, "/metrics", until: "clarissa_runs_total 1")
    #expect(metrics.contains("clarissa_runs_total 1"))
    #expect(metrics.contains("clarissa_requests_total{host=\"127.0.0.1:\(server.port)\"} 1"))
    #expect(metrics.contains("clarissa_listings_total{search=\"loop\",event=\"primed\"} 2"))
    let health = try Self.get(served, "/healthz")
    #expect(health.hasPrefix("HTTP/1.1 200") && health.contains("\"lastRound\""))
    let page = try Self.get(served, "/")
    #expect(page.contains("2 unviewed"))

    // A broken config on SIGHUP: the old one keeps running, the page shows the new one's problem.
    try "version: 1\nsearches: [".write(to: configFile, atomically: true, encoding: .utf8)
    kill(process.processIdentifier, SIGHUP)
    let problems = try Self.poll(served, "/", until: "The config has problems")
    #expect(problems.contains("The config has problems"))
    #expect(problems.contains("searches.yaml:3:1: error: did not find expected node content"))
    #expect(problems.contains("the previous config is still in use"))
    #expect(!problems.contains("not in the config"), "the running config's searches stay listed")
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
