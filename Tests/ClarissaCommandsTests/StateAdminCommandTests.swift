import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// `clarissa state info|export|import|forget|prune|check` as a user runs them: the built
/// binary on a database in a temporary folder, filled through `state import`.
@Suite(.serialized) struct StateAdminCommandTests {
  static let lines = """
    {"type":"clarissa","format":1,"schema":1}
    {"type":"search","name":"bikes","lastRun":"2026-05-03T12:00:00Z","sources":["https://a.example/feed"]}
    {"type":"search","name":"sofas","lastRun":"2026-05-03T12:00:00Z","sources":[]}
    {"type":"listing","site":"feed","id":"1","url":"https://a.example/1","title":"Bike","price":120,\
    "currency":"USD","images":[],"firstSeen":"2026-05-01T12:00:00Z","lastSeen":"2026-05-03T12:00:00Z",\
    "prices":[{"at":"2026-05-01T12:00:00Z","price":150,"currency":"USD"},\
    {"at":"2026-05-02T12:00:00Z","price":120,"currency":"USD"}],\
    "sightings":[{"search":"bikes","firstSeen":"2026-05-01T12:00:00Z","lastSeen":"2026-05-03T12:00:00Z"}]}
    {"type":"listing","site":"feed","id":"2","url":"https://a.example/2","title":"Sofa","images":[],\
    "firstSeen":"2026-01-01T12:00:00Z","lastSeen":"2026-01-01T12:00:00Z",\
    "sightings":[{"search":"sofas","firstSeen":"2026-01-01T12:00:00Z","lastSeen":"2026-01-01T12:00:00Z"}]}
    {"type":"delivery","search":"bikes","site":"feed","id":"1","channel":"phone","state":"delivered",\
    "owedAt":"2026-05-01T12:00:00Z","at":"2026-05-01T12:00:01Z","attempts":0}
    {"type":"delivery","search":"bikes","site":"feed","id":"1","channel":"mail","state":"failed",\
    "owedAt":"2026-05-01T12:00:00Z","at":"2026-05-01T12:00:01Z","attempts":2,"lastError":"503"}
    {"type":"cooldown","host":"a.example","until":"2026-05-04T12:00:00Z","reason":"blocked","status":403}

    """

  /// A folder with the lines above in `state.jsonl` and a database path beside them.
  static func folder() throws -> (jsonl: String, db: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-state-admin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let jsonl = folder.appendingPathComponent("state.jsonl").path
    try lines.write(toFile: jsonl, atomically: true, encoding: .utf8)
    return (jsonl, folder.appendingPathComponent("clarissa.db").path)
  }

  static func clarissa(_ arguments: [String]) throws -> CommandLineTests.Outcome {
    try StateCommandTests.clarissa(arguments + ["--now", "2026-05-03T13:00:00Z"])
  }

  @Test func importInfoExportAndImportAgain() throws {
    let (jsonl, db) = try Self.folder()
    let none = try Self.clarissa(["state", "info", "--state", db])
    #expect(none.stdout.hasPrefix("no state database at '\(db)' yet"))
    #expect(!FileManager.default.fileExists(atPath: db), "a reader creates nothing")

    let imported = try Self.clarissa(["state", "import", jsonl, "--state", db])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      imported.stdout
        == "imported 2 searches, 1 source, 2 listings, 2 prices, 2 sightings, 2 deliveries, "
        + "1 cooldown\n")

