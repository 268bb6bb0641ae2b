internal import ClarissaCore
internal import Foundation
internal import YAML

/// A search's `commute: {work: {by: transit, max: 30 min}}`: for each place of `places:`, the
/// mode and the longest journey (``CommuteLimit``); a list under one place gives it several
/// modes. Every limit must hold.
extension ConfigReader {
  static let commuteKeys = ["by", "max"]

  /// The units `max` may be written in, and their minutes.
  static let commuteUnits: [(unit: String, minutes: Double)] = [("min", 1), ("h", 60)]

  /// The longest `max`: a day. Longer is a typo, and no engine plans such a journey.
  static let longestCommute = 24.0 * 60

  func readCommute(_ field: Field, places: [NamedPlace], routing: RoutingSettings)
    -> [CommuteLimit]
  {
    let what = "'commute' in \(field.origin)"
    guard field.node.mapping != nil else {
      error(
        "expected a mapping such as '{work: {by: transit, max: 30 min}}' for \(what), found "
          + field.node.kindDescription, at: field.node)
      return []
    }
    guard let table = table(field.node, what) else { return [] }
    var limits: [CommuteLimit] = []
    for entry in table.entries {
      let place = places.first { $0.name == entry.key }
      if place == nil { reportUnknownPlace(entry.key, in: what, places: places, at: entry.keyNode) }
      let name = "'commute.\(entry.key)' in \(field.origin)"
      let items = entry.value.sequence ?? [entry.value]
      for item in items {
        guard let (mode, minutes, byNode) = readLimit(item, name), let place else {
          continue
        }
        if routing.engines[mode] == nil {
          let reach = mode.reach(inMinutes: minutes).words(in: place.unit)
          warning(
            "no engine for '\(mode.rawValue)' in 'routing', so no travel time is asked for "
              + "\(name): only the straight-line bound applies (listings farther than \(reach) "
              + "from \(entry.key) are dropped, the rest kept); add 'routing: {\(mode.rawValue): "
              + "...}'", at: byNode)
        }
        limits.append(CommuteLimit(place: place, mode: mode, maxMinutes: minutes))
      }
    }
    return limits
  }

  /// `{by: transit, max: 30 min}`.
  private func readLimit(_ node: Node, _ what: String) -> (TravelMode, Double, by: Node)? {
    guard node.mapping != nil, let table = table(node, what) else {
      error(
        "expected a mapping such as '{by: transit, max: 30 min}' for \(what), found "
          + node.kindDescription, at: node)
      return nil
    }
    checkKeys(table, allowed: Self.commuteKeys, in: what)
    var mode: TravelMode?
    if let value = table["by"], let word = string(value, "'by' of \(what)") {
      mode = TravelMode(rawValue: word)
      if mode == nil { error(unknownModeMessage(word, in: "'by' of \(what)"), at: value) }
    } else if table["by"] == nil {
      error(
        "\(what) needs 'by', the travel mode (car, bike, foot or transit), as in "
          + "'{by: transit, max: 30 min}'", at: node)
    }
    var minutes: Double?
    if let value = table["max"] {
      minutes = journeyMinutes(value, "'max' of \(what)")
    } else {
      error(
        "\(what) needs 'max', the longest journey, as in '{by: transit, max: 30 min}'", at: node)
    }
    guard let mode, let minutes, let by = table["by"] else { return nil }
    return (mode, minutes, by)
  }

  /// `30 min`, `1 h`, `1.5 h`: above zero, at most a day, with its unit.
  private func journeyMinutes(_ node: Node, _ what: String) -> Double? {
    guard let scalar = node.scalar, !node.isNull else {
      error(
        "expected a time such as '30 min' or '1.5 h' for \(what), found \(node.kindDescription)",
        at: node)
      return nil
    }
    let (number, unitText) = Self.splitNumber(scalar.value)
    let units = Self.commuteUnits.map(\.unit)
    guard let number, number > 0 else {
      error(
        "expected a time above zero such as '30 min' or '1.5 h' for \(what), found "
          + "'\(scalar.value)'", at: node)
      return nil
    }
    guard let unit = Self.commuteUnits.first(where: { $0.unit == unitText }) else {
      let shown = ListingFacts.number(number, digits: 3)
      let hints = [
        "m": "min", "mins": "min", "minute": "min", "minutes": "min", "hour": "h",
        "hours": "h", "hr": "h", "hrs": "h",
      ]
      let hint =
        hints[unitText.lowercased()].map { "; did you mean '\($0)'?" }
        ?? Suggestions.hint(for: unitText, in: units)
      error(
        unitText.isEmpty
          ? "\(what) needs a unit: write '\(shown) min' or '\(shown) h'"
          : "unknown time unit '\(unitText)' in \(what)\(hint) (write min or h)", at: node)
      return nil
    }
    let minutes = number * unit.minutes
    guard minutes <= Self.longestCommute else {
      error(
        "\(what) is \(scalar.value), longer than a day; write at most '24 h'", at: node)
      return nil
    }
    return minutes
  }
}
