internal import ClarissaCore
internal import Foundation

extension JSONPath {
  /// Why the path selects nothing in `document`: the longest start of the path that finds
  /// something, what that holds (keys and their types), and the step that finds nothing in it.
  /// Nil when the path finds something.
  package func whyEmpty(in document: Any) -> String? {
    var nodes = [document]
    var shown = query.relative ? "@" : "$"
    for segment in query.segments {
      let next = nodes.flatMap { segment.apply(to: $0, root: document) }
      guard next.isEmpty else {
        nodes = next
        shown += segment.text
        continue
      }
      return "'\(shown)' holds \(Self.describe(nodes)), in which '\(segment.text)' finds nothing"
    }
    return nil
  }

  /// Nodes as a person reads them: one described whole, several by the first and a count.
  private static func describe(_ nodes: [Any]) -> String {
    guard nodes.count > 1, let first = nodes.first else {
      return nodes.first.map { describe($0, depth: 0) } ?? "nothing"
    }
    return "\(nodes.count) values, the first \(describe(first, depth: 0))"
  }

  /// A value's kind; an object with its first keys and their kinds; an array with its count and
  /// its first element's kind.
  private static func describe(_ value: Any, depth: Int) -> String {
    if let object = value as? [String: Any] {
      guard !object.isEmpty else { return "an empty object" }
      guard depth == 0 else { return "an object" }
      let keys = object.keys.sorted()
      let shown = keys.prefix(12).map { key in
        "\(shortened(key)) (\(object[key].map { describe($0, depth: 1) } ?? "null"))"
      }
      return "an object with keys: " + shown.joined(separator: ", ")
        + (keys.count > 12 ? ", and \(keys.count - 12) more" : "")
    }
    if let array = value as? [Any] {
      guard let first = array.first else { return "an empty array" }
      let count = "\(CheckedNumber.grouped(array.count)) \(array.count == 1 ? "value" : "values")"
      return depth == 0
        ? "an array of \(count), the first \(describe(first, depth: 1))" : "an array of \(count)"
    }
    if JSONKind.isNull(value) { return "null" }
    if JSONKind.boolean(value) != nil { return "a boolean" }
    if value is String { return "text" }
    return value is NSNumber ? "a number" : "a value"
  }

  /// A key from the answer, safe to print and at most 40 characters.
  private static func shortened(_ key: String) -> String {
    let line = SafeText.line(key)
    return line.count > 40 ? String(line.prefix(39)) + "…" : line
  }
}

extension JSONSegment {
  /// The segment as a path writes it (`.name`, `[0]`, `[*]`, `..name`).
  package var text: String {
    let parts = selectors.map(\.text)
    if selectors.count == 1, case .name(let name) = selectors[0],
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !name.isEmpty
    {
      return (descendant ? ".." : ".") + name
    }
    return (descendant ? ".." : "") + "[" + parts.joined(separator: ",") + "]"
  }
}

extension JSONSelector {
  /// The selector as a path writes it inside brackets.
  package var text: String {
    switch self {
    case .name(let name): return "'\(SafeText.line(name))'"
    case .wildcard: return "*"
    case .index(let index): return "\(index)"
    case .slice(let start, let end, let step):
      return "\(start.map(String.init) ?? ""):\(end.map(String.init) ?? "")"
        + (step.map { ":\($0)" } ?? "")
    case .filter: return "?..."
    }
  }
}
