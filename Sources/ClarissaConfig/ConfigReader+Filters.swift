import ClarissaCore
import Foundation
import YAML

/// `filters:` lists of `include` / `exclude`, plain text or regular expression.
extension ConfigReader {
  static let filterKeys = ["include", "exclude", "regex", "on", "case_sensitive"]

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
    let context = "a filter of \(what)"
    guard let table = table(node, context) else { return [] }
    checkKeys(table, allowed: Self.filterKeys, in: context)
    let effects = table.entries.filter { $0.key == "include" || $0.key == "exclude" }
    guard let effectEntry = effects.first else {
      error("\(context) needs 'include' or 'exclude'", at: node)
      return []
    }
    if effects.count > 1 {
      error(
        "\(context) has both 'include' and 'exclude'; write them as two filters",
        at: effects[1].keyNode)
      return []
    }
    let effect: Filter.Effect = effectEntry.key == "include" ? .include : .exclude
    let isRegex = table["regex"].flatMap { bool($0, "'regex' of \(context)") } ?? false
    let field = table["on"].flatMap { choice($0, "'on' of \(context)", Filter.Field.self) } ?? .both
    let caseSensitive =
      table["case_sensitive"].flatMap { bool($0, "'case_sensitive' of \(context)") } ?? false
    // `include: [a, b]` is two filters with the same options.
    return stringList(effectEntry.value, "'\(effectEntry.key)' of \(context)").compactMap {
      pattern, patternNode in
      guard !pattern.isEmpty else {
        error("'\(effectEntry.key)' of \(context) is empty", at: patternNode)
        return nil
      }
      do {
        return try Filter(
          effect, on: field, pattern: pattern, isRegex: isRegex, caseSensitive: caseSensitive,
          location: location(patternNode))
      } catch let regexError {
        reportBadRegex(pattern, at: patternNode, in: context, because: regexError)
        return nil
      }
    }
  }

  private func reportBadRegex(
    _ pattern: String, at node: Node, in context: String, because regexError: any Error
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
    let foundation = (regexError as NSError).localizedDescription
    error(
      "invalid regular expression '\(pattern)' in \(context): \(reason)", at: place,
      notes: [Diagnostic.Note("NSRegularExpression: \(foundation)")])
  }
}
