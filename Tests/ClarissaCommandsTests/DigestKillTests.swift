import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// A scheduled digest is delivered at least once: `clarissa run` killed while its receiver
/// holds the message leaves every listing of it owed, and the next run sends the same message
/// again, recorded whole once accepted; with two searches, the one message carries both, and
/// the kill leaves both searches' parts owed.
@Suite(.serialized) struct DigestKillTests {
  @Test(arguments: [1, 2]) func aRunKilledBeforeTheDigestIsAcceptedSendsItAgain(searches: Int)
    throws
  {
    let items = (1...6).map {
      "<item><title>Oak desk $\(100 + 10 * $0)</title><link>http://127.0.0.1/d/\($0)</link>"
        + "<guid>d\($0)</guid></item>"
    }.joined()
    let feed = try LoopbackServer { _, _ in
      .text("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>")
    }
    // The first message is held until the run is killed; later ones are accepted.
    let receiver = try LoopbackServer { _, count in .init(status: 200, hang: count == 0) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-digest-kill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml").path
    let state = folder.appendingPathComponent("clarissa.db").path
    let second =
      "  - {name: tables, site: feed, feeds: [\"\(feed.base)/t.xml\"], notify: [morning]}"
    try """
    version: 1
    state: {path: clarissa.db}
    notify:
      morning: {url: "json://127.0.0.1:\(receiver.port)/digest", digest: daily 08:00 UTC}
    searches:
      - {name: desks, site: feed, feeds: ["\(feed.base)/feed.xml"], notify: [morning]}
    \(searches == 2 ? second : "")

    """.write(toFile: config, atomically: true, encoding: .utf8)
    let first = try CommandLineTests.run([
      "run", "--config", config, "--now", "2026-05-25T07:00:00Z", "--notify-first-run",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(receiver.requests.isEmpty, "08:00 is not there yet")

    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = ["run", "--config", config, "--now", "2026-05-25T08:05:00Z"]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let deadline = Date().addingTimeInterval(20)
    while receiver.requests.isEmpty && Date() < deadline { usleep(20_000) }
    #expect(receiver.requests.count == 1, "the digest was sent")
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()

    let store = try ListingStore.open(path: state, readOnly: true)
    let owed = try store.owedDeliveries(maxAttempts: 10)
    #expect(owed.count == 6 * searches, "killed before acceptance: all still owed")
    #expect(Set(owed.map(\.search)).count == searches)
    let again = try CommandLineTests.run([
      "run", "--config", config, "--now", "2026-05-25T08:06:00Z",
    ])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(receiver.requests.count == 2)
    #expect(receiver.requests.last?.text == receiver.requests.first?.text, "the same message")
    let title = searches == 2 ? "12 new in 2 searches" : "6 new for desks"
    #expect(receiver.requests.last?.text.contains("\"title\":\"\(title)\"") == true)
    #expect(try store.owedDeliveries(maxAttempts: 10).isEmpty)
  }
}
