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

  static var validator: String? { TestTools.path("check-jsonschema") }
  static var canValidate: Bool { validator != nil || TestTools.underCI }

  /// Whether check-jsonschema (PyPI) accepts `json` under `docs/schemas/<schema>`.
  static func accepts(_ json: String, schema: String) throws -> Bool {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-\(UUID().uuidString).json")
    try json.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let schemaFile = CommandLineTests.packageRoot.appendingPathComponent("docs/schemas/\(schema)")
    let accepted = try TestTools.checkJSONSchema(schemaFile: schemaFile.path, file: file.path)
    return try #require(accepted as Bool?, "check-jsonschema is not installed (.build/venv/bin)")
  }

  /// Every listing the store knows, and `show` of an original and of a repost, as JSON: valid
  /// under the schemas docs/listings.md points to; a wrong event is refused.
  @Test(.enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"))
  func theJSONFollowsTheSchemasInDocs() throws {
    let config = try Self.store()
    let base = ["--config", config, "--now", Self.later, "--format", "json"]
    let all = try StateCommandTests.clarissa(["listings", "--limit", "500"] + base)
    #expect(all.status == 0)
    #expect(all.stdout.contains(#""event" : "repost""#))
    #expect(try Self.accepts(all.stdout, schema: "listings.schema.json"))
    let wrong = all.stdout.replacingOccurrences(
      of: #""event" : "repost""#, with: #""event" : "re""#)
    #expect(try !Self.accepts(wrong, schema: "listings.schema.json"), "the schema checks events")
    for id in ["7923790863", "craigslist:7923791266"] {
      let shown = try StateCommandTests.clarissa(["show", id] + base)
      #expect(shown.status == 0)
      #expect(try Self.accepts(shown.stdout, schema: "show.schema.json"), "show \(id)")
    }
  }

  /// Viewed marks: `--unviewed` keeps the listings nobody has viewed, `--mark-viewed` marks
  /// those printed; `show` and the JSON say when; an export carries the marks to an import.
  @Test func viewedMarksAreKeptAndFiltered() throws {
    let config = try Self.store()
    let base = ["--config", config, "--now", Self.later]
    let all = try StateCommandTests.clarissa(
      ["listings", "--limit", "500", "--format", "json"] + base)
    let total = try #require(
      try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]]
    ).count
    let marked = try StateCommandTests.clarissa(
      ["listings", "--search", "ipads", "--limit", "3", "--mark-viewed", "--format", "json"] + base)
    #expect(marked.status == 0, "\(marked.stderr)")
    #expect(marked.stderr.contains("marked 3 listings viewed"))
    let ids = try #require(
      try JSONSerialization.jsonObject(with: Data(marked.stdout.utf8)) as? [[String: Any]]
    ).compactMap { ($0["listing"] as? [String: Any])?["id"] as? String }
    let unviewed = try StateCommandTests.clarissa(
      ["listings", "--unviewed", "--limit", "500", "--format", "json"] + base)
    let left = try #require(
      try JSONSerialization.jsonObject(with: Data(unviewed.stdout.utf8)) as? [[String: Any]])
    #expect(left.count == total - 3)
    #expect(left.allSatisfy { ($0["listing"] as? [String: Any])?["id"] as? String != ids[0] })
    #expect(left.allSatisfy { $0["viewedAt"] == nil })
    let shown = try StateCommandTests.clarissa(["show", ids[0]] + base)
    #expect(shown.stdout.contains("viewed 22:00"), "\(shown.stdout)")
    // Export, import into a fresh store: still viewed.
    let export = try StateCommandTests.clarissa(["state", "export", "--config", config])
    #expect(export.stdout.contains("\"viewedAt\":\"2026-05-03T22:00:00Z\""))
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-viewed-\(UUID().uuidString).jsonl").path
    try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    let fresh = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-viewed-\(UUID().uuidString).db").path
    let imported = try StateCommandTests.clarissa(["state", "import", file, "--state", fresh])
    #expect(imported.status == 0, "\(imported.stderr)")
    let again = try StateCommandTests.clarissa(
      [
        "listings", "--unviewed", "--limit", "500", "--format", "json", "--state", fresh, "--now",
        Self.later,
      ])
    let leftAgain = try #require(
      try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [[String: Any]])
    #expect(leftAgain.count == total - 3)
  }
}
