import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Given `clarissa schema`'s JSON Schema, when a real validator from PyPI (check-jsonschema)
/// checks the config fixtures against it, then every valid config passes, every invalid one
/// fails, except those whose problem no JSON Schema can express, listed here with the reason.
@Suite struct ConfigSchemaTests {
  /// Invalid fixtures the schema cannot reject, and why. A fixture that moves between this list
  /// and the rejected ones fails the test, so the list stays true.
  static let beyondSchema: [String: String] = [
    "bad-ntfy.yaml":
      "an ntfy URL's topic and priority are URL internals; the schema checks schemes only",
    "bad-regex-paren.yaml": "whether a pattern compiles in NSRegularExpression",
    "bad-regex-quantifier.yaml": "whether a pattern compiles in NSRegularExpression",
    "bad-regex-range.yaml": "whether a pattern compiles in NSRegularExpression",
    "bad-timezone.yaml": "time zone names are the machine's zoneinfo, not a fixed list",
    "city-group-cycle.yaml": "a group naming itself through other groups is a graph property",
    "duplicate-search-name.yaml": "uniqueness of one key across list items",
    "empty-window.yaml": "comparing two values ('from' equals 'to')",
    "geojson-problems.yaml": "what the GeoJSON files 'within' names hold (read by clarissa)",
    "missing-env-var.yaml": "whether ${NAME} is set in the environment",
    "price-min-above-max.yaml": "comparing two values (min above max)",
    "unknown-blackout-ref.yaml": "a name defined elsewhere in the file (blackout windows)",
    "unknown-channel-ref.yaml": "a name defined elsewhere in the file (channels)",
    "unknown-category.yaml": "the site's category table, with near-misses sent as written",
    "unknown-city.yaml": "the site's table of ~700 areas, checked by the site",
    "unknown-city-in-group.yaml": "the site's table of ~700 areas, checked by the site",
    "unknown-declared-city.yaml": "a declared site's city table, checked by the site",
    "unknown-subarea.yaml": "the site's subarea tables, checked by the site",
  ]

  /// Invalid fixtures not handed to the validator at all, and why.
  static let notValidated: [String: String] = [
    "alias-bomb.yaml":
      "an alias bomb: the validator's YAML loader expands it without a budget and does not finish "
      + "(clarissa's reader refuses it in microseconds)"
  ]

  static var validator: String? { TestTools.path("check-jsonschema") }
  static var canValidate: Bool { validator != nil || TestTools.underCI }

  @Test(.enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"))
  func everyValidConfigPassesTheSchema() throws {
    var files = Fixtures.yamlFiles(in: "config/valid").map { "config/valid/\($0)" }
      .map { Fixtures.root.appendingPathComponent($0).path }
    files.append(TestTools.packageRoot.appendingPathComponent("searches.yaml").path)
    let failing = try Self.failing(files)
    #expect(files.count >= 7)
    #expect(failing.isEmpty, "valid configs the schema refuses: \(failing.sorted())")
  }

  @Test(.enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"))
  func everyInvalidConfigFailsTheSchemaOrIsListedWithItsReason() throws {
    let folder = Fixtures.root.appendingPathComponent("config/invalid")
    let names = Fixtures.yamlFiles(in: "config/invalid").filter { Self.notValidated[$0] == nil }
    let failing = try Self.failing(names.map { folder.appendingPathComponent($0).path })
    let passing = Set(names).subtracting(failing.map { ($0 as NSString).lastPathComponent })
    #expect(names.count > 50)
    let listed = Set(Self.beyondSchema.keys)
    #expect(
      passing == listed,
      """
      accepted by the schema but not listed: \(passing.subtracting(listed).sorted())
      listed but now rejected by the schema: \(listed.subtracting(passing).sorted())
      """)
  }

  @Test(.enabled(if: canValidate, "check-jsonschema is not installed (.build/venv/bin)"))
  func theSchemaIsValidDraft07() throws {
    let schema = try Self.writeSchema()
    let result = try Self.run(["--check-metaschema", schema.path])
    #expect(result.status == 0, "\(result.output)")
  }

  /// Keys come from the reader's tables and the sites' declarations, not from a second list.
  @Test func theSchemaHoldsEveryDeclaredKey() throws {
    let schema = ConfigSchema.schema(sites: Registry.sites, channels: ChannelRegistry.all)
    let top = try #require(schema["properties"] as? [String: Any])
    #expect(
      Set(top.keys) == [
        "version", "defaults", "cities", "blackout", "notify", "state",
        "http", "output", "limits", "geocoder", "searches", "sites", "places", "serve", "photos",
        "routing",
      ])
    let searches = try #require(top["searches"] as? [String: Any])
    let search = try #require(searches["items"] as? [String: Any])
    let keys = Set(try #require(search["properties"] as? [String: Any]).keys)
    let parameters = Registry.sites.all.flatMap { $0.parameters.map(\.name) }
    let facts = [
      "rooms", "bedrooms", "floor_area", "price_per_area", "missing", "near", "near_mode", "within",
      "commute",
    ]
    for key in ["name", "site", "query", "filters", "notify"] + facts + parameters {
      #expect(keys.contains(key), "'\(key)' is missing from the search schema")
    }
    #expect(search["additionalProperties"] as? Bool == false)
    let patterns = try #require(schema["patternProperties"] as? [String: Any])
    #expect(patterns["^x-"] != nil)
  }

  /// Editors show descriptions as hover text: every property needs its own.
  @Test func everyPropertyHasItsOwnDescription() {
    var missing: [String] = []
    Self.walk(ConfigSchema.schema(sites: Registry.sites, channels: ChannelRegistry.all), path: "") {
      path, property in
      let text = property["description"] as? String ?? ""
      if text.isEmpty || text.contains("no description yet") { missing.append(path) }
    }
    #expect(missing.isEmpty, "properties without a description: \(missing)")
  }

  // MARK: - Helpers

  /// Calls `visit` for every property of every object schema below `node`.
  static func walk(
    _ node: Any, path: String, visit: (String, [String: Any]) -> Void
  ) {
    if let list = node as? [Any] {
      for item in list { walk(item, path: path, visit: visit) }
      return
    }
    guard let object = node as? [String: Any] else { return }
    for (key, value) in object {
      // `if` only tests a value (`site: feed`); it declares no property.
      if key == "if" { continue }
      if key == "properties", let properties = value as? [String: Any] {
        for (name, property) in properties {
          // `false` forbids a key for one site: not a property to describe.
          if let property = property as? [String: Any] { visit("\(path).\(name)", property) }
          walk(property, path: "\(path).\(name)", visit: visit)
        }
      } else {
        walk(value, path: path, visit: visit)
      }
    }
  }

  static func writeSchema() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("clarissa-schema-\(UUID().uuidString).json")
    try ConfigSchema.text(sites: Registry.sites, channels: ChannelRegistry.all).write(
      to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// The files check-jsonschema refuses (a YAML it cannot parse counts as refused).
  static func failing(_ files: [String]) throws -> Set<String> {
    let schema = try writeSchema()
    defer { try? FileManager.default.removeItem(at: schema) }
    let result = try run(["-o", "json", "--schemafile", schema.path] + files)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
      "check-jsonschema printed no JSON: \(result.output)")
    let errors = report["errors"] as? [[String: Any]] ?? []
    let entries = errors + (report["parse_errors"] as? [[String: Any]] ?? [])
    return Set(entries.compactMap { $0["filename"] as? String })
  }

  static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let path = try #require(validator, "check-jsonschema is not installed (.build/venv/bin)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
