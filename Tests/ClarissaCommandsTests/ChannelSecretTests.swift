import Channels
import ClarissaCore
import FixtureSupport
import Foundation
import Synchronization
import Testing

/// A distinct secret planted in a channel of every kind (``ChannelRegistry/all``: a new kind is
/// covered without a line here), then the output of every command that prints channels is
/// searched for it: `validate`, `notify test` against a loopback receiver, `run`'s text, JSON
/// and Markdown reports, `serve`'s pages and API, and `watch`'s output. Traffic meant for a
/// service's own host goes to a loopback proxy that refuses it; nothing leaves the machine.
@Suite(.serialized) struct ChannelSecretTests {
  /// The secret of each kind: letters and digits only, so every kind's syntax takes it.
  static func secret(_ kind: any ChannelKind) -> String { "Zq\(kind.kind.rawValue)Secret9" }

  static let planted = ChannelRegistry.all.compactMap { kind -> (any ChannelKind, String)? in
    kind.sample(secret: secret(kind), host: "HOST").map { _ in (kind, secret(kind)) }
  }

  /// Every secret found in `output`, with the command that printed it.
  static func leaks(_ output: String, _ command: String) -> [String] {
    planted.map(\.1).filter { output.contains($0) }.map { "\(command) printed '\($0)'" }
  }

  struct Setup {
    let folder: URL
    let config: URL
    let receiver: LoopbackServer
    let proxy: LoopbackServer
    let feed: LoopbackServer
    let echo: Echo
    var environment: [String: String] {
      let proxy = "http://127.0.0.1:\(proxy.port)"
      return [
        "http_proxy": proxy, "https_proxy": proxy, "HTTPS_PROXY": proxy, "ALL_PROXY": proxy,
        "all_proxy": proxy, "no_proxy": "127.0.0.1,localhost", "NO_PROXY": "127.0.0.1,localhost",
      ]
    }
  }