    let info = try Self.clarissa(["state", "info", "--state", db])
    #expect(info.status == 0)
    #expect(
      info.stdout.contains(
        "schema version \(StoreSchema.current)\nlistings: 2 remembered, 2 prices seen, 0 held"))
    #expect(info.stdout.contains("  bikes   1         12:00     never\n"))
    #expect(info.stdout.contains("  mail     0          0     1\n  phone    1          0     0\n"))
    #expect(info.stdout.contains("  a.example  12:00 tomorrow  blocked\n"))

    let exported = try Self.clarissa(["state", "export", "--state", db])
    let output = db + ".jsonl"
    let written = try Self.clarissa(["state", "export", "--state", db, "--output", output])
    #expect(written.status == 0 && written.stdout.isEmpty)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == exported.stdout)
    #expect(exported.stdout.split(separator: "\n").count == 8)

    let copy = db + "-copy.db"
    #expect(try Self.clarissa(["state", "import", output, "--state", copy]).status == 0)
    #expect(try Self.clarissa(["state", "export", "--state", copy]).stdout == exported.stdout)
  }

  @Test func forgetWithDidYouMeanThenPruneThenCheck() throws {
    let (jsonl, db) = try Self.folder()
    _ = try Self.clarissa(["state", "import", jsonl, "--state", db])
    let typo = try Self.clarissa(["state", "forget", "--search", "bike", "--state", db])
    #expect(typo.status == 64)
    #expect(
      typo.stderr.contains("error: the state has nothing of a search 'bike'; did you mean 'bikes'?")
    )

    let forgot = try Self.clarissa(["state", "forget", "--search", "bikes", "--state", db])
    #expect(forgot.status == 0, "\(forgot.stderr)")
    #expect(
      forgot.stdout
        == "forgot 'bikes': 1 search, 1 source, 1 sighting, 2 deliveries; "
        + "its next run is its first\n"
    )

    let pruned = try Self.clarissa(["state", "prune", "--state", db, "--retention", "30d"])
    #expect(pruned.stdout == "pruned: 1 listing, 1 sighting\n", "the sofa, last seen in January")
    let checked = try Self.clarissa(["state", "check", "--state", db])
    #expect(checked.status == 0)
    #expect(checked.stdout == "ok: '\(db)' is sound\n")
  }

  @Test func readersWithStateNeverReadTheConfig() throws {
    let (jsonl, db) = try Self.folder()
    _ = try Self.clarissa(["state", "import", jsonl, "--state", db])
    let folder = URL(fileURLWithPath: (db as NSString).deletingLastPathComponent)
    try "searches: [broken".write(
      to: folder.appendingPathComponent("searches.yaml"), atomically: true, encoding: .utf8)
    for command in ["check", "info", "export", "cooldowns"] {
      let outcome = try CommandLineTests.run(["state", command, "--state", db], in: folder)
      #expect(outcome.status == 0, "\(command): \(outcome.stderr)")
    }
  }

  @Test func checkExitsFiveOnProblemsAndOnAFileThatIsNoDatabase() throws {
    let (jsonl, db) = try Self.folder()
    // A delivery of a listing the export does not have: the store's rules catch it.
    let orphan = """
      {"type":"delivery","search":"bikes","site":"feed","id":"9","channel":"phone",\
      "state":"owed","owedAt":"2026-05-01T12:00:00Z","attempts":0}
      """
    try orphan.write(toFile: jsonl, atomically: true, encoding: .utf8)
    _ = try Self.clarissa(["state", "import", jsonl, "--state", db])
    let damaged = try Self.clarissa(["state", "check", "--state", db])
    #expect(damaged.status == 5)
    #expect(
      damaged.stdout
        == "problem: 1 deliveries of a listing the store does not have "
        + "(for example 'bikes feed 9')\n"
    )
    #expect(damaged.stderr == "error: the state database '\(db)' has 1 problem\n")

    let garbage = db + "-garbage.db"
    let bytes = Data(repeating: 0x41, count: 8192)
    try bytes.write(to: URL(fileURLWithPath: garbage))
    let refused = try Self.clarissa(["state", "check", "--state", garbage])
    #expect(refused.status == 5)
    #expect(refused.stderr.contains("'\(garbage)' is damaged or not a clarissa database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: garbage)) == bytes, "never changed")
  }

  @Test func aBadLineIsNamedExitsOneAndChangesNothing() throws {
    let (jsonl, db) = try Self.folder()
    try (Self.lines + "{\"type\":\"held\",\"search\":\"bikes\",\"id\":\"1\"}\n")
      .write(toFile: jsonl, atomically: true, encoding: .utf8)
    let refused = try Self.clarissa(["state", "import", jsonl, "--state", db])
    #expect(refused.status == 1)
    #expect(
      refused.stderr == "error: '\(jsonl)' line 9 needs 'site' as a text; nothing was imported\n")
    let info = try Self.clarissa(["state", "info", "--state", db])
    #expect(info.stdout.contains("listings: 0 remembered"), "the eight good lines are rolled back")
  }

  @Test func aJSONStateOfAnEarlierClarissaIsImported() throws {
    let (_, db) = try Self.folder()
    let fixture = Fixtures.root.appendingPathComponent("state/legacy-v2.json").path
    let noConfig = db + "-none.yaml"
    let imported = try Self.clarissa(["state", "import", fixture, "--state", db, "-c", noConfig])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("imported the JSON state '\(fixture)' (no config"))
    #expect(FileManager.default.fileExists(atPath: fixture), "the file imported is left as it is")
    let info = try Self.clarissa(["state", "info", "--state", db])
    #expect(
      info.stdout.contains("listings: 4 remembered"), "the bikes' site read from its listings")
    #expect(info.stdout.contains("  bikes     3 "))
    #expect(info.stdout.contains("  phone     1          0     1\n"))
  }

  @Test func everySubcommandHasHelpWithExamples() throws {
    for command in ["info", "export", "import", "forget", "prune", "check", "cooldowns"] {
      let help = try CommandLineTests.run(["state", command, "--help"])
      #expect(help.status == 0)
      #expect(help.stdout.contains("Examples:\n  clarissa state \(command)"), "\(command)")
    }
  }
}
