public import ClarissaCore
internal import Foundation

/// A JSON Schema (draft-07) of `searches.yaml`, for editors (`clarissa schema`).
///
/// The keys come from the reader's own tables (``ConfigReader/topLevelKeys``, ``SearchKey/all``,
/// the section key lists) and each site's ``SiteParameter`` declarations, so a key the reader
/// learns appears here too. Value shapes that the reader spells in code (durations, times,
/// channel URLs) are written here once, next to the reader's own vocabulary they use.
/// Draft-07 because yaml-language-server (VS Code's YAML extension, Neovim's yamlls) supports it
/// fully; its 2019-09/2020-12 support is partial.
public enum ConfigSchema {
  /// The schema's `$id`-less JSON object, ready for `JSONSerialization`.
  /// `channels` are the kinds a channel URL may be of (`ChannelRegistry.all`), as the reader
  /// is handed them.
  public static func schema(sites: SiteCatalog, channels: [any ChannelKind]) -> [String: Any] {
    var properties: [String: Any] = [:]
    for key in ConfigReader.topLevelKeys {
      let value =
        key == "notify"
        ? ["type": ["object", "null"], "additionalProperties": channel(ChannelCatalog(channels))]
        : topLevelValue(key, sites: sites)
      properties[key] = describe(value, "top.\(key)", key)
    }
    return [
      "$schema": "http://json-schema.org/draft-07/schema#",
      "title": "clarissa searches.yaml",
      "description": ConfigSchemaText.root,
      "type": "object",
      "properties": properties,
      // The reader allows `x-` keys for the user's own anchors, as Compose does.
      "patternProperties": ["^x-": ["description": ConfigSchemaText.extensionKey]],
      "additionalProperties": false,
      "required": ["searches"],
    ]
  }

