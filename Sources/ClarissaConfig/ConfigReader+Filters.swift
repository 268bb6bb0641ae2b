internal import ClarissaCore
internal import Foundation
internal import YAML

/// `filters:` lists of `include` / `exclude`, plain text or regular expression.
extension ConfigReader {
  static let filterKeys = ["include", "exclude", "regex", "on", "match", "case_sensitive"]

  func readFilters(_ node: Node, in what: String) -> [Filter] {
    if node.isNull { return [] }
    guard let items = node.sequence else {
      error(
        "expected a list of filters for 'filters' in \(what), found \(node.kindDescription); "
          + "write '- include: text'", at: node)
      return []
    }
    return items.flatMap { readFilter($0, in: what) }
  }

  private func readFilter(_ node: Node, in what: String) -> [Filter] {
    // Made only for a message.
    func context() -> String { "a filter of \(what)" }
    guard let table = table(node, context()) else { return [] }
    checkKeys(table, allowed: Self.filterKeys, in: context())
    let effects = table.entries.filter { $0.key == "include" || $0.key == "exclude" }
    guard let effectEntry = effects.first else {
      error("\(context()) needs 'include' or 'exclude'", at: node)
      return []
    }
    if effects.count > 1 {
      error(
        "\(context()) has both 'include' and 'exclude'; write them as two filters",
        at: effects[1].keyNode)
      return []
    }
    let effect: Filter.Effect = effectEntry.key == "include" ? .include : .exclude
    let isRegex = table["regex"].flatMap { bool($0, "'regex' of \(context())") } ?? false
    let field =
      table["on"].flatMap { choice($0, "'on' of \(context())", Filter.Field.self) } ?? .both
    let match =
      table["match"].flatMap { choice($0, "'match' of \(context())", Filter.Match.self) } ?? .words
    if isRegex, let matchNode = table["match"] {
      warning(
        "'match' of \(context()) applies to plain text; a regular expression matches as written "
          + "(use \\b for word boundaries)", at: matchNode)
    }
    let caseSensitive =
      table["case_sensitive"].flatMap { bool($0, "'case_sensitive' of \(context())") } ?? false
    // `include: [a, b]` is two filters with the same options.
    return stringList(effectEntry.value, "'\(effectEntry.key)' of \(context())").compactMap {
      pattern, patternNode in
      guard !pattern.isEmpty else {
        error("'\(effectEntry.key)' of \(context()) is empty", at: patternNode)
        return nil
      }
      checkControlCharacters(pattern, at: patternNode, key: effectEntry.key)
      if !isRegex { checkPlainText(pattern, at: patternNode, key: effectEntry.key) }
      do {
        return try Filter(
          effect, on: field, pattern: pattern, isRegex: isRegex, match: match,
          caseSensitive: caseSensitive, location: location(patternNode))
      } catch {
        reportBadRegex(pattern, at: patternNode, in: context())
        return nil
      }
    }
  }

  /// A control character in a pattern is an escape YAML read in double quotes: `"\b"` is a
  /// backspace there, never a word boundary, so the filter matches nothing.
  private func checkControlCharacters(_ pattern: String, at node: Node, key: String) {
    guard let first = pattern.unicodeScalars.first(where: \.isControl) else { return }
    let written = pattern.map { character in
      Self.controlEscapes[character]
        ?? (character.unicodeScalars.first?.properties.generalCategory == .control
          ? String(format: "\\x%02X", character.unicodeScalars.first?.value ?? 0)
          : String(character))
    }.joined().replacingOccurrences(of: "'", with: "''")
    let name = first == "\u{8}" ? "a backspace" : String(format: "U+%04X", first.value)
    warning(
      "'\(key)' holds a control character (\(name)): in double quotes YAML reads '\\b' as a "
        + "backspace, not a word boundary, so this filter matches nothing; write the pattern in "
        + "single quotes: \(key): '\(written)'", at: node)
  }

  /// How YAML's double quotes write the control characters people type by mistake.
  private static let controlEscapes: [Character: String] = [
    "\u{8}": "\\b", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\u{7}": "\\a",
    "\u{C}": "\\f", "\u{B}": "\\v", "\u{1B}": "\\e", "\u{0}": "\\0",
  ]

  /// Plain text that is probably not what its writer meant.
  private func checkPlainText(_ pattern: String, at node: Node, key: String) {
    if Self.holdsCommaSpace(pattern) {
      let items = pattern.components(separatedBy: ", ").map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      warning(
        "'\(pattern)' is matched as one phrase, commas included; for any of several words write "
          + "a list: '\(key): [\(items.joined(separator: ", "))]'", at: node)
    }
    if pattern.allSatisfy({ $0 == "*" || $0.isWhitespace }) {
      error(
        "'\(key): \(pattern)' matches every listing; write a word, or remove the filter", at: node)
    }
  }

  /// Whether `text` holds ", ", compared as bytes (Foundation's `contains` goes through NSString,
  /// and the standard library's generic search costs as much, for every filter of every search).
  private static func holdsCommaSpace(_ text: String) -> Bool {
    var afterComma = false
    for byte in text.utf8 {
      if afterComma, byte == UInt8(ascii: " ") { return true }
      afterComma = byte == UInt8(ascii: ",")
    }
    return false
  }

  private func reportBadRegex(
    _ pattern: String, at node: Node, in context: String
  ) {
    let (reason, offset) = RegexDiagnosis.explain(pattern)
    var place = location(node)
    // Point at the culprit itself when the pattern is written as-is on one line.
    if let offset, node.start.line == node.end.line,
      let scalar = node.scalar, scalar.style == .plain || scalar.style == .singleQuoted,
      !pattern.contains("'")
    {
      place = place.advanced(by: offset + (scalar.style == .singleQuoted ? 1 : 0))
    }
    // Foundation's own text on Linux is filler ("The operation could not be completed"), so it
    // is not shown; the reason above is ours, found by reading the pattern.
    error("invalid regular expression '\(pattern)' in \(context): \(reason)", at: place)
  }
}

extension Unicode.Scalar {
  /// A control character (general category Cc: U+0000-U+001F, U+007F-U+009F), told by its
  /// value rather than through the Unicode tables.
  fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
