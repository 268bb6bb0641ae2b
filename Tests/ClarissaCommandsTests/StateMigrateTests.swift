import FixtureSupport
import Foundation
import Testing

/// `clarissa state migrate`: a store copied into PostgreSQL and back is the same store.
@Suite(.serialized) struct StateMigrateTests {
  #if PostgreSQL
    @Test func aStoreCopiedIntoPostgreSQLAndBackExportsTheSame() throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "migrate-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let original = folder.appendingPathComponent("clarissa.db").path
      let run = try CommandLineTests.run([
        "run", "--replay", "Fixtures/replay/default", "--state", original, "--quiet",
      ])
      #expect(run.status == 0, "\(run.stderr)")
      // Something viewed, so that the mark and the counts travel too.
      let marked = try CommandLineTests.run([
        "listings", "--state", original, "--search", "ipads", "--limit", "5", "--mark-viewed",
      ])
      #expect(marked.status == 0, "\(marked.stderr)")
      // A cross-site link (cross-site folding) between two of its listings travels too.
      let two =
        try JSONSerialization.jsonObject(
          with: Data(
            try CommandLineTests.run([
              "listings", "--state", original, "--limit", "2", "--format", "json",
            ])
            .stdout.utf8)) as? [[String: Any]]
      let ids = (two ?? []).compactMap { ($0["listing"] as? [String: Any])?["id"] as? String }
      try #require(ids.count == 2)
      let link = folder.appendingPathComponent("link.jsonl").path
      try
        ("{\"type\":\"crossPost\",\"foundAt\":\"2026-05-03T19:00:00Z\",\"id\":\"\(ids[0])\","
        + "\"otherId\":\"\(ids[1])\",\"otherSite\":\"craigslist\",\"site\":\"craigslist\"}\n")
        .write(toFile: link, atomically: true, encoding: .utf8)
      let imported = try CommandLineTests.run(["state", "import", link, "--state", original])
      #expect(imported.status == 0, "\(imported.stderr)")
      // A star and a note (marks) travel too, and are in the export compared below.
      let starred = try CommandLineTests.run(["star", ids[0], "--state", original])
      let noted = try CommandLineTests.run(["note", ids[0], "call first", "--state", original])
      #expect(starred.status == 0 && noted.status == 0, "\(starred.stderr)\(noted.stderr)")
      let url = try LoopbackPostgres.shared().database()
      let there = try CommandLineTests.run(["state", "migrate", "--state", original, "--to", url])
      #expect(there.status == 0, "\(there.stderr)")
      #expect(there.stdout.contains("  listings: 360\n"))
      #expect(there.stdout.contains("  sightings: 360\n"))
      #expect(there.stdout.contains("  cross_posts: 1\n"), "\(there.stdout)")
      #expect(there.stdout.contains("  marks: 1\n"), "\(there.stdout)")
      let again = try CommandLineTests.run(["state", "migrate", "--state", original, "--to", url])
      #expect(again.status == 5)
      #expect(again.stderr.contains("already holds 360 listings"))
      let back = folder.appendingPathComponent("back.db").path
      let home = try CommandLineTests.run(["state", "migrate", "--from", url, "--to", back])
      #expect(home.status == 0, "\(home.stderr)")
      let workers = try LoopbackPostgres.shared().query(url, "SELECT count(*) FROM workers")
      #expect(workers == "0", "state migrate registered itself as a worker")
      let before = try CommandLineTests.run(["state", "export", "--state", original])
      let after = try CommandLineTests.run(["state", "export", "--state", back])
      #expect(before.status == 0 && after.status == 0)
      #expect(before.stdout.split(separator: "\n").count > 700)
      #expect(before.stdout.contains("\"type\":\"mark\""), "the export carries the marks")
      #expect(after.stdout == before.stdout, "the export after the round trip differs")
      let check = try CommandLineTests.run(["state", "check", "--state", back])
      #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
      let unviewed = try CommandLineTests.run([
        "listings", "--state", back, "--search", "ipads", "--unviewed", "--limit", "1000",
        "--format", "json",
      ])
      let rows = try JSONSerialization.jsonObject(with: Data(unviewed.stdout.utf8)) as? [Any]
      #expect(rows?.count == 213 - 5)
    }
  #else
    @Test func withoutTheTraitMigrateSaysHowToGetIt() throws {
      let outcome = try CommandLineTests.run([
        "state", "migrate", "--to", "postgres://clarissa@127.0.0.1/clarissa",
      ])
      #expect(outcome.status == 1)
      #expect(outcome.stderr.contains("built without PostgreSQL"))
      #expect(outcome.stderr.contains("swift build --traits PostgreSQL"))
    }
  #endif
}
