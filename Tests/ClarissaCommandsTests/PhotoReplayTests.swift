import FixtureSupport
import Foundation
import Testing

/// Given funda's and Pararius's real Delft pages (Fixtures/replay/photos: five flats on both,
/// neither site giving coordinates, each flat's photo the same corpus photo on both sites),
/// when the built binary runs the funda search and then the Pararius one, then with photo
/// fingerprints (the default) the five are found on the other site and not announced again;
/// with `photos: off` all 30 are announced, as before.
@Suite(.serialized) struct PhotoReplayTests {
  static let replay = "Fixtures/replay/photos"

  /// The replay's searches.yaml, with `photos: off` when `photos` is false.
  static func config(photos: Bool) throws -> String {
    let text = try String(
      contentsOf: Fixtures.root.appendingPathComponent("replay/photos/searches.yaml"),
      encoding: .utf8)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-photos-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("searches.yaml")
    try (text + (photos ? "" : "photos: off\n")).write(to: path, atomically: true, encoding: .utf8)
    return path.path
  }

  /// The funda search's run, then the Pararius one's, on one new state: their outputs.
  static func runBoth(photos: Bool) throws -> (funda: String, pararius: String, state: String) {
    let (config, state) = (try Self.config(photos: photos), RunCommandTests.temporaryState())
    var outputs: [String] = []
    for search in ["delft-funda", "delft-pararius"] {
      let run = try CommandLineTests.run([
        "run", "--config", config, "--replay", Self.replay, "--state", state,
        "--notify-first-run", "--search", search, "--now", "2026-07-04T10:00:00Z",
      ])
      #expect(run.status == 0 || run.status == 10, "\(run.stderr)")
      outputs.append(run.stdout)
    }
    return (outputs[0], outputs[1], state)
  }

  @Test func theFiveFlatsOnBothSitesAreFoldedByTheirPhotos() throws {
    let after = try Self.runBoth(photos: true)
    #expect(after.funda.contains("delft-funda: 15 new"), "\(after.funda)")
    #expect(after.pararius.contains("delft-pararius: 25 new"), "\(after.pararius)")
    #expect(
      after.pararius.contains("delft-pararius: 5 already on another site"), "\(after.pararius)")
    // Mercuriusweg 117 and 65, one price and floor area, are told apart by their photos.
    let links = try CommandLineTests.run([
      "listings", "--config", try Self.config(photos: true), "--state", after.state,
      "--format", "json",
    ])
    for (funda, pararius) in [
      ("80876599", "2e760d4e"), ("44403344", "2e7212a2"), ("44404428", "d3dc8315"),
      ("44494977", "2118d9d1"), ("80866061", "fc477b2c"),
    ] {
      #expect(
        links.stdout.contains("\"id\" : \"\(funda)\"") || links.stdout.contains("\"\(funda)\""),
        "\(funda)")
      #expect(links.stdout.contains(pararius), "\(pararius)")
    }
    let before = try Self.runBoth(photos: false)
    #expect(before.pararius.contains("delft-pararius: 30 new"), "\(before.pararius)")
    #expect(!before.pararius.contains("already on another site"), "\(before.pararius)")
  }

  /// `--dry-run` fetches no photo: nothing is folded and the store is left as it was.
  @Test func aDryRunFetchesNoPhoto() throws {
    let (config, state) = (try Self.config(photos: true), RunCommandTests.temporaryState())
    _ = try CommandLineTests.run([
      "run", "--config", config, "--replay", Self.replay, "--state", state,
      "--notify-first-run", "--search", "delft-funda",
    ])
    let dry = try CommandLineTests.run([
      "run", "--config", config, "--replay", Self.replay, "--state", state,
      "--notify-first-run", "--search", "delft-pararius", "--dry-run",
    ])
    #expect(dry.stdout.contains("delft-pararius: 30 new"), "\(dry.stdout)")
  }
}
