internal import ClarissaCore

/// The schema of `routing:` and of a search's `commute:`, in the reader's vocabulary
/// (``ConfigReader/routingEngineKeys``, ``TravelMode``, ``ConfigReader/commuteUnits``).
extension ConfigSchema {
  /// `routing: {car: {osrm: URL, profile: driving}, transit: {motis: URL, arrive: Mon 08:30}}`.
  static var routing: [String: Any] {
    let url: [String: Any] = expandable(["type": "string", "pattern": "^(https?://|\\$\\{)"])
    let days = Departure.weekdayNames.joined(separator: "|")
    var properties: [String: Any] = [:]
    for key in ConfigReader.routingEngineKeys {
      let value: [String: Any] =
        switch key {
        case "osrm", "motis": url
        case "profile": ["type": "string", "pattern": "^[A-Za-z0-9_-]+$"]
        case "arrive", "depart":
          ["type": "string", "pattern": "^(\(days)) +([01]?[0-9]|2[0-3]):[0-5][0-9]$"]
        case "per_run": ["type": "integer", "minimum": 1, "maximum": 1000]
        default: duration(zeroAllowed: true)
        }
      properties[key] = describe(value, "routing.\(key)", key)
    }
    // One engine per mode: OSRM for car, bike and foot (it has no timetables), MOTIS for transit
    // (clarissa asks it for transit journeys alone).
    let engine: [String: Any] = [
      "type": "object", "properties": properties, "additionalProperties": false,
      "oneOf": [["required": ["osrm"]], ["required": ["motis"]]],
    ]
    var modes: [String: Any] = [:]
    for mode in TravelMode.allCases {
      var value = engine
      value["not"] = ["required": [mode == .transit ? "osrm" : "motis"]]
      modes[mode.rawValue] = describe(value, "routing.\(mode.rawValue)", mode.rawValue)
    }
    return ["type": ["object", "null"], "properties": modes, "additionalProperties": false]
  }

  /// `commute: {work: {by: transit, max: 30 min}}`; a list under a place for several modes.
  static var commute: [String: Any] {
    let units = ConfigReader.commuteUnits.map(\.unit).joined(separator: "|")
    let limit: [String: Any] = [
      "type": "object",
      "properties": [
        "by": describe(choice(TravelMode.self), "commute.by", "by"),
        "max": describe(
          ["type": "string", "pattern": "^ *[0-9]+(\\.[0-9]+)? *(\(units)) *$"], "commute.max",
          "max"),
      ],
      "required": ["by", "max"], "additionalProperties": false,
    ]
    return [
      "type": "object", "minProperties": 1,
      "additionalProperties": [
        "anyOf": [limit, ["type": "array", "items": limit, "minItems": 1]]
      ],
    ]
  }
}
