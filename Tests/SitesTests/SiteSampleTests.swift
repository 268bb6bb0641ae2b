import ClarissaCore
import FixtureSupport
import Foundation
import SiteFormat
import Sites
import Testing

/// Every sample every registered site declares (`samples:`, or `samples` in Swift) is read as
/// its `cases.json` says, and the listing facts found in it are exactly those declared: a
/// declared fact no listing has, a fact some listing has that is not declared, or a missing
/// file fails. What `clarissa sites --format json` and docs/sites.md say comes from here.
@Suite struct SiteSampleTests {
  @Test(arguments: Registry.sites.ids)
  func everySampleCarriesTheFactsItDeclares(id: String) throws {
    let site = try #require(Registry.sites.site(id))
    let cases = SiteCase.all(for: id).filter { $0.error == nil }
    for sample in site.samples {
      let path = TestTools.packageRoot.appendingPathComponent(sample.file).path
      #expect(FileManager.default.fileExists(atPath: path), "\(id): \(sample.file) is missing")
      let read = cases.filter { "Fixtures/\(id)/\($0.file)" == sample.file }
      guard !read.isEmpty else {
        Issue.record("\(id): \(sample.file) is in no case of Fixtures/\(id)/cases.json")
        continue
      }
      var found: Set<String> = []
      for answer in read {
        let listings = try site.listings(from: answer.response(of: site)).listings
        found.formUnion(ListingFactCounts(listings).counts.filter { $0.count > 0 }.map(\.name))
      }
      let facts = SiteSample.factNames.filter(found.contains)
      let declared = Set(sample.facts)
      for fact in facts where !declared.contains(fact) {
        Issue.record("\(id): \(sample.file) carries \(fact), not declared")
      }
      for fact in sample.facts where !found.contains(fact) {
        Issue.record("\(id): \(sample.file) declares \(fact), found in no listing of it")
      }
      #expect(sample.facts == facts, "\(id): declared in the order of SiteSample.factNames")
    }
  }

  /// A site with a recorded answer (not written by hand) names at least one sample.
  @Test func everySiteWithRecordedAnswersHasSamples() {
    let written = ["feed", "oodle", "backpage"]
    for id in Registry.sites.ids where !written.contains(id) {
      let recorded = SiteCase.all(for: id).filter { !$0.file.hasPrefix("synthetic/") }
      if !recorded.isEmpty {
        #expect(Registry.sites.site(id)?.samples.isEmpty == false, "\(id) has no samples")
      }
    }
  }
}
