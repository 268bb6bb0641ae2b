import Foundation
import Testing

/// Given the built binary, when `clarissa schema` runs, then it prints a draft-07 JSON Schema of
/// searches.yaml on standard output and exits 0, ready for `> searches.schema.json`.
@Suite struct SchemaCommandTests {
  @Test func schemaPrintsTheJSONSchemaAndExitsZero() throws {
    let outcome = try CommandLineTests.run(["schema"])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty)
    let schema = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    #expect(schema["$schema"] as? String == "http://json-schema.org/draft-07/schema#")
    let properties = try #require(schema["properties"] as? [String: Any])
    #expect(properties["searches"] != nil)
    #expect(outcome.stdout.hasSuffix("}\n"))
  }

  @Test func theTopLevelHelpListsSchema() throws {
    let outcome = try CommandLineTests.run(["--help"])
    #expect(outcome.stdout.contains("schema"))
  }
}
