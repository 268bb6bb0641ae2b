// TEMPORARY placeholder (not committed): the helper writes the real one.
import Foundation
struct JSONPathError: Error, Equatable, Sendable { var message: String; var offset: Int }
struct JSONPath: Sendable {
  let text: String
  let steps: [String]
  var isSingular: Bool { !steps.contains("*") }
  init(_ text: String) throws(JSONPathError) {
    guard text.hasPrefix("$") || text.hasPrefix("@") else { throw JSONPathError(message: "a path starts with '$' or '@'", offset: 0) }
    self.text = text
    var steps: [String] = []
    var rest = Substring(text.dropFirst())
    while !rest.isEmpty {
      if rest.hasPrefix(".") { rest = rest.dropFirst(); let name = rest.prefix { $0 != "." && $0 != "[" }; steps.append(String(name)); rest = rest.dropFirst(name.count) }
      else if rest.hasPrefix("[") { let inner = rest.dropFirst().prefix { $0 != "]" }; steps.append(String(inner).replacingOccurrences(of: "'", with: "")); rest = rest.dropFirst(inner.count + 2) }
      else { throw JSONPathError(message: "unexpected", offset: text.count - rest.count) }
    }
    self.steps = steps
    self.relative = text.hasPrefix("@")
  }
  let relative: Bool
  func select(_ root: Any, current: Any? = nil) -> [Any] {
    var nodes: [Any] = [relative ? (current ?? root) : root]
    for step in steps {
      nodes = nodes.flatMap { node -> [Any] in
        if step == "*" { if let a = node as? [Any] { return a }; if let d = node as? [String: Any] { return d.keys.sorted().compactMap { d[$0] } }; return [] }
        if let i = Int(step), let a = node as? [Any] { let j = i < 0 ? a.count + i : i; return a.indices.contains(j) ? [a[j]] : [] }
        if let d = node as? [String: Any], let v = d[step] { return [v] }
        return []
      }
    }
    return nodes
  }
}
