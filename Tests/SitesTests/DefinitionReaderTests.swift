import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Sites

/// Site definitions: every broken one in `Fixtures/sites/invalid/` is refused with exactly the
/// located diagnostics of its `.expected` file (`CLARISSA_RECORD=1` writes them), and the
/// shipped ones read without a problem.
@Suite struct DefinitionReaderTests {
  static var invalid: [String] { Fixtures.yamlFiles(in: "sites/invalid") }

  /// The diagnostics as `file:line:column: severity: message`, one per line.
  static func lines(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.sortedByLocation().map { diagnostic in
      let place = diagnostic.location.map { "\($0): " } ?? ""
      return "\(place)\(diagnostic.severity.rawValue): \(diagnostic.message)\n"
    }.joined()
  }

  @Test(arguments: invalid)
  func aBrokenDefinitionIsRefusedAtItsPlace(name: String) throws {
    let bytes = try Fixtures.bytes("sites/invalid/\(name)")
    let (definition, diagnostics) = DefinitionReader.read(bytes, file: name)
    #expect(definition == nil, "\(name) must be refused")
    #expect(diagnostics.allSatisfy { $0.severity != .error || $0.location != nil })
    let expected = Fixtures.root.appendingPathComponent(
      "sites/invalid/\((name as NSString).deletingPathExtension).expected")
    try Fixtures.expectGolden(Self.lines(diagnostics), at: expected)
  }

  @Test func everyShippedDefinitionReadsWithoutAProblem() throws {
    #expect(Registry.declared.count >= 1)
    for site in Registry.declared {
      let site = try #require(site, "a shipped definition did not read")
      let file = site.definition.file
      let bytes = try Fixtures.bytes("../\(file)")
      let (_, diagnostics) = DefinitionReader.read(bytes, file: file)
      #expect(diagnostics.isEmpty, "\(Self.lines(diagnostics))")
    }
  }

  /// `sites check` on a page: a field whose path no longer matches is a warning at its line.
  @Test func aFieldThatNeverMatchesIsAWarningAtItsLine() throws {
    let file = Fixtures.root.appendingPathComponent(
      "../Sites/Kleinanzeigen/kleinanzeigen.site.yaml").standardized.path
    let text = try String(contentsOfFile: file, encoding: .utf8)
      .replacingOccurrences(of: "aditem-main--top--left", with: "aditem-main--top--lefft")
    let broken = FileManager.default.temporaryDirectory
      .appendingPathComponent("kleinanzeigen-\(UUID().uuidString).yaml").path
    try text.write(toFile: broken, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: broken) }
    let report = DefinitionCheck.run(
      definitionAt: broken,
      sample: try Fixtures.bytes("kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.html"),
      mode: nil, url: "https://www.kleinanzeigen.de/s-immobilien/duesseldorf/", now: Date())
    let warning = try #require(report.diagnostics.first { $0.message.contains("'location'") })
    #expect(warning.severity == .warning)
    #expect(warning.location?.line == 64)
    #expect(warning.message.contains("found nothing in any of the 27 items"))
    #expect(warning.message.contains("mend the path"))
    #expect(report.text.contains("  location    0/27"))
  }
}
