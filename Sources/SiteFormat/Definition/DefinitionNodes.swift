package import ClarissaCore
package import YAML

/// Reading YAML nodes of a site definition, each problem a located diagnostic (the same form as
/// `searches.yaml`'s): one reader per file, collecting every problem rather than stopping.
package final class DefinitionNodes {
  package let file: String
  private(set) var diagnostics: [Diagnostic] = []

  package init(file: String) { self.file = file }

  /// Where `node` starts.
  package func location(_ node: Node) -> SourceLocation {
    SourceLocation(file: file, line: node.start.line, column: node.start.column)
  }

  package func error(_ message: String, _ node: Node, notes: [Diagnostic.Note] = []) {
    diagnostics.append(.error(message, at: location(node), notes: notes))
  }

  package func warning(_ message: String, _ node: Node) {
    diagnostics.append(.warning(message, at: location(node)))
  }

  package func error(_ message: String, at location: SourceLocation) {
    diagnostics.append(.error(message, at: location))
  }

  /// A mapping's entries by key, each key checked against `allowed` (unknown: "did you mean").
  package func mapping(_ node: Node, _ what: String, allowed: [String]) -> Entries? {
    guard let pairs = node.mapping else {
      error("\(what) must be a mapping, found \(node.kindDescription)", node)
      return nil
    }
    var entries = Entries(node: node)
    for pair in pairs {
      guard let key = pair.key.scalar?.value else {
        error("a key in \(what) must be text", pair.key)
        continue
      }
      if !allowed.isEmpty, !allowed.contains(key) {
        error(
          "unknown key '\(key)' in \(what)\(Suggestions.hint(for: key, in: allowed))"
            + " (keys: \(allowed.joined(separator: ", ")))", pair.key)
        continue
      }
      entries.list.append((key, pair.key, pair.value))
    }
    return entries
  }

  /// Keys that must be there.
  package func require(_ keys: [String], in entries: Entries, _ what: String) {
    for key in keys where entries[key] == nil {
      error("\(what) needs '\(key)'", entries.node)
    }
  }

  /// A text scalar (any scalar is text).
  package func text(_ node: Node?, _ what: String) -> String? {
    guard let node else { return nil }
    guard let scalar = node.scalar, !node.isNull else {
      error("\(what) must be text, found \(node.kindDescription)", node)
      return nil
    }
    return scalar.value
  }

  /// One of `words`.
  package func word(_ node: Node?, _ what: String, in words: [String]) -> String? {
    guard let node, let value = text(node, what) else { return nil }
    guard words.contains(value) else {
      error(
        "'\(value)' is not a valid value for \(what)\(Suggestions.hint(for: value, in: words))"
          + " (expected \(words.joined(separator: ", ")))", node)
      return nil
    }
    return value
  }

  /// A whole number in `range`.
  package func integer(_ node: Node?, _ what: String, in range: ClosedRange<Int>) -> Int? {
    guard let node, let value = text(node, what) else { return nil }
    guard let number = Int(value), range.contains(number) else {
      error(
        "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), "
          + "found '\(value)'", node)
      return nil
    }
    return number
  }

  /// `true` or `false`.
  package func bool(_ node: Node?, _ what: String) -> Bool? {
    guard let node, let value = text(node, what) else { return nil }
    switch value {
    case "true", "yes": return true
    case "false", "no": return false
    default:
      error("\(what) must be true or false, found '\(value)'", node)
      return nil
    }
  }

  /// A duration (`5s`, `15m`).
  package func duration(_ node: Node?, _ what: String) -> Interval? {
    guard let node, let value = text(node, what) else { return nil }
    guard let interval = Interval(parsing: value) else {
      error(
        "\(what) must be a duration such as 5s or 15m, found '\(value)' (units: "
          + Interval.unitSuffixes.joined(separator: ", ") + ")", node)
      return nil
    }
    return interval
  }

  /// A list, or one item standing for a list of one.
  package func list(_ node: Node?) -> [Node] {
    guard let node else { return [] }
    return node.sequence ?? [node]
  }
}

/// A mapping's entries in file order, with their key nodes for messages.
package struct Entries {
  package let node: Node
  package var list: [(key: String, keyNode: Node, value: Node)] = []

  package init(node: Node) { self.node = node }

  package subscript(key: String) -> Node? {
    list.first { $0.key == key }?.value
  }
}
