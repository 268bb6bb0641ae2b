import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// `state export` of the store the bundled replay leaves, compared with the export main's store
/// code wrote for the same runs (Fixtures/state/replay-export.jsonl): what the store keeps must
/// not change when how it writes does. Four runs at fixed times: the first notifies all, the
/// third sees the second's answers again unchanged, the fourth the first's.
@Suite(.serialized) struct StateExportFixtureTests {
  static let runs: [(replay: String, now: String, flags: [String])] = [
    ("default", "2026-05-03T12:00:00-07:00", ["--notify-first-run"]),
    ("next", "2026-05-03T12:15:00-07:00", ["--force"]),
    ("next", "2026-05-03T12:30:00-07:00", ["--force"]),
    ("default", "2026-05-03T12:45:00-07:00", ["--force"]),
  ]

  @Test func theReplayStoreExportsAsMainWroteIt() throws {
    let state = RunCommandTests.temporaryState()
    for run in Self.runs {
      let outcome = try CommandLineTests.run(
        ["run", "--state", state, "--now", run.now, "--replay", "Fixtures/replay/\(run.replay)"]
          + run.flags)
      #expect(outcome.status == 0, "\(run.replay) at \(run.now): \(outcome.stderr)")
    }
    let export = try CommandLineTests.run(["state", "export", "--state", state])
    #expect(export.status == 0, "\(export.stderr)")
    let golden = Fixtures.root.appendingPathComponent("state/replay-export.jsonl")
    // The header names the database's schema version, which a migration moves on; every other
    // byte is compared as written.
    let header = "{\"type\":\"clarissa\",\"format\":1,\"schema\":\(StoreSchema.current)}"
    var lines = export.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    // The photo fingerprints (schema 18) came after the golden: the run asked for the new
    // listings' photos, 200 a run at most (`photos.per_run`), which the replay does not hold, each
    // kept with its note. Their lines are left out of the comparison (PhotoMatchTests checks
    // them); everything main's store kept is compared.
    let photos = lines.filter { $0.hasPrefix("{\"type\":\"photoHash\"") }
    #expect(!photos.isEmpty && photos.allSatisfy { $0.contains("no recorded response") })
    lines.removeAll { $0.hasPrefix("{\"type\":\"photoHash\"") }
    #expect(lines.first.map(String.init) == header)
    let recorded = (try? String(contentsOf: golden, encoding: .utf8))?
      .split(separator: "\n", maxSplits: 1).first
    if ProcessInfo.processInfo.environment["CLARISSA_RECORD"] != "1", !lines.isEmpty,
      let recorded, recorded.hasPrefix("{\"type\":\"clarissa\",\"format\":1,\"schema\":")
    {
      lines[0] = recorded
    }
    try Fixtures.expectGolden(lines.joined(separator: "\n"), at: golden)
  }

}
