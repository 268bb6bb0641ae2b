internal import ClarissaCore
internal import Foundation

/// The JSON Schema (draft-07, what yaml-language-server reads fully) of site definitions,
/// `clarissa schema site`: built from the reader's own key lists, so a key the reader learns
/// appears here too. It checks shapes and names; paths and templates are checked by the reader.
public enum DefinitionSchema {
  /// The schema as pretty-printed JSON with sorted keys, ending in a newline.
  public static func text() throws -> String {
    let data = try JSONSerialization.data(
      withJSONObject: schema, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  package static var schema: [String: Any] {
    [
      "$schema": "http://json-schema.org/draft-07/schema#",
      "title": "clarissa site definition",
      "description": "a site declared in YAML: docs/adding-a-site.md",
      "type": "object",
      "additionalProperties": false,
      "required": ["format", "id", "name", "status", "summary", "requests"],
      "properties": [
        "format": ["enum": DefinitionReader.formats, "description": "the format version"],
        "id": [
          "type": "string", "pattern": "^[a-z][a-z0-9-]{1,39}$",
          "description": "what a search writes in 'site:'",
        ],
        "name": text("shown to people"), "summary": text("one line on what it reads"),
        "status": ["enum": SiteStatus.allCases.map(\.rawValue)],
        "language": [
          "enum": DefinitionReader.languages, "description": "for relative dates and decimals",
        ],
        "countries": [
          "type": "array", "items": ["type": "string", "pattern": "^[A-Z]{2}$"],
          "description": "the countries it serves, ISO 3166-1 alpha-2",
        ],
        "kind": [
          "enum": SiteKind.allCases.map(\.rawValue),
          "description": "what kind of search it serves (marketplace unless said)",
        ],
        "wall": [
          "enum": SiteWall.allCases.map(\.rawValue),
          "description": "the bot wall it is known to answer with (none unless said)",
        ],
        "samples": [
          "type": "array",
          "description": "the recorded answers it is checked against, with the facts each carries",
          "items": [
            "type": "object", "additionalProperties": false, "required": ["file"],
            "properties": [
              "file": [
                "type": "string", "description": "Fixtures/<id>/<file>, from the repository's root",
              ],
              "facts": ["type": "array", "items": ["enum": SiteSample.factNames]],
            ],
          ],
        ],
        "time_zone": text("IANA zone of dates written without one"),
        "currency": ["type": "string", "pattern": "^[A-Z]{3}$"],
        "floor_area_unit": [
          "enum": AreaUnit.allCases.map(\.rawValue),
          "description": "the unit of floor areas that name none (m2 unless said)",
        ],
        "ids": [
          "enum": ["unique", "may_repost"],
          "description":
            "unique: each id is one listing, never folded as another's repost (may_repost unless "
            + "said)",
        ],
        "politeness": object(
          [
            "delay": duration, "jitter": duration, "interval": duration,
            "concurrency": ["type": "integer", "minimum": 1, "maximum": 4],
          ]),
        "parameters": ["type": "array", "items": parameter],
        "cities": names, "categories": names,
        "requests": ["type": "array", "minItems": 1, "items": request],
        "search_url": searchURL,
      ],
    ]
  }

  /// `search_url:`: the site's search pages as pasted from the browser.
  private static var searchURL: [String: Any] {
    let names: [String: Any] = ["type": "array", "items": ["type": "string"]]
    let example = object(
      ["url": text("a search page as pasted"), "request": text("the request it makes")],
      required: ["url", "request"])
    return object(
      [
        "hosts": names,
        "edit": [
          "type": "array", "description": "[regex, replacement] edits of the pasted path",
          "items": ["type": "array", "items": ["type": "string"], "minItems": 2, "maxItems": 2],
        ],
        "path": text("a regular expression for a search page's path; named groups are {url.NAME}"),
        "request": text("the first request's URL: {url.path|raw}, {url.NAME}, {category.code}"),
        "keep": ["anyOf": [["const": "all"], names], "description": "pasted query names kept"],
        "drop": names, "require": names,
        "set": ["type": "object", "additionalProperties": ["type": "string"]],
        "examples": ["type": "array", "minItems": 1, "items": example],
      ], required: ["hosts", "path", "request", "examples"])
  }

  private static func text(_ description: String) -> [String: Any] {
    ["type": "string", "description": description]
  }

  private static func object(_ properties: [String: Any], required: [String] = [])
    -> [String: Any]
  {
    [
      "type": "object", "additionalProperties": false, "properties": properties,
      "required": required,
    ]
  }

  private static var duration: [String: Any] {
    [
      "type": "string",
      "pattern": "^[0-9]+(" + Interval.unitSuffixes.joined(separator: "|") + ")$",
      "description": "5s, 15m, 1h",
    ]
  }
  private static var scalar: [String: Any] { ["type": ["string", "number", "boolean"]] }

  private static var parameter: [String: Any] {
    object(
      [
        "name": text("the search key"), "kind": ["enum": DefinitionReader.parameterKinds],
        "summary": text("what it does"), "example": scalar, "default": scalar,
        "values": ["type": "array", "items": scalar],
        "range": ["type": "array", "items": ["type": "integer"], "minItems": 2, "maxItems": 2],
        "required": ["type": "boolean"],
      ], required: ["name", "kind", "summary"])
  }

  private static var names: [String: Any] {
    object(
      [
        "kind": ["enum": DeclaredNames.Kind.allCases.map(\.rawValue)],
        "table": [
          "type": "object",
          "additionalProperties": [
            "type": ["object", "string"], "additionalProperties": scalar,
          ],
        ],
        "pattern": text("a regular expression a name must match"),
        "default": text("the name used when a search gives none"),
      ], required: ["kind"])
  }

  private static var request: [String: Any] {
    let templates: [String: Any] = ["type": "object", "additionalProperties": ["type": "string"]]
    return object(
      [
        "id": text("the name later requests use for what this one collects"),
        "method": ["enum": ["GET", "POST"]], "url": text("a template: {query}, {city.code} ..."),
        "query": templates, "headers": templates, "body": text("a template (POST)"),
        "read": read,
      ], required: ["url", "read"])
  }

  private static var read: [String: Any] {
    let path = text("XPath (HTML) or JSONPath (JSON)")
    let fields = FieldSpec.Name.allCases.map(\.rawValue)
    return object(
      [
        "as": ["enum": ReadSpec.Format.allCases.map(\.rawValue)], "json_in": path,
        "items": path, "empty": path, "blocked": path,
        "collect": ["type": "object", "additionalProperties": path],
        "lookups": [
          "type": "object", "description": "tables of JSON entries by key: name -> table",
          "additionalProperties": object(
            [
              "json_in": text("XPath to the element whose text is the JSON (HTML answers)"),
              "entries": text("JSONPath to the entries"),
              "key": text("JSONPath to an entry's key, relative to it"),
            ], required: ["entries", "key"]),
        ],
        "fields": [
          "type": "object", "additionalProperties": false,
          "properties": Dictionary(uniqueKeysWithValues: fields.map { ($0, field) })
            .merging(["facts": facts]) { $1 }
            .merging(
              FieldSpec.deprecatedNames.mapValues { name in
                field.merging(["deprecated": true, "description": "now '\(name.rawValue)'"]) {
                  $1
                }
              }
            ) { first, _ in first },
        ],
      ], required: ["as"])
  }

  /// `facts:`: the site's other facts, a field per fact name.
  private static var facts: [String: Any] {
    [
      "type": "object", "description": "the site's other facts: name -> a field",
      "propertyNames": ["minLength": 1, "maxLength": DefinitionReader.longestFactName],
      "additionalProperties": field,
    ]
  }

  private static var field: [String: Any] {
    let filter: [String: Any] = [
      "oneOf": [
        ["enum": DefinitionReader.bareFilters],
        [
          "type": "object", "minProperties": 1, "maxProperties": 1,
          "propertyNames": ["enum": FieldFilter.names],
        ],
      ]
    ]
    return [
      "oneOf": [
        ["type": "string", "description": "a path"],
        object(
          [
            "path": ["type": "string"], "value": ["type": "string"],
            "filters": ["type": "array", "items": filter], "optional": ["type": "boolean"],
            "lookup": ["type": "string", "description": "a table of 'lookups'"],
            "by": [
              "enum": FieldSpec.Name.allCases.filter { $0 != .facts }.map(\.rawValue),
              "description": "the field whose value is the key (id when unsaid)",
            ],
          ]),
      ]
    ]
  }
}
