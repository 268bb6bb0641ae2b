import FixtureSupport
import Foundation
import Testing

/// `clarissa sites` says each site's kind, countries and wall; `clarissa sites NAME` what is
/// known of the wall; `--format json` is the catalogue; `--format markdown` is docs/sites.md, and
/// README.md names the countries as it does.
@Suite(.serialized) struct SiteCatalogueTests {
  /// The list's rows, split at its column gaps (two spaces or more).
  static func rows(_ text: String) -> [[String]] {
    text.split(separator: "\n").map { line in
      line.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
  }

  @Test func theListShowsKindCountriesAndWall() throws {
    let list = try CommandLineTests.run(["sites"])
    #expect(list.status == 0)
    let rows = Self.rows(list.stdout)
    #expect(
      rows.contains { $0.starts(with: ["wg-gesucht", "active", "housing", "DE,AT,CH", "none"]) })
    #expect(
      rows.contains { $0.starts(with: ["craigslist", "active", "marketplace", "US,AE +76"]) })
    #expect(rows.contains { $0.starts(with: ["feed", "active", "feed", "any", "none"]) })
    #expect(
      rows.contains { $0.starts(with: ["idealista", "active", "housing", "PT", "datadome"]) })

    let one = try CommandLineTests.run(["sites", "flatfox"])
    #expect(one.stdout.contains("kind: housing; countries: CH\nwall: none known;"), "\(one.stdout)")
  }

  @Test func aSitesKnownWallIsSaidWithWhatARunDoes() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-wall-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sites"), withIntermediateDirectories: true)
    try (UserSiteTests.definition + "\nwall: datadome\ncountries: [FR]\nkind: housing\n")
      .replacingOccurrences(of: "BASE", with: "http://127.0.0.1:9")
      .write(
        to: folder.appendingPathComponent("sites/swapboard.yaml"), atomically: true,
        encoding: .utf8)
    let config = folder.appendingPathComponent("searches.yaml").path
    try "version: 1\nsearches: []\n".write(toFile: config, atomically: true, encoding: .utf8)
    let one = try CommandLineTests.run(["sites", "swapboard", "--config", config])
    #expect(one.status == 0, "\(one.stderr)")
    #expect(
      one.stdout.contains(
        "wall: datadome: the site is known to answer with DataDome's challenge; a run that "
          + "meets it says 'blocked by DataDome', the host cools down"), "\(one.stdout)")
    let list = try CommandLineTests.run(["sites", "--config", config])
    #expect(
      Self.rows(list.stdout).contains {
        $0.starts(with: ["swapboard", "active", "housing", "FR", "datadome"])
      })
  }

  @Test func theJSONCatalogueListsEverySiteWithItsSamples() throws {
    let outcome = try CommandLineTests.run(["sites", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(object["schema"] as? Int == 1)
    let sites = try #require(object["sites"] as? [[String: Any]])
    #expect(sites.map { $0["id"] as? String ?? "" }.contains("kleinanzeigen"))
    for site in sites {
      for key in ["id", "name", "countries", "kind", "status", "wall", "facts", "samples"] {
        #expect(site[key] != nil, "\(site["id"] ?? "?") has \(key)")
      }
    }
    let flatfox = try #require(sites.first { $0["id"] as? String == "flatfox" })
    #expect(flatfox["countries"] as? [String] == ["CH"])
    #expect(flatfox["kind"] as? String == "housing")
    #expect(
      flatfox["facts"] as? [String] == [
        "coordinates", "rooms", "floor_area", "postcode", "address",
      ])
    let samples = try #require(flatfox["samples"] as? [[String: Any]])
    #expect(
      samples.map { $0["file"] as? String } == [
        "Fixtures/flatfox/flatfox-listings-1.json", "Fixtures/flatfox/flatfox-pins-1.json",
      ])
  }

  @Test func docsSitesAndTheReadmesCountriesAreWrittenFromTheCatalogue() throws {
    let outcome = try CommandLineTests.run(["sites", "--format", "markdown"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    try Fixtures.expectGolden(
      outcome.stdout, at: TestTools.packageRoot.appendingPathComponent("docs/sites.md"))
    let line = try #require(
      outcome.stdout.split(separator: "\n").first { $0.hasPrefix("The shipped sites serve ") })
    let readme = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(
      readme.contains("<!-- countries: clarissa sites --format markdown -->\n\(line)\n"),
      "README.md names the countries as docs/sites.md does")
  }
}
