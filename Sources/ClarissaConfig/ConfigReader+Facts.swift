internal import ClarissaCore
internal import Foundation
internal import YAML

/// The readers of `rooms`, `bedrooms`, `floor_area` and `price_per_area` of a search (or
/// `defaults`): bounds on what a listing describes.
extension ConfigReader {
  /// The keys `price_per_area` takes.
  static let pricePerAreaKeys = ["min", "max", "per"]

  /// `rooms: {min: 2, max: 3.5}`: decimals, at least zero.
  func readCount(_ field: Field) -> FactRange? {
    readBounds(field, field.key, example: "{min: 2, max: 3.5}") { node, what in
      amount(node, what)
    }
  }

  /// `floor_area: {min: 50 m2, max: 900 ft2}`: each bound with its unit; in square metres, with
  /// the unit of the first bound written (for messages).
  func readFloorArea(_ field: Field) -> (FactRange, AreaUnit)? {
    var units: [AreaUnit] = []
    let range = readBounds(field, "floor_area", example: "{min: 50 m2}") { node, what in
      guard let (value, unit) = areaValue(node, what) else { return nil }
      units.append(unit)
      return value * unit.squareMetres
    }
    return range.map { ($0, units.first ?? .squareMetres) }
  }

  /// `price_per_area: {max: 20}` (per m²) or `{max: 2, per: ft2}`.
  func readPricePerArea(_ field: Field) -> (FactRange, AreaUnit)? {
    var unit = AreaUnit.squareMetres
    if let node = field.node.mapping?.first(where: { $0.key.scalar?.value == "per" })?.value {
      unit = areaUnit(node, "'price_per_area.per' in \(field.origin)") ?? unit
    }
    let range = readBounds(
      field, "price_per_area", allowed: Self.pricePerAreaKeys, example: "{max: 20}"
    ) { node, what in
      amount(node, what)
    }
    return range.map { ($0, unit) }
  }

  /// A mapping of `min` and `max` (each read by `value`), min not above max; nil when neither
  /// is set or a problem was reported.
  private func readBounds(
    _ field: Field, _ key: String, allowed: [String] = ["min", "max"], example: String,
    value: (Node, String) -> Double?
  ) -> FactRange? {
    let what = "'\(key)' in \(field.origin)"
    guard field.node.mapping != nil else {
      let written = field.node.scalar?.value
      let hint =
        written.map {
          "; write '\(key): {min: \($0)}' for \($0) or more, '{max: \($0)}' for at most \($0)"
        } ?? ""
      error(
        "expected a mapping such as '\(example)' for \(what), found \(field.node.kindDescription)"
          + hint, at: field.node)
      return nil
    }
    guard let table = table(field.node, what) else { return nil }
    let commas = decimalCommas(table, key, origin: field.origin)
    checkKeys(
      Table(node: table.node, entries: table.entries.filter { !commas.contains($0.key) }),
      allowed: allowed, in: what)
    var found: [String: Double] = [:]
    for name in ["min", "max"] {
      guard let node = table[name] else { continue }
      if let number = value(node, "'\(key).\(name)' in \(field.origin)") { found[name] = number }
    }
    if let min = found["min"], let max = found["max"], min > max, let node = table["max"] {
      let written = { (name: String) in table[name]?.scalar?.value ?? "" }
      error(
        "'\(key).max' (\(written("max"))) is below '\(key).min' (\(written("min"))) in "
          + field.origin, at: node)
      return nil
    }
    if found.isEmpty {
      if table["min"] == nil, table["max"] == nil {
        error("\(what) needs 'min' or 'max', as in '\(key): \(example)'", at: field.node)
      }
      return nil
    }
    return FactRange(min: found["min"], max: found["max"])
  }

  /// `{min: 2,5}` reads as `min: 2` and a key `5`: the decimal comma of "2,5 Zi.", reported
  /// as such; the digit-only keys it made.
  private func decimalCommas(_ table: Table, _ key: String, origin: String) -> Set<String> {
    var found: Set<String> = []
    var previous: Table.Entry?
    for entry in table.entries {
      defer { previous = entry }
      guard entry.value.isNull, entry.key.allSatisfy(\.isNumber), let before = previous,
        let written = before.value.scalar?.value, written.last?.isNumber == true
      else { continue }
      found.insert(entry.key)
      error(
        "'\(key).\(before.key)' in \(origin) reads as \(written) and a key '\(entry.key)': in "
          + "'{...}' a comma starts the next entry; write \(written).\(entry.key) with a "
          + "decimal point", at: entry.keyNode)
    }
    return found
  }

  /// `50 m2`, `50m²`, `540 ft2`: a number and its unit, which must be written.
  func areaValue(_ node: Node, _ what: @autoclosure () -> String) -> (Double, AreaUnit)? {
    guard let scalar = node.scalar, !node.isNull else {
      error(
        "expected an area such as '50 m2' for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    let (number, unitText) = Self.splitNumber(scalar.value)
    guard let number else {
      error(
        "expected an area such as '50 m2' or '540 ft2' for \(what()), found '\(scalar.value)'",
        at: node)
      return nil
    }
    guard !unitText.isEmpty else {
      let shown = ListingFacts.number(number, digits: 2)
      error(
        "\(what()) needs a unit: write '\(shown) m2' for square metres or '\(shown) ft2' for "
          + "square feet", at: node)
      return nil
    }
    guard let unit = Self.areaUnits[unitText] else {
      error(
        "unknown area unit '\(unitText)' in \(what())"
          + Suggestions.hint(for: unitText, in: ["m2", "ft2"]) + " (write m2 or ft2)", at: node)
      return nil
    }
    return (number, unit)
  }

  /// `m2` or `ft2` alone (`per:`).
  private func areaUnit(_ node: Node, _ what: @autoclosure () -> String) -> AreaUnit? {
    guard let text = string(node, what()) else { return nil }
    guard let unit = Self.areaUnits[text] else {
      error(
        "'\(text)' is not a valid value for \(what())"
          + Suggestions.hint(for: text, in: ["m2", "ft2"]) + " (expected m2 or ft2)", at: node)
      return nil
    }
    return unit
  }

  static let areaUnits: [String: AreaUnit] = [
    "m2": .squareMetres, "m²": .squareMetres, "ft2": .squareFeet, "ft²": .squareFeet,
  ]

  /// A written quantity split into its leading non-negative number and the rest, trimmed:
  /// `"50 m2"` -> (50, "m2"), `"3km"` -> (3, "km"), `"50"` -> (50, "").
  static func splitNumber(_ text: String) -> (Double?, String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let rest = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
    guard let value = Double(digits), value.isFinite else { return (nil, rest) }
    return (value, rest)
  }
}
