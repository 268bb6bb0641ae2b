import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// Given docs/run-report.md, when a run's JSON report is encoded, then the keys it emits are
/// exactly the documented example's, and an absent `detail` is left out rather than `null`.
@Suite struct RunReportDocsTests {
  static let listing = {
    var listing = Listing(
      id: "7931742798", site: "craigslist", url: "https://sfbay.craigslist.org/x/7931742798.html",
      title: "iPad Air", description: "", price: 280, currency: "USD",
      posted: Date(timeIntervalSince1970: 1_777_000_000), location: "SOMA", area: "sfbay/sfc",
      coordinates: Coordinates(latitude: 37.78, longitude: -122.4),
      imageURLs: ["https://images.craigslist.org/a_600x450.jpg"], category: "ele")
    // The travel times a search's `commute` gave (docs/run-report.md shows them).
    listing.commute = [CommuteTime(place: "work", by: .transit, minutes: 24)]
    return listing
  }()

  static func documentedExample() throws -> [String: Any] {
    let url = TestTools.packageRoot.appendingPathComponent("docs/run-report.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    let start = try #require(text.range(of: "```json\n"))
    let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
    let json = Data(text[start.upperBound..<end.lowerBound].utf8)
    return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
  }

  static func emitted(_ result: RunResult) throws -> [String: Any] {
    let data = Data(RunReport.json(result).utf8)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  @Test func theDocumentedExampleHasTheKeysTheReportEmits() throws {
    let docs = try Self.documentedExample()
    // A run always says how many listings of each search are unviewed.
    var result = RunResult.sample(Self.listing, search: "ipads")
    result.searches[0].unviewed = 1
    let report = try Self.emitted(result)
    #expect(Set(docs.keys) == Set(report.keys))
    let docSearch = try #require((docs["searches"] as? [[String: Any]])?.first)
    let search = try #require((report["searches"] as? [[String: Any]])?.first)
    #expect(Set(docSearch.keys) == Set(search.keys))
    let docListing = try #require((docSearch["new"] as? [[String: Any]])?.first)
    let listing = try #require((search["new"] as? [[String: Any]])?.first)
    #expect(Set(docListing.keys) == Set(listing.keys))
    let docTime = try #require((docListing["commute"] as? [[String: Any]])?.first)
    let time = try #require((listing["commute"] as? [[String: Any]])?.first)
    #expect(Set(docTime.keys) == Set(time.keys))
    #expect(time["minutes"] as? Int == 24)
  }

  @Test func anAbsentDetailIsLeftOutAndAPresentOneIsWritten() throws {
    var result = RunResult.sample(Self.listing, search: "ipads")
    let without = try #require((try Self.emitted(result)["searches"] as? [[String: Any]])?.first)
    #expect(without["detail"] == nil)
    #expect(!RunReport.json(result).contains("null"))
    result.searches[0].detail = "next in 12 min"
    let with = try #require((try Self.emitted(result)["searches"] as? [[String: Any]])?.first)
    #expect(with["detail"] as? String == "next in 12 min")
  }

  /// Every key a search outcome emits has a row in the docs' table.
  @Test func everyEmittedKeyIsInTheTable() throws {
    let text = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("docs/run-report.md"),
      encoding: .utf8)
    var result = RunResult.sample(Self.listing, search: "ipads")
    result.searches[0].detail = "x"
    result.searches[0].unviewed = 1
    let report = try Self.emitted(result)
    for key in report.keys { #expect(text.contains("| `\(key)`"), "'\(key)' is not in the table") }
    let search = try #require((report["searches"] as? [[String: Any]])?.first)
    for key in search.keys {
      #expect(
        text.contains("`searches[].\(key)`") || text.contains("/ `\(key)`"),
        "'searches[].\(key)' is not in the table")
    }
  }
}
