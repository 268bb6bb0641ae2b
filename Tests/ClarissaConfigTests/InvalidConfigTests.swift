import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Every broken config in `Fixtures/config/invalid/` is rejected with exactly the diagnostics in
/// its `.expected` golden file (positions, messages, source lines and carets).
@Suite struct InvalidConfigTests {
  static let folder = "config/invalid"
  static let names = Fixtures.yamlFiles(in: folder)

  @Test func thereAreAtLeastFortyBrokenConfigs() {
    #expect(Self.names.count >= 40)
  }

  @Test(arguments: names)
  func rejectedWithExpectedDiagnostics(name: String) throws {
    let url = Fixtures.root.appendingPathComponent(Self.folder).appendingPathComponent(name)
    let result = ConfigLoader.load(
      path: url.path, displayName: name, environment: Fixtures.environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.config == nil, "a broken config must not load")
    #expect(result.diagnostics.hasErrors)
    #expect(result.diagnostics.allSatisfy { $0.location != nil }, "every problem has a place")
    let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
    try Fixtures.expectGolden(
      rendered, at: url.deletingPathExtension().appendingPathExtension("expected"))
  }
}
