import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
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
    #expect(Registry.declared.count >= 5)
    for shipped in Registry.declared {
      let site = try shipped.site.get()
      #expect(site.id == shipped.id, "the registry names \(shipped.file) by its own id")
      let file = site.definition.file
      let bytes = try Fixtures.bytes("../\(file)")
      let (_, diagnostics) = DefinitionReader.read(bytes, file: file)
      #expect(diagnostics.isEmpty, "\(Self.lines(diagnostics))")
    }
  }

  /// Every `Sites/<Name>/<id>.site.yaml` is shipped: named in Package.swift's list (else it is
  /// not compiled in) and in the registry.
  @Test func everyDefinitionFileIsShipped() throws {
    let sites = TestTools.packageRoot.appendingPathComponent("Sites")
    let manager = FileManager.default
    var files: [String] = []
    for folder in try manager.contentsOfDirectory(atPath: sites.path).sorted() {
      let names =
        (try? manager.contentsOfDirectory(atPath: sites.appendingPathComponent(folder).path)) ?? []
      files += names.filter { $0.hasSuffix(".site.yaml") }.map { "Sites/\(folder)/\($0)" }
    }
    let declared = Registry.declared.map(\.file)
    #expect(files.sorted() == declared.sorted())
    let manifest = try String(
      contentsOf: TestTools.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    for file in files {
      #expect(
        manifest.contains("\"\(file.dropFirst("Sites/".count))\""), "\(file) in Package.swift")
    }
  }

  /// `sites check` on a page: a field whose path no longer matches is a warning at its line.
  @Test func aFieldThatNeverMatchesIsAWarningAtItsLine() throws {
    let file = Fixtures.root.appendingPathComponent(
      "../Sites/Kleinanzeigen/kleinanzeigen.site.yaml"
    ).standardized.path
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
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
      $0.contains("aditem-main--top--lefft")
    }
    #expect(warning.location?.line == line.map { $0 + 1 })
    #expect(warning.message.contains("found nothing in any of the 27 items"))
    #expect(warning.message.contains("mend the path"))
    let counted = report.text.split(separator: "\n").last { $0.hasPrefix("  location ") }
    #expect(counted?.split(separator: " ").dropFirst().first == "0/27", "\(counted ?? "")")
  }
}

/// Shipped definitions are read when first used, not at every start.
@Suite struct BundledSiteTests {
  @Test func aShippedDefinitionIsReadOnFirstUseAndABrokenOneSaysSo() throws {
    let broken = BundledSite(
      id: "broken", bytes: Array("format: 1\nid: broken\n".utf8), file: "x.yaml")
    #expect(broken.id == "broken")
    #expect(broken.status == .defunct)
    #expect(broken.summary.contains("x.yaml does not read"))
    let request = RequestSpec(url: "https://example.org/", mode: "page")
    #expect {
      _ = try broken.listings(from: SourceResponse(request: request, body: []))
    } throws: { error in
      (error as? SiteError)?.message.contains("the shipped definition x.yaml does not read") == true
    }
    let flatfox = try #require(Registry.declared.first { $0.id == "flatfox" })
    #expect(flatfox.modes == ["pins", "listings"])
  }
}
