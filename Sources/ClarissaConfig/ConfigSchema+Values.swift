internal import ClarissaCore

/// The schema's value shapes that the reader spells in code: expandable text, templates,
/// durations, choices.
extension ConfigSchema {
  /// Text the reader expands: `${NAME}`, `${NAME:-fallback}`, `$${` for a literal `${`, and a
  /// `$` before anything else; any other `${...}` is refused, as the reader does.
  static func expandable(_ schema: [String: Any]) -> [String: Any] {
    let references = #"^(?:[^$]|\$\$\{|\$(?!\{)|\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\})*$"#
    guard schema["pattern"] != nil else {
      var schema = schema
      schema["pattern"] = references
      return schema
    }
    return ["allOf": [schema, ["pattern": references]]]
  }

  /// A title or body: every `{field}` must be one the reader knows (`${VAR}` is not a field).
  static var template: [String: Any] {
    let fields = ConfigReader.templateFields.joined(separator: "|")
    return ["type": "string", "pattern": "^(?![\\s\\S]*(?<!\\$)\\{(?!(\(fields))\\})[^}]*\\})"]
  }

  /// A scalar the reader takes as text (`postal: 94110` is the text "94110").
  static var text: [String: Any] { ["type": ["string", "number", "boolean"]] }

  /// One text value or a list of them.
  static var textList: [String: Any] {
    ["anyOf": [text, ["type": "array", "items": text]]]
  }

  /// Cities: an empty list is refused wherever cities are allowed at all.
  static var cityList: [String: Any] {
    ["anyOf": [text, ["type": "array", "items": text, "minItems": 1]]]
  }

  static var byteSize: [String: Any] {
    [
      "anyOf": [
        ["type": "integer", "minimum": 1],
        ["type": "string", "pattern": "^[0-9]+ *(KiB|MiB|GiB|KB|MB|GB|B)?$"],
      ]
    ]
  }

  static func duration(zeroAllowed: Bool) -> [String: Any] {
    let parts = Interval.unitSuffixes.map { "([0-9]{1,9}\($0))?" }.joined()
    let zero = Interval.unitSuffixes.joined(separator: "|")
    // Non-empty; all-zero only where zero means none.
    let guardPart = zeroAllowed ? "(?=.)" : "(?=.)(?!(0+(\(zero)))+$)"
    return ["type": "string", "pattern": "^\(guardPart)\(parts)$"]
  }

  static func choice<T: RawRepresentable & CaseIterable>(_ type: T.Type) -> [String: Any]
  where T.RawValue == String {
    ["enum": T.allCases.map(\.rawValue)]
  }

  /// `ntfy` as `[Nn][Tt][Ff][Yy]`: ECMA-262 patterns have no inline case flag.
  static func caseInsensitive(_ word: String) -> String {
    word.map { character in
      let lower = character.lowercased()
      let upper = character.uppercased()
      return lower == upper ? String(character) : "[\(upper)\(lower)]"
    }.joined()
  }
}
