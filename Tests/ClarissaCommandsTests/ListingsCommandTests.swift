import FixtureSupport
import Foundation
import Testing

/// `clarissa listings` and `clarissa show` on a store two replayed runs left, as a user runs them
/// (the built binary), compared with golden files in Fixtures/listings (`CLARISSA_RECORD=1`).
@Suite(.serialized) struct ListingsCommandTests {
  static let later = "2026-05-03T22:00:00Z"

  /// A folder with the bundled config, after the replay's two runs (the first notifies all).
  static func store() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-listings-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml").path
    try FileManager.default.copyItem(
      atPath: CommandLineTests.packageRoot.appendingPathComponent("searches.yaml").path,
      toPath: config)
    let first = try StateCommandTests.clarissa([
      "run", "--config", config, "--replay", "Fixtures/replay/default", "--now",
      "2026-05-03T19:00:00Z", "--notify-first-run",
    ])
    #expect(first.status == 0, "\(first.stderr)")
    let second = try StateCommandTests.clarissa([
      "run", "--config", config, "--replay", "Fixtures/replay/next", "--now", later, "--force",
    ])
    #expect(second.status == 0, "\(second.stderr)")
    return config
  }

  static func golden(_ name: String) -> URL {
    Fixtures.root.appendingPathComponent("listings/\(name)")
  }

  @Test func listingsInEveryFormatWithFilters() throws {
    let config = try Self.store()
    let base = ["listings", "--config", config, "--now", Self.later]
    let cases: [(String, [String])] = [
      ("newest.txt", ["--limit", "5"]),
      ("ipads-under-100.txt", ["--search", "ipads", "--max-price", "100", "--limit", "6"]),
      ("reposts.json", ["--event", "repost", "--limit", "2", "--format", "json"]),
      ("air.csv", ["--text", "ipad air", "--limit", "4", "--format", "csv"]),
      ("since-1h.txt", ["--since", "1h"]),
    ]
    for (name, arguments) in cases {
      let outcome = try StateCommandTests.clarissa(base + arguments)
      #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
      try Fixtures.expectGolden(outcome.stdout, at: Self.golden(name))
    }
    let json = try StateCommandTests.clarissa(base + ["--format", "json", "--limit", "500"])
    let items = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(!items.isEmpty)
    for item in items {
      #expect(
        Set(item.keys).isSubset(of: [
          "search", "listing", "firstSeen", "lastSeen", "event", "repostOf", "deliveredTo",
        ]), "the keys docs/listings.md documents")
    }
    let typo = try StateCommandTests.clarissa(base + ["--search", "ipad"])
    #expect(typo.status == 64)
    #expect(typo.stderr.contains("did you mean 'ipads'?"))
    let event = try StateCommandTests.clarissa(base + ["--event", "drop"])
    #expect(event.status == 64)
  }

  @Test func showTellsTheWholeStory() throws {
    let config = try Self.store()
    let repost = try StateCommandTests.clarissa([
      "show", "7923790863", "--config", config, "--now", Self.later,
    ])
    #expect(repost.status == 0, "\(repost.stderr)")
    try Fixtures.expectGolden(repost.stdout, at: Self.golden("show-repost.txt"))
    let original = try StateCommandTests.clarissa([
      "show", "craigslist:7923791266", "--config", config, "--now", Self.later, "--format", "json",
    ])
    #expect(original.status == 0, "\(original.stderr)")
    try Fixtures.expectGolden(original.stdout, at: Self.golden("show-original.json"))
    let missing = try StateCommandTests.clarissa(["show", "1", "--config", config])
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("has no listing '1'"))
  }
}
