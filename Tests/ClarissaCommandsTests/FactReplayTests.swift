import FixtureSupport
import Foundation
import Testing

/// Given the bundled replay with searches on rooms, floor area, price per area, `near` and
/// `within` (Fixtures/replay/facts), when a user explains, runs and browses them with the built
/// binary, then `explain` names the fact that decided each listing (golden files, re-recorded
/// with `CLARISSA_RECORD=1`), Craigslist is asked for the bedrooms and square feet, and the
/// report, `listings` and `show` give the distances to the search's places.
@Suite(.serialized) struct FactReplayTests {
  static let config = "Fixtures/replay/facts/searches.yaml"
  static let replay = "Fixtures/replay/facts"

  @Test(arguments: ["ipads-in-the-city", "arkansas-homes", "arkansas-homes-strict"])
  func explainNamesTheDecidingFact(search: String) throws {
    let state = RunCommandTests.temporaryState()
    let outcome = try CommandLineTests.run([
      "explain", "--config", Self.config, "--replay", Self.replay, "--search", search,
      "--state", state,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    try Fixtures.expectGolden(
      outcome.stdout,
      at: Fixtures.root.appendingPathComponent("replay/facts/explain-\(search).txt"))
  }

  @Test func craigslistIsAskedForBedroomsAndSquareFeet() throws {
    let outcome = try CommandLineTests.run(["validate", "--config", Self.config, "--print-urls"])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("&purveyor=owner&min_bedrooms=1&minSqft=538\n"))
    // A for-sale search is not sent housing parameters.
    #expect(outcome.stdout.contains("query=ipad&min_price=20&max_price=400\n"))
    #expect(
      outcome.stdout.contains(
        "facts: near office/oakland (any), within areas/san-francisco.geojson  notify: terminal"))
    #expect(outcome.stdout.contains("facts: bedrooms, floor_area (missing: drop)"))
    #expect(outcome.stdout.contains("\nplaces: office, oakland, little-rock\n"))
  }

  @Test func theReportListingsAndShowGiveDistances() throws {
    let state = RunCommandTests.temporaryState()
    let run = try CommandLineTests.run([
      "run", "--config", Self.config, "--replay", Self.replay, "--state", state,
      "--notify-first-run", "--now", "2026-05-03T19:00:00Z",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(
      run.stdout.contains(
        "Apple Smart Folio for iPad Pro 12.9-inch (3rd, 4th, 5th, 6th gen) Blk\n"
          + "    1.5 km from office · 11.8 km from oakland\n"), "\(run.stdout)")
    #expect(run.stdout.contains("40 mi from little-rock"), "\(run.stdout)")
    let markdown = try CommandLineTests.run([
      "run", "--config", Self.config, "--replay", Self.replay, "--state",
      RunCommandTests.temporaryState(), "--dry-run", "--notify-first-run", "--format", "markdown",
      "--search", "ipads-in-the-city",
    ])
    #expect(
      markdown.stdout.contains(
        "— $35 — SOMA / south beach — 1.5 km from office · 11.8 km from oakland"),
      "\(markdown.stdout)")
    let listings = try CommandLineTests.run([
      "listings", "--config", Self.config, "--state", state, "--search", "ipads-in-the-city",
    ])
    #expect(listings.status == 0, "\(listings.stderr)")
    #expect(listings.stdout.contains("    1.5 km from office · 11.8 km from oakland\n"))
    let show = try CommandLineTests.run([
      "show", "7915891289", "--config", Self.config, "--state", state,
    ])
    #expect(show.status == 0, "\(show.stderr)")
    #expect(show.stdout.contains("\n  distances: 1.5 km from office · 11.8 km from oakland\n"))
  }
}
