import ClarissaCore
import FixtureSupport
import Foundation
import Testing

/// A run answered by a bot wall's page (Fixtures/walls/) on a loopback server, with the statuses
/// walls answer with: the text and JSON reports say "blocked by <vendor>" with the cool-down and
/// what to do, the run exits 3 (a failed source), and the host's cool-down is kept: the next run
/// does not ask it and says why.
@Suite(.serialized) struct WallRunTests {
  static let walls: [(file: String, wall: SiteWall)] = [
    ("datadome.html", .datadome), ("cloudflare.html", .cloudflare), ("akamai.html", .akamai),
    ("perimeterx.html", .perimeterx), ("imperva.html", .imperva),
  ]

  static func server(_ file: String, status: Int) throws -> LoopbackServer {
    let page = try Fixtures.bytes("walls/" + file)
    return try LoopbackServer { _, _ in
      LoopbackServer.Reply(status: status, headers: ["Content-Type": "text/html"], body: page)
    }
  }

  @Test(arguments: [200, 403, 429])
  func aWallsPageIsABlockNamedForItsVendor(status: Int) throws {
    for (file, wall) in Self.walls {
      let said = "blocked by \(wall.vendor): its challenge page, HTTP \(status)"

      let server = try Self.server(file, status: status)
      let host = "127.0.0.1:\(server.port)"
      let (config, state) = try StateCommandTests.setUp(server)
      let base = ["run", "--config", config, "--state", state]
      let text = try StateCommandTests.clarissa(base + ["--now", StateCommandTests.noon])
      #expect(text.status == 3, "\(file) \(status): a blocked source fails the run: \(text.stderr)")
      #expect(
        text.stdout.contains("\(host) \(said). No requests to it before 18:00."), "\(text.stdout)")
      #expect(text.stdout.contains("run this search less often, or open the search in a browser"))
      #expect(!text.stdout.contains("0 listings"), "\(text.stdout)")
      #expect(server.requests.count == 1, "\(file) \(status): a wall is not asked again this run")

      let stored = try StateCommandTests.clarissa([
        "state", "cooldowns", "--state", state, "--now", StateCommandTests.later,
      ])
      #expect(stored.stdout.contains("\(host)  12:00  18:00  \(said)"), "\(stored.stdout)")

      let again = try StateCommandTests.clarissa(
        base + ["--now", StateCommandTests.later, "--format", "json", "--exit-code"])
      #expect(again.status == 3, "every tried search is cooling down: \(again.stderr)")
      #expect(server.requests.count == 1, "\(file) \(status): the cool-down is kept")
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
      let blocks = report["blocks"] as? [String] ?? []
      #expect(
        blocks.contains { $0.hasPrefix("\(host) is cooling down until 18:00 (\(said))") },
        "\(blocks)")

      // A fresh state, the JSON report of the run that met the wall.
      let (_, fresh) = try StateCommandTests.setUp(server)
      let json = try StateCommandTests.clarissa(
        ["run", "--config", config, "--state", fresh, "--now", StateCommandTests.noon]
          + ["--format", "json"])
      #expect(json.status == 3)
      let first = try #require(
        try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
      let firstBlocks = first["blocks"] as? [String] ?? []
      #expect(firstBlocks.contains { $0.hasPrefix("\(host) \(said).") }, "\(firstBlocks)")
      let searches = first["searches"] as? [[String: Any]] ?? []
      #expect(searches.first?["status"] as? String == "failed")
      #expect(searches.first?["failures"] as? [String] == ["\(server.base)/feed.xml: \(said)"])
    }
  }
}