  /// The schema as pretty-printed JSON text with sorted keys, ending in a newline.
  public static func text(sites: SiteCatalog, channels: [any ChannelKind]) throws -> String {
    let data = try JSONSerialization.data(
      withJSONObject: schema(sites: sites, channels: channels),
      options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return (String(data: data, encoding: .utf8) ?? "") + "\n"
  }

  /// docs/configuration.md's table of the keys a search may hold (``SearchKey/all``), as
  /// Markdown ending in a newline.
  public static var searchKeysTable: String { SearchKey.markdownTable }

  // MARK: - Sections

  private static func topLevelValue(_ key: String, sites: SiteCatalog) -> [String: Any] {
    switch key {
    case "version":
      return ["type": "integer", "minimum": 1, "maximum": ConfigReader.currentVersion]
    case "defaults": return searchObject(sites: sites, isDefaults: true)
    case "cities":
      return [
        "type": ["object", "null"],
        "additionalProperties": describe(cityList, "cities.group", nil),
      ]
    case "blackout":
      return ["type": ["object", "null"], "additionalProperties": blackoutWindow]
    case "state":
      return section(ConfigReader.stateKeys, prefix: "state") { key in
        switch key {
        case "retention", "lease": duration(zeroAllowed: false)
        case "politeness": choice(StateSettings.Politeness.self)
        default: expandable(text)
        }
      }
    case "http":
      return section(ConfigReader.httpKeys, prefix: "http") { key in
        switch key {
        case "timeout": duration(zeroAllowed: false)
        case "min_delay", "jitter": duration(zeroAllowed: true)
        case "max_response_size": byteSize
        case "max_hosts": ["type": "integer", "minimum": 1, "maximum": 64]
        default: expandable(text)
        }
      }
    case "output":
      return section(ConfigReader.outputKeys, prefix: "output") { key in
        key == "keep" ? ["type": "integer", "minimum": 1, "maximum": 1000] : expandable(text)
      }
    case "limits":
      return section(ConfigReader.limitKeys.map(\.key), prefix: "limits") { key in
        let range = ConfigReader.limitKeys.first { $0.key == key }?.range ?? 1...1
        return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
      }
    case "geocoder":
      let url: [String: Any] = ["type": "string", "pattern": "^(https?://|\\$\\{)"]
      var long = section(ConfigReader.geocoderKeys, prefix: "geocoder") { key in
        switch key {
        case "url": url
        case "per_run": ["type": "integer", "minimum": 1, "maximum": 1000]
        case "delay", "retry_not_found": duration(zeroAllowed: false)
        default: expandable(text)
        }
      }
      long["required"] = ["url"]
      return ["oneOf": [url, long]]
    case "photos":
      let off: [String: Any] = ["enum": ["off", "on", false, true]]
      let long = section(ConfigReader.photoKeys, prefix: "photos") { key in
        let range =
          key == "per_listing" ? PhotoSettings.perListingRange : PhotoSettings.perRunRange
        return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
      }
      return ["oneOf": [off, long]]
    case "serve":
      return section(ConfigReader.serveKeys, prefix: "serve") { key in
        switch key {
        case "url": ["type": "string", "pattern": "^([Hh][Tt][Tt][Pp][Ss]?://|\\$\\{)"]
        case "action_expiry": duration(zeroAllowed: false)
        case "edit": ["type": "boolean"]
        default: expandable(text)
        }
      }
    case "routing": return routing
    case "searches":
      return ["type": ["array", "null"], "items": searchObject(sites: sites, isDefaults: false)]
    case "sites": return ["type": "string", "minLength": 1]
    case "places":
      let latitude: [String: Any] = ["type": "number", "minimum": -90, "maximum": 90]
      let longitude: [String: Any] = ["type": "number", "minimum": -180, "maximum": 180]
      let point: [String: Any] = [
        "type": "array", "items": [latitude, longitude], "minItems": 2, "maxItems": 2,
      ]
      return ["type": ["object", "null"], "additionalProperties": point]
    default: return [:]
    }
  }

  /// A mapping whose keys are `keys`, nothing else.
  private static func section(
    _ keys: [String], prefix: String, value: (String) -> [String: Any]
  ) -> [String: Any] {
    var properties: [String: Any] = [:]
    for key in keys { properties[key] = describe(value(key), "\(prefix).\(key)", key) }
    return ["type": "object", "properties": properties, "additionalProperties": false]
  }

  private static var blackoutWindow: [String: Any] {
    var object = section(ConfigReader.blackoutKeys, prefix: "blackout") { key in
      switch key {
      case "from", "to": ["type": "string", "pattern": "^(([01]?[0-9]|2[0-3]):[0-5][0-9]|24:00)$"]
      case "mode": choice(BlackoutWindow.Mode.self)
      case "days": textList
      default: text
      }
    }
    object["required"] = ["timezone", "from", "to"]
    object["description"] = ConfigSchemaText.text(for: "blackout.window")
    return object
  }

  /// `daily 08:00`, `weekly mon 08:00`, a time zone after the time or not (``DigestSchedule``).
  private static var digestSchedule: [String: Any] {
    ["type": "string", "pattern": "^(daily|weekly [A-Za-z]+) [0-9]{1,2}:[0-9]{2}( \\S+)?$"]
  }

  private static func channel(_ kinds: ChannelCatalog) -> [String: Any] {
    let texts = ConfigSchemaText.channelTexts(kinds.all)
    var url = channelURL(kinds)
    url["description"] = texts["channel.url"]
    var long = section(ConfigReader.channelKeys, prefix: "channel") { key in
      switch key {
      case "digest": ["anyOf": [["type": "boolean"], digestSchedule]]
      default: expandable(template)
      }
    }
    // The URL's text names the kinds, which the section's texts do not know.
    var properties = long["properties"] as? [String: Any] ?? [:]
    properties["url"] = url
    long["properties"] = properties
    long["required"] = ["url"]
    return [
      "description": texts["channel"] ?? "",
      "oneOf": [url, long],
    ]
  }

  /// `stdout`, `exec:...`, a known scheme, an http(s) webhook, or a whole `${VAR}`.
  private static func channelURL(_ kinds: ChannelCatalog) -> [String: Any] {
    let schemes = (kinds.schemes + ["http", "https"])
      .filter { $0 != "stdout" && $0 != "exec" && $0 != "mailto" }
      .map(caseInsensitive)
    let pattern =
      "^(stdout(://)?$|exec:|\(caseInsensitive("mailto")):|(\(schemes.joined(separator: "|")))://"
      + "|\\$\\{)"
    return expandable(["type": "string", "pattern": pattern])
  }

  // MARK: - Searches

  private static func searchObject(sites: SiteCatalog, isDefaults: Bool) -> [String: Any] {
    var properties: [String: Any] = [:]
    for key in SearchKey.all where !(isDefaults && key.ownOnly != nil) {
      var value = key.schema(sites)
      value["description"] = key.hover
      properties[key.name] = value
    }
    for (name, declared) in siteParameters(sites) {
      let owners = declared.map(\.site).joined(separator: ", ")
      let kinds = declared.map { parameterValue($0.parameter) }
      var value: [String: Any] = kinds.count == 1 ? kinds[0] : ["anyOf": kinds]
      let summary = declared.map { $0.parameter.summary }.joined(separator: "; ")
      let example = declared[0].parameter.example
      value["description"] = "\(summary) (site \(owners); e.g. \(example))"
      properties[name] = value
    }
    var object: [String: Any] = [
      "type": "object", "properties": properties, "additionalProperties": false,
      "description": ConfigSchemaText.text(for: isDefaults ? "top.defaults" : "search"),
    ]
    if !isDefaults { object["required"] = ["name"] }
    object["allOf"] = sites.all.map { siteRule($0, sites: sites) }
    return object
  }

  /// With `site: X` written, the other sites' parameters (and `cities`, for a site without
  /// cities) are refused, as the reader does. A site from `defaults` cannot be seen here.
  private static func siteRule(_ site: any FeedSource, sites: SiteCatalog) -> [String: Any] {
    let own = Set(site.parameters.map(\.name))
    var refused = siteParameters(sites).map(\.name).filter { !own.contains($0) }
    if site.cities == .unused { refused.append("cities") }
    var forbidden: [String: Any] = [:]
    for key in refused { forbidden[key] = false }
    return [
      "if": ["properties": ["site": ["const": site.id]], "required": ["site"]],
      "then": ["properties": forbidden],
    ]
  }

  /// Each parameter name with the sites declaring it, in declaration order.
  private static func siteParameters(
    _ sites: SiteCatalog
  ) -> [(name: String, declared: [(site: String, parameter: SiteParameter)])] {
    var order: [String] = []
    var declared: [String: [(site: String, parameter: SiteParameter)]] = [:]
    for site in sites.all {
      for parameter in site.parameters {
        if declared[parameter.name] == nil { order.append(parameter.name) }
        declared[parameter.name, default: []].append((site.id, parameter))
      }
    }
    return order.map { ($0, declared[$0] ?? []) }
  }

  private static func parameterValue(_ parameter: SiteParameter) -> [String: Any] {
    switch parameter.kind {
    case .text: return expandable(text)
    case .bool: return ["type": "boolean"]
    case .integer(let range):
      return ["type": "integer", "minimum": range.lowerBound, "maximum": range.upperBound]
    case .choice(let words): return ["enum": words]
    case .choices(let words):
      let word: [String: Any] = ["enum": words]
      return ["anyOf": [word, ["type": "array", "items": word, "minItems": 1]]]
    case .urls:
      let url = expandable(["type": "string", "pattern": "^([Hh][Tt][Tt][Pp][Ss]?://|\\$\\{)"])
      return ["anyOf": [url, ["type": "array", "items": url, "minItems": 1]]]
    }
  }

  /// `{min, max}`, at least one, each a `value`.
  static func bounds(_ value: [String: Any], prefix: String) -> [String: Any] {
    [
      "type": "object", "minProperties": 1, "additionalProperties": false,
      "properties": [
        "min": describe(value, "\(prefix).min", "min"),
        "max": describe(value, "\(prefix).max", "max"),
      ],
    ]
  }

  static var filter: [String: Any] {
    var object = section(ConfigReader.filterKeys, prefix: "filter") { key in
      switch key {
      case "include", "exclude": textList
      case "regex", "case_sensitive": ["type": "boolean"]
      case "on": choice(Filter.Field.self)
      case "match": choice(Filter.Match.self)
      default: text
      }
    }
    // Exactly one effect: the reader refuses a filter with neither or both.
    object["oneOf"] = [["required": ["include"]], ["required": ["exclude"]]]
    object["description"] = ConfigSchemaText.text(for: "filter")
    return object
  }

  /// Adds the hover text for `path`.
  static func describe(
    _ value: [String: Any], _ path: String, _ key: String?
  ) -> [String: Any] {
    var value = value
    value["description"] = ConfigSchemaText.text(for: path, key: key)
    return value
  }
}