  static func setUp() throws -> Setup {
    let answer =
      #"{"ok":true,"status":1,"request":"r","room_id":"!room:example.org","event_id":"$e","id":1}"#
    // After `notify test`, the receiver turns hostile: it refuses, echoing the request's path
    // and headers (where the tokens are), as a careless service might.
    let echo = Echo()
    let receiver = try LoopbackServer { request, _ in
      guard echo.on else { return .text(answer, headers: ["Content-Type": "application/json"]) }
      let said = ([request.path] + request.headers.map { "\($0.key): \($0.value)" })
      return .text(#"{"ok":false,"description":"\#(said.joined(separator: " "))"}"#, status: 400)
    }
    let proxy = try LoopbackServer { _, _ in .text("no way out", status: 403) }
    let bytes = try Fixtures.bytes("http/feed.xml")
    let feed = try LoopbackServer { _, _ in
      .init(headers: ["Content-Type": "application/rss+xml"], body: bytes)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "secrets-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let host = "127.0.0.1:\(receiver.port)"
    let channels = planted.compactMap { kind, secret in
      kind.sample(secret: secret, host: host).map { "  c-\(kind.kind.rawValue): '\($0)'" }
    }
    let names = planted.map { "c-\($0.0.kind.rawValue)" }.joined(separator: ", ")
    let config = folder.appendingPathComponent("searches.yaml")
    try """
    version: 1
    state:
      path: \(folder.path)/watch.db
    notify:
    \(channels.joined(separator: "\n"))
    searches:
      - name: loop
        site: feed
        feeds: [\(feed.base)/feed.xml]
        notify: [\(names)]
    """.write(to: config, atomically: true, encoding: .utf8)
    return Setup(
      folder: folder, config: config, receiver: receiver, proxy: proxy, feed: feed, echo: echo)
  }

  @Test func everyKindIsPlanted() {
    let unplanted = ChannelRegistry.all.filter { $0.sample(secret: "x", host: "h") == nil }
    // The terminal, and Web Push, whose keys are kept in the store (never in its URL).
    #expect(unplanted.map(\.kind) == [.stdout, .webpush], "only these have no secret")
    #expect(Self.planted.count == ChannelRegistry.all.count - 2)
  }

  @Test func noCommandPrintsAChannelsSecret() throws {
    let setup = try Self.setUp()
    var leaks: [String] = []
    let validate = try CommandLineTests.run(["validate", "--config", setup.config.path])
    #expect(validate.stdout.contains("c-telegram: telegram tgram://***/987654"), "\(validate)")
    leaks += Self.leaks(validate.stdout + validate.stderr, "validate")
    for (kind, _) in Self.planted {
      let name = "c-\(kind.kind.rawValue)"
      let test = try CommandLineTests.run(
        ["notify", "test", name, "--config", setup.config.path], environment: setup.environment)
      #expect(test.stdout.contains(name) || test.stderr.contains(name), "\(name): \(test)")
      leaks += Self.leaks(test.stdout + test.stderr, "notify test \(name)")
    }
    // `?api=` took Telegram's call to the loopback Bot API: the sample's photo, with the token.
    let telegram = Self.secret(TelegramKind())
    #expect(
      setup.receiver.requests.contains {
        $0.method == "POST" && $0.path == "/bot123456:\(telegram)/sendPhoto"
      }, "\(setup.receiver.requests.map(\.path))")
    setup.echo.on = true
    let state = setup.folder.appendingPathComponent("run.db").path
    let common = [
      "run", "--config", setup.config.path, "--state", state, "--politeness-delay", "0",
    ]
    for (round, format) in ["markdown", "text", "json"].enumerated() {
      let extra = round == 0 ? ["--notify-first-run"] : ["--force"]
      let run = try CommandLineTests.run(
        common + extra + ["--format", format], environment: setup.environment)
      // Refused deliveries are reported every round (their reasons quote what services said).
      #expect(run.stdout.contains(round == 0 ? "Road bike" : "c-telegram"), "\(format): \(run)")
      if ProcessInfo.processInfo.environment["SHOW_RUNS"] != nil { print(run.stdout, run.stderr) }
      leaks += Self.leaks(run.stdout + run.stderr, "run --format \(format)")
    }
    leaks += try servedLeaks(setup, state: state)
    leaks += try watchLeaks(setup)
    #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
  }

  /// The web page and the API over the state the runs left (deliveries refused, with reasons).
  private func servedLeaks(_ setup: Setup, state: String) throws -> [String] {
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "serve", "--config", setup.config.path, "--state", state, "--http", "127.0.0.1:0",
    ]
    let (port, lines) = try ServeCommandTests.start(process)
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let served = try #require(port, "serve did not start: \(lines.all)")
    var pages = try ServeCommandTests.get(served, "/")
    let listings = try ServeCommandTests.get(served, "/api/listings")
    pages += listings
    if let range = listings.range(of: #""site":"feed","id":"[^"]+""#, options: .regularExpression)
      ?? listings.range(of: #""id":"[^"]+""#, options: .regularExpression)
    {
      let id = listings[range].split(separator: "\"").dropLast().last.map(String.init) ?? ""
      let segment = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
      pages += try ServeCommandTests.get(served, "/api/listings/feed/\(segment)")
      pages += try ServeCommandTests.get(served, "/listing/feed/\(segment)")
    }
    return Self.leaks(pages + lines.all, "serve")
  }

  /// `watch`'s output over a few seconds: its first round delivers (and is refused) at once.
  private func watchLeaks(_ setup: Setup) throws -> [String] {
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "watch", "--config", setup.config.path, "--notify-first-run", "--politeness-delay", "0",
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"].merging(setup.environment) {
      $1
    }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    Thread.sleep(forTimeInterval: 4)
    process.terminate()
    process.waitUntilExit()
    let text =
      String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      + String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(text.contains("loop"), "watch ran a round: \(text)")
    return Self.leaks(text, "watch")
  }
}

/// Whether the receiver echoes what it was sent.
final class Echo: Sendable {
  private let value = Mutex(false)
  var on: Bool {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}
