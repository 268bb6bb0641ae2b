internal import ClarissaCore
package import Foundation
package import YAML

/// A field's `filters:`: each a name (`price`) or a mapping of one name to its argument
/// (`regex: '(\d+) m²'`), checked now so a mistake is found by `validate`, not by a run.
extension DefinitionReader {
  /// Filters that take no argument.
  package static let bareFilters = ["price", "lowercase", "uppercase", "html", "absolute"]

  package func filter(_ node: Node) -> FieldFilter? {
    if let name = node.scalar?.value {
      switch name {
      case "price": return .price
      case "lowercase": return .lowercase
      case "uppercase": return .uppercase
      case "html": return .html
      case "absolute": return .absolute(base: nil)
      default:
        let needs = FieldFilter.names.contains(name) ? " needs an argument: '{\(name): ...}'" : ""
        nodes.error(
          needs.isEmpty
            ? "unknown filter '\(name)'\(Suggestions.hint(for: name, in: FieldFilter.names))"
              + " (filters: \(FieldFilter.names.joined(separator: ", ")))"
            : "filter '\(name)'\(needs)", node)
        return nil
      }
    }
    guard let pairs = node.mapping, pairs.count == 1, let name = pairs[0].key.scalar?.value
    else {
      nodes.error("a filter is a name or a mapping of one name to its argument", node)
      return nil
    }
    return filter(name, pairs[0].key, pairs[0].value)
  }

  private func filter(_ name: String, _ keyNode: Node, _ argument: Node) -> FieldFilter? {
    switch name {
    case "regex":
      return regex(argument, "'regex'").map { .regex($0) }
    case "replace":
      let parts = nodes.list(argument).compactMap { nodes.text($0, "'replace'") }
      guard parts.count == 2, let pattern = regex(argument.sequence?.first, "'replace'") else {
        if parts.count != 2 {
          nodes.error("'replace' takes [pattern, replacement]: ['\\s+', ' ']", argument)
        }
        return nil
      }
      return .replace(pattern, with: parts[1])
    case "number":
      guard let separator = nodes.text(argument, "'number'"), [",", "."].contains(separator)
      else {
        nodes.error("'number' takes the decimal separator, ',' or '.': {number: ','}", argument)
        return nil
      }
      return .number(decimal: separator == "," ? "," : ".")
    case "date": return date(argument)
    case "absolute":
      return nodes.text(argument, "'absolute' (the base URL)").map { .absolute(base: $0) }
    case "template":
      guard let text = nodes.text(argument, "'template'") else { return nil }
      if !text.contains("{}") {
        nodes.error("'template' needs '{}' where the value goes", argument)
      }
      return .template(text)
    case "split":
      return nodes.text(argument, "'split'").map { .split($0) }
    case "join":
      return nodes.text(argument, "'join' (the text between two values)").map { .join($0) }
    default:
      if FieldFilter.names.contains(name) { return filter(keyNode) }
      nodes.error(
        "unknown filter '\(name)'\(Suggestions.hint(for: name, in: FieldFilter.names))"
          + " (filters: \(FieldFilter.names.joined(separator: ", ")))", keyNode)
      return nil
    }
  }

  package func regex(_ node: Node?, _ what: String) -> NSRegularExpression? {
    guard let node, let pattern = nodes.text(node, what) else { return nil }
    do {
      return try NSRegularExpression(pattern: pattern)
    } catch {
      nodes.error("\(what) '\(pattern)' is not a valid regular expression", node)
      return nil
    }
  }

  private func date(_ node: Node) -> FieldFilter? {
    let formats = nodes.list(node).compactMap { nodes.text($0, "a date format") }
    guard !formats.isEmpty else {
      nodes.error("'date' needs formats: [relative, 'dd.MM.yyyy']", node)
      return nil
    }
    for (index, format) in formats.enumerated() {
      if let problem = DateText.checkFormat(format) {
        let at = node.sequence.map { $0[min(index, $0.count - 1)] } ?? node
        nodes.error("date format '\(format)': \(problem)", at)
      }
    }
    return .date(formats)
  }
}
