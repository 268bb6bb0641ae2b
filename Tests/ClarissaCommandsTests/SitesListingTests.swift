import Foundation
import Testing

/// `clarissa sites craigslist --categories` and `--cities` as a user runs them (issue 11).
@Suite struct SitesListingTests {
  @Test func categoriesListCodesWithTheirMeaning() throws {
    let all = try CommandLineTests.run(["sites", "craigslist", "--categories"])
    #expect(all.status == 0)
    #expect(all.stdout.contains("apa  apartments / housing for rent\n"))
    let bikes = try CommandLineTests.run(["sites", "craigslist", "--categories", "bike"])
    #expect(bikes.status == 0)
    let codes = bikes.stdout.split(separator: "\n").map { $0.prefix(3) }
    #expect(codes.contains("bia") && codes.contains("bik") && codes.contains("bid"))
    #expect(bikes.stdout.contains("bia  all bicycles\n"))
    #expect(!bikes.stdout.contains("apa"))
  }

  /// `clarissa sites`: every id whole, however long (they were cut at 14 characters), the
  /// statuses in one column.
  @Test func theListNeverCutsAnId() throws {
    let outcome = try CommandLineTests.run(["sites"])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n")
    // The longest id, with the two spaces of a column gap after it.
    #expect(lines.contains { $0.hasPrefix("regionalimmobilien24  active ") }, "\(outcome.stdout)")
    #expect(lines.contains { $0.hasPrefix("einsa-immobilien ") }, "\(outcome.stdout)")
    let statusColumn = Set(
      lines.compactMap { line in
        line.range(of: "  active  ").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
      })
    let longest = lines.compactMap { $0.split(separator: " ").first?.count }.max() ?? 0
    #expect(statusColumn == [longest], "one status column after the longest id")
  }

  @Test func noCategoryFoundExitsOneWithAHint() throws {
    let outcome = try CommandLineTests.run(["sites", "craigslist", "--categories", "furnture"])
    #expect(outcome.status == 1)
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr == "no craigslist category matches 'furnture'; did you mean 'furniture'?\n")
  }

  @Test func noCityFoundExitsOneWithAHint() throws {
    let none = try CommandLineTests.run(["sites", "craigslist", "--cities", "zzz"])
    #expect(none.status == 1)
    #expect(none.stderr.hasPrefix("no craigslist city matches 'zzz'"))
    let typo = try CommandLineTests.run(["sites", "craigslist", "--cities", "seatle"])
    #expect(typo.status == 1)
    #expect(typo.stderr.contains("did you mean 'seattle'"))
  }

  @Test func aWordWithoutASiteListsTheOnlySiteWithCities() throws {
    let outcome = try CommandLineTests.run(["sites", "--cities", "bay"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("sfbay"))
    #expect(
      outcome.stderr
        == "'bay' is not a site; listing craigslist cities matching it (in full: clarissa sites "
        + "craigslist --cities bay)\n")
  }

  @Test func printURLsCarriesCraigslistsOwnFilters() throws {
    let outcome = try CommandLineTests.run([
      "validate", "-q", "--print-urls", "--config", "Fixtures/config/valid/craigslist-filters.yaml",
    ])
    #expect(outcome.status == 0)
    #expect(
      outcome.stdout.contains(
        "https://sfbay.craigslist.org/search/eby/apa?max_price=2600&hasPic=1&min_bedrooms=2"
          + "&min_bathrooms=1&minSqft=600&housing_type=1&laundry=1&laundry=2&availabilityMode=1"
          + "&is_furnished=1&sort=date"))
    #expect(outcome.stdout.contains("&searchPath=bia&cc=US&lang=en&condition=10&condition=20"))
  }
}
