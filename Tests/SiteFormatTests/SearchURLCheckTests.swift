import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat

/// Given a definition whose `search_url` examples do not all hold (a request written without
/// the order the site sets, a path the pattern refuses, a host it does not name), when
/// `sites check` or `validate` (a user's `sites/` folder) reads it, then each is an error at
/// its example's line, and the one that holds is not.
@Suite struct SearchURLCheckTests {
  static let path = Fixtures.root.appendingPathComponent("sites/examples/wrong-example.yaml").path

  static func lines(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.location.map { "\($0.line)" } ?? "-"): \($0.message)" }
  }

  @Test func sitesCheckReportsEachWrongExampleAtItsLine() {
    let report = DefinitionCheck.run(
      definitionAt: Self.path, sample: nil, mode: nil, url: nil, now: Date())
    let lines = Self.lines(report.diagnostics)
    #expect(report.diagnostics.allSatisfy { $0.severity == .error })
    #expect(
      lines == [
        "24: the example 'https://pinboard.example/search/berlin?q=desk' makes the request "
          + "'https://pinboard.example/search/berlin?q=desk&sort=new', not "
          + "'https://pinboard.example/search/berlin?q=desk' as written",
        "26: the example 'https://pinboard.example/find/berlin' is not taken: it is not a "
          + "Pinboard search page that \(Self.path) reads; paste the address of a search such "
          + "as https://pinboard.example/search/berlin?q=desk",
        "28: the example 'https://elsewhere.example/search/berlin' is not taken: its host is "
          + "not one of 'hosts'",
      ], "\(lines)")
    #expect(!report.definitionReads)
  }

  @Test func aUsersSiteWithAWrongExampleIsRefused() {
    let (site, diagnostics) = DefinitionLoader.site(atPath: Self.path)
    #expect(site == nil)
    #expect(Self.lines(diagnostics).map { $0.prefix(3) } == ["24:", "26:", "28:"])
  }

  /// Every shipped definition's examples hold (else it would not load).
  @Test func everyShippedExampleHolds() throws {
    let sites = TestTools.packageRoot.appendingPathComponent("Sites").path
    for folder in try FileManager.default.contentsOfDirectory(atPath: sites).sorted() {
      let (found, problems) = DefinitionLoader.sites(inFolder: "\(sites)/\(folder)")
      #expect(problems.isEmpty, "\(folder): \(Self.lines(problems))")
      _ = found
    }
  }
}
