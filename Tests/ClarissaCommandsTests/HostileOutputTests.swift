import FixtureSupport
import Foundation
import Testing

/// A JSON Feed whose title, url and id carry terminal escape sequences, through every command
/// that prints listings (`run`, `listings`, `show`, `explain`) and through `notify test` against
/// a receiver that answers with them: nothing of them reaches the terminal.
@Suite(.serialized) struct HostileOutputTests {
  static let escapes = HostileText.escapes

  static func feed() -> Data {
    let item: [String: Any] = [
      "id": "h1\(escapes)", "url": "https://feeds.example.org/h1\(escapes)",
      "title": "Bike \(escapes) cheap", "content_text": "Nice \(escapes) bike",
    ]
    let object: [String: Any] = [
      "version": "https://jsonfeed.org/version/1.1", "title": "t\(escapes)", "items": [item],
    ]
    return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
  }

  @Test func noEscapeSequenceReachesTheTerminal() throws {
    let feed = try LoopbackServer { _, _ in .init(body: Array(Self.feed())) }
    let receiver = try LoopbackServer { _, _ in
      .text("refused \(Self.escapes) by the receiver", status: 500)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hostile-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml")
    try """
    version: 1
    notify:
      terminal: stdout
      hook: json://127.0.0.1:\(receiver.port)/hook
    state:
      path: clarissa.db
    searches:
      - name: bikes
        site: feed
        feeds: [\(feed.base)/feed.json]
        notify: [terminal]
    """.write(to: config, atomically: true, encoding: .utf8)
    let base = ["--config", config.path]
    let commands: [[String]] = [
      ["run", "--notify-first-run", "--politeness-delay", "0"] + base,
      ["listings"] + base,
      ["listings", "--format", "csv"] + base,
      ["show", "feed:h1"] + base,
      ["explain", "--search", "bikes"] + base,
      ["notify", "test", "hook"] + base,
    ]
    for arguments in commands {
      let outcome = try CommandLineTests.run(arguments)
      // CSV ends its rows with CRLF (RFC 4180): that CR is the format's own.
      let stdout = outcome.stdout.replacingOccurrences(of: "\r\n", with: "\n")
      #expect(
        !HostileText.hasControl(stdout) && !HostileText.hasControl(outcome.stderr),
        "\(arguments[0]): \(outcome.stdout.debugDescription) \(outcome.stderr.debugDescription)")
      #expect(outcome.status != 132 && outcome.status != 134, "\(arguments[0]) crashed")
    }
    let listed = try CommandLineTests.run(["listings"] + base)
    #expect(listed.stdout.contains("Bike [2J]0;pwned]8;;https://evil.example/\\link"))
    let tested = try CommandLineTests.run(["notify", "test", "hook"] + base)
    #expect(tested.status == 4)
    #expect(tested.stderr.contains("refused [2J]0;pwned"), "\(tested.stderr)")
  }
}
