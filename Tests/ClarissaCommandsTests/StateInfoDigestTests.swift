import FixtureSupport
import Foundation
import Testing

/// `clarissa state info` names the scheduled digests: per channel with a schedule, how many
/// listings wait and when they go.
@Suite(.serialized) struct StateInfoDigestTests {
  @Test func pendingDigestsAreListedWithTheirNextTime() throws {
    let (jsonl, db) = try StateAdminCommandTests.folder()
    let owed = """
      {"type":"delivery","search":"bikes","site":"feed","id":"1","channel":"morning",\
      "state":"owed","owedAt":"2026-05-03T12:30:00Z","attempts":0}

      """
    let handle = try #require(FileHandle(forWritingAtPath: jsonl))
    handle.seekToEndOfFile()
    handle.write(Data(owed.utf8))
    handle.closeFile()
    #expect(
      try StateAdminCommandTests.clarissa(["state", "import", jsonl, "--state", db]).status == 0)
    let config = (db as NSString).deletingLastPathComponent + "/searches.yaml"
    try """
    version: 1
    notify:
      morning: {url: "json://127.0.0.1:9/m", digest: daily 08:00 UTC}
      mail: {url: "json://127.0.0.1:9/x", digest: weekly sat 09:30 UTC}
      phone: json://127.0.0.1:9/p
    searches: []

    """.write(toFile: config, atomically: true, encoding: .utf8)
    let info = try StateAdminCommandTests.clarissa([
      "state", "info", "--state", db, "--config", config,
    ])
    #expect(info.status == 0, "\(info.stderr)")
    // The refused mail (owed since 1 May) was due on Saturday 2 May: it goes on the next run.
    #expect(
      info.stdout.hasSuffix(
        """

        digests:
          mail (weekly sat 09:30 UTC): 1 listing pending, due now (the next run sends it)
          morning (daily 08:00 UTC): 1 listing pending, next 08:00 tomorrow (in 19 h)

        """), "\(info.stdout)")
  }
}
