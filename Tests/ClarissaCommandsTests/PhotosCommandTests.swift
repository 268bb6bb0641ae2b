import Foundation
import Testing

/// Given the built binary and files of the photo corpus, when `clarissa photos hash` runs, then
/// it prints `<16 hex>  <name>` per picture as sha256sum does, names each refused or unreadable
/// file on standard error with its reason, and exits 1 when any failed.
@Suite struct PhotosCommandTests {
  /// imagehash 4.3.2's hashes (Fixtures/photos/dhash.tsv) of the PNG and the WebP, which the
  /// command matches exactly.
  @Test func hashesPrintBesideTheirNamesAndFailuresGoToStandardError() throws {
    let outcome = try CommandLineTests.run([
      "photos", "hash", "Fixtures/photos/originals/skimage-coffee.png",
      "Fixtures/photos/hostile/bomb-20000x20000.png", "Fixtures/photos/no-such.jpg",
      "Fixtures/photos/hostile/plain.webp", "Fixtures/photos/large/plasma-grey.jpg",
    ])
    #expect(outcome.status == 1)
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    let golden = try String(
      contentsOf: CommandLineTests.packageRoot.appendingPathComponent("Fixtures/photos/dhash.tsv"),
      encoding: .utf8)
    for (line, path) in zip(
      lines, ["originals/skimage-coffee.png", "hostile/plain.webp", "large/plasma-grey.jpg"])
    {
      let parts = line.components(separatedBy: "  ")
      #expect(parts.count == 2 && parts[1] == "Fixtures/photos/\(path)", "\(line)")
      #expect(parts[0].count == 16 && parts[0] == parts[0].lowercased())
      if !path.hasSuffix(".jpg") {
        #expect(golden.contains("\(path)\t\(parts[0])\t"), "\(line)")
      }
    }
    #expect(
      outcome.stderr == """
        clarissa: Fixtures/photos/hostile/bomb-20000x20000.png: 20000 x 20000 pixels, over the \
        limit of 40000000
        clarissa: Fixtures/photos/no-such.jpg: no such file

        """)
  }

  @Test func allReadableExitsZero() throws {
    let outcome = try CommandLineTests.run([
      "photos", "hash", "Fixtures/photos/formats/png-rgba.png",
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty)
    #expect(outcome.stdout.hasSuffix("  Fixtures/photos/formats/png-rgba.png\n"))
  }

  @Test func helpTeachesWhatTheHashIs() throws {
    let outcome = try CommandLineTests.run(["photos", "hash", "--help"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("imagehash"))
    #expect(outcome.stdout.contains("dhash"))
    let group = try CommandLineTests.run(["photos", "--help"])
    #expect(group.stdout.contains("hash"))
  }
}
