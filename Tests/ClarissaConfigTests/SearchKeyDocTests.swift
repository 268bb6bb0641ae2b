import ClarissaConfig
import FixtureSupport
import Foundation
import Testing

/// Given the keys a search may hold, declared once, when docs/configuration.md lists them, then
/// its table is the one written from the declarations (`CLARISSA_RECORD=1` rewrites it).
@Suite struct SearchKeyDocTests {
  static let start = "<!-- search keys: "
  static let end = "<!-- end of search keys -->"

  @Test func theDocsTableOfSearchKeysIsWrittenFromTheirDeclarations() throws {
    let url = TestTools.packageRoot.appendingPathComponent("docs/configuration.md")
    let doc = try String(contentsOf: url, encoding: .utf8)
    let opening = try #require(doc.range(of: Self.start), "no '\(Self.start)' marker")
    let tableStart = try #require(
      doc.range(of: "-->\n\n", range: opening.upperBound..<doc.endIndex),
      "the opening marker is not followed by a blank line")
    let closing = try #require(doc.range(of: "\n" + Self.end), "no '\(Self.end)' marker")
    let written =
      doc[..<tableStart.upperBound] + ConfigSchema.searchKeysTable + doc[closing.lowerBound...]
    try Fixtures.expectGolden(String(written), at: url)
  }
}
