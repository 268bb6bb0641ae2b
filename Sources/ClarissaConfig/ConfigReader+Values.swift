internal import ClarissaCore
internal import Foundation
internal import YAML

/// Readers for one value each: the field decides the type (`no` is a string where a string is
/// expected). Each returns nil after reporting a problem, so callers simply skip the value. What
/// a message calls the value is made only when there is a message (an `@autoclosure`): a
/// 1,000-search config asks for tens of thousands of values and reports a handful.
extension ConfigReader {
  /// A mapping with text keys; `what` names it in messages ("search 'aeron'").
  func table(_ node: Node, _ what: @autoclosure () -> String) -> Table? {
    guard let pairs = node.mapping else {
      error("expected a mapping for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    var keys: [String] = []
    keys.reserveCapacity(pairs.count)
    for pair in pairs {
      guard let key = pair.key.scalar, !pair.key.isNull else {
        error(
          "keys in \(what()) must be plain words, found \(pair.key.kindDescription)", at: pair.key)
        continue
      }
      keys.append(key.value)
    }
    // Pairs whose key is not text were reported above and are left out.
    let kept =
      keys.count == pairs.count ? pairs : pairs.filter { $0.key.scalar != nil && !$0.key.isNull }
    return Table(node: node, pairs: kept, keys: keys)
  }

  /// Reports every key of `table` not in `allowed`, with the closest allowed key.
  func checkKeys(
    _ table: Table, allowed: [String], in what: @autoclosure () -> String,
    hints: [String: String] = [:]
  ) {
    for entry in table.entries where !allowed.contains(entry.key) {
      error(
        unknownKeyMessage(entry.key, allowed: allowed, in: what(), hints: hints), at: entry.keyNode)
    }
  }

  /// "unknown key 'max_prize' in search 'aeron'; did you mean 'max_price'?"
  func unknownKeyMessage(
    _ key: String, allowed: [String], in what: String, hints: [String: String] = [:]
  ) -> String {
    let base = "unknown key '\(key)' in \(what)"
    let candidates = allowed + hints.keys
    guard let best = Suggestions.closest(to: key, in: candidates).first else { return base }
    // A hint key is not a key: say what to write instead, never "did you mean" the typed word.
    if let hint = hints[best] { return "\(base) \(hint)" }
    return "\(base); did you mean '\(best)'?"
  }

  /// A text value; nil (and no error) for YAML null when `optional`.
  func string(_ node: Node, _ what: @autoclosure () -> String, optional: Bool = false) -> String? {
    if node.isNull {
      if !optional { error("\(what()) is empty", at: node) }
      return nil
    }
    guard let scalar = node.scalar else {
      error("expected text for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    return scalar.value
  }

  /// `true` or `false`, written plain.
  func bool(_ node: Node, _ what: @autoclosure () -> String) -> Bool? {
    guard let scalar = node.scalar, scalar.style == .plain else {
      error("expected true or false for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    switch scalar.value {
    case "true", "True", "TRUE": return true
    case "false", "False", "FALSE": return false
    case "yes", "Yes", "YES", "on", "On", "ON", "y", "Y":
      error("expected true or false for \(what()), found '\(scalar.value)'; write true", at: node)
    case "no", "No", "NO", "off", "Off", "OFF", "n", "N":
      error("expected true or false for \(what()), found '\(scalar.value)'; write false", at: node)
    default:
      error("expected true or false for \(what()), found \(node.kindDescription)", at: node)
    }
    return nil
  }

  /// A whole number within `range`, written plain.
  func integer(_ node: Node, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) -> Int?
  {
    guard let scalar = node.scalar, scalar.style == .plain, let value = Int(scalar.value) else {
      error("expected a whole number for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    guard range.contains(value) else {
      let bounds =
        range.upperBound == Int.max
        ? "at least \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
      error("\(what()) must be \(bounds), found \(value)", at: node)
      return nil
    }
    return value
  }

  /// A non-negative number (`250`, `99.5`), written plain, without currency signs.
  func amount(_ node: Node, _ what: @autoclosure () -> String) -> Double? {
    guard let scalar = node.scalar, scalar.style == .plain else {
      error("expected a number for \(what()), found \(node.kindDescription)", at: node)
      return nil
    }
    guard let value = Double(scalar.value), value.isFinite, !scalar.value.hasPrefix("+") else {
      let cleaned = scalar.value.filter { $0.isNumber || $0 == "." }
      let hint = !cleaned.isEmpty && Double(cleaned) != nil ? "; write \(cleaned)" : ""
      error("expected a number for \(what()), found '\(scalar.value)'\(hint)", at: node)
      return nil
    }
    guard value >= 0 else {
      error("\(what()) cannot be negative, found \(scalar.value)", at: node)
      return nil
    }
    return value
  }

  /// A length of time such as `500ms`, `15m`, `2h`, `1h30m`, `7d`; zero only where it means none.
  func interval(_ node: Node, _ what: @autoclosure () -> String, zeroMeansNone: Bool = false)
    -> Interval?
  {
    guard let text = string(node, what()) else { return nil }
    guard let interval = Interval(parsing: text) else {
      let hint = Int(text) != nil ? "; add a unit, as in '\(text)m'" : ""
      error(
        "expected a duration such as '500ms', '15m', '2h' or '1h30m' for \(what()), found "
          + "'\(text)'\(hint)",
        at: node)
      return nil
    }
    guard interval.milliseconds > 0 || zeroMeansNone else {
      error("\(what()) must be longer than zero", at: node)
      return nil
    }
    return interval
  }

  /// One of a fixed list of words, with "did you mean".
  func choice<T: RawRepresentable>(_ node: Node, _ what: @autoclosure () -> String, _ type: T.Type)
    -> T?
  where T: CaseIterable, T.RawValue == String {
    let words = T.allCases.map(\.rawValue)
    guard let word = word(node, what(), among: words) else { return nil }
    return T(rawValue: word)
  }

  /// One of `words`, with "did you mean".
  func word(_ node: Node, _ what: @autoclosure () -> String, among words: [String]) -> String? {
    guard let text = string(node, what()) else { return nil }
    guard words.contains(text) else {
      error(
        "'\(text)' is not a valid value for \(what())" + Suggestions.hint(for: text, in: words)
          + " (expected \(words.joined(separator: ", ")))", at: node)
      return nil
    }
    return text
  }

  /// A list of text values; a single value is read as a list of one.
  func stringList(_ node: Node, _ what: @autoclosure () -> String) -> [(String, Node)] {
    let items = node.sequence ?? [node]
    return items.compactMap { item in
      if item.mapping != nil || item.sequence != nil {
        error("expected text in \(what()), found \(item.kindDescription)", at: item)
        return nil
      }
      return string(item, "an entry of \(what())").map { ($0, item) }
    }
  }

  /// A size in bytes: a whole number, or with a unit (`512KB`, `8MB`, `1MiB`).
  func byteSize(_ node: Node, _ what: @autoclosure () -> String) -> Int? {
    guard let text = string(node, what()) else { return nil }
    let units: [(String, Int)] = [
      ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("KB", 1000), ("MB", 1_000_000),
      ("GB", 1_000_000_000), ("B", 1), ("", 1),
    ]
    for (suffix, factor) in units where text.hasSuffix(suffix) {
      let number = text.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)
      guard let value = Int(number), value > 0, value <= Int.max / factor else { continue }
      return value * factor
    }
    error("expected a size such as '8MB' or '512KiB' for \(what()), found '\(text)'", at: node)
    return nil
  }
}
