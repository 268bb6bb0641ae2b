import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// `clarissa schema site` checked by a real validator from PyPI (check-jsonschema): every
/// shipped definition passes; broken ones whose mistake is a shape or a key name fail.
@Suite struct DefinitionSchemaTests {
  static var validator: String? { TestTools.path("check-jsonschema") }
  static var canValidate: Bool { validator != nil || TestTools.underCI }

  /// Whether the validator accepts `file` under the site schema.
  static func accepts(_ file: String) throws -> Bool {
    let schema = FileManager.default.temporaryDirectory
      .appendingPathComponent("site-schema-\(UUID().uuidString).json")
    try DefinitionSchema.text().write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    let accepted = try TestTools.checkJSONSchema(schemaFile: schema.path, file: file)
    return try #require(accepted as Bool?, "check-jsonschema is not installed (.build/venv/bin)")
  }

  @Test(.enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"))
  func everyShippedDefinitionPasses() throws {
    let shipped = Registry.declared.map(\.file)
    #expect(shipped.count >= 5)
    for file in shipped {
      let path = TestTools.packageRoot.appendingPathComponent(file).path
      #expect(try Self.accepts(path), "\(file)")
    }
  }

  @Test(
    .enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"),
    arguments: ["unknown-key.yaml", "wrong-shape.yaml", "newer-format.yaml"])
  func aDefinitionWithAWrongKeyOrShapeFails(name: String) throws {
    let path = Fixtures.root.appendingPathComponent("sites/invalid/\(name)").path
    #expect(try !Self.accepts(path))
  }
}
