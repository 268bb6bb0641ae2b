internal import ClarissaCore
internal import Foundation

/// Why a JSONPath expression cannot be compiled: what is wrong and where (characters from 0).
package struct JSONPathError: Error, Equatable, Sendable {
  package var message: String
  package var offset: Int
}

/// A JSONPath expression (RFC 9535) compiled once: `$` the document, `@` the current item;
/// `.name`, `['name']`, `[0]`, `[-1]`, `[*]`, `..name`, slices `[1:5:2]`, unions `[0,2]`, and
/// filters `[?@.price < 100 && match(@.name, 'P.*')]` with `length`, `match` and `search`.
/// Values are what `JSONSerialization` makes; an object's members come in sorted key order
/// (the parser keeps no order to follow).
package struct JSONPath: @unchecked Sendable {
  // Holds filters' literals as `Any` (JSON values), never changed once the path is compiled.
  package let text: String
  package let query: JSONQuery

  /// True when the path selects at most one node (names and indexes only).
  package var isSingular: Bool { query.isSingular }

  package init(_ text: String) throws(JSONPathError) {
    var parser = JSONPathParser(text)
    query = try parser.wholeQuery()
    self.text = text
  }

  /// The nodes selected, in document order, from `root` (`$`), with `current` as `@`.
  package func select(_ root: Any, current: Any? = nil) -> [Any] {
    query.select(root: root, current: current ?? root)
  }
}

/// A query: its start (`$` or `@`) and segments.
package struct JSONQuery {
  package var relative: Bool
  package var segments: [JSONSegment]

  package var isSingular: Bool {
    segments.allSatisfy { segment in
      guard !segment.descendant, segment.selectors.count == 1 else { return false }
      switch segment.selectors[0] {
      case .name, .index: return true
      default: return false
      }
    }
  }

  package func select(root: Any, current: Any) -> [Any] {
    var nodes = [relative ? current : root]
    for segment in segments {
      nodes = nodes.flatMap { segment.apply(to: $0, root: root) }
    }
    return nodes
  }
}

/// `.x`, `[...]` (child) or `..x`, `..[...]` (descendant).
package struct JSONSegment {
  package var descendant: Bool
  package var selectors: [JSONSelector]

  package func apply(to node: Any, root: Any) -> [Any] {
    let targets = descendant ? Self.descendants(of: node) : [node]
    return targets.flatMap { target in selectors.flatMap { $0.apply(to: target, root: root) } }
  }

  /// The node and every node under it, depth first in document order.
  package static func descendants(of node: Any) -> [Any] {
    var result: [Any] = []
    var stack: [Any] = [node]
    while let next = stack.popLast() {
      result.append(next)
      stack += JSONSelector.children(of: next).reversed()
    }
    return result
  }
}

/// One selector of a segment.
package enum JSONSelector {
  case name(String)
  case wildcard
  case index(Int)
  case slice(start: Int?, end: Int?, step: Int?)
  case filter(JSONFilter)

  package func apply(to node: Any, root: Any) -> [Any] {
    switch self {
    case .name(let name):
      return ((node as? [String: Any])?[name]).map { [$0] } ?? []
    case .wildcard: return Self.children(of: node)
    case .index(let index):
      guard let array = node as? [Any] else { return [] }
      let position = index < 0 ? array.count + index : index
      return array.indices.contains(position) ? [array[position]] : []
    case .slice(let start, let end, let step):
      guard let array = node as? [Any] else { return [] }
      return Self.slice(array, start: start, end: end, step: step ?? 1)
    case .filter(let filter):
      return Self.children(of: node).filter { filter.holds(current: $0, root: root) }
    }
  }

  package static func children(of node: Any) -> [Any] {
    if let array = node as? [Any] { return array }
    if let object = node as? [String: Any] {
      return object.keys.sorted().compactMap { object[$0] }
    }
    return []
  }

  /// RFC 9535 2.3.4.2.2: bounds normalized and clamped, a negative step walking backwards.
  package static func slice(_ array: [Any], start: Int?, end: Int?, step: Int) -> [Any] {
    let count = array.count
    guard step != 0, count > 0 else { return [] }
    func normalized(_ value: Int) -> Int { value >= 0 ? value : count + value }
    var result: [Any] = []
    if step > 0 {
      let lower = min(max(normalized(start ?? 0), 0), count)
      let upper = min(max(normalized(end ?? count), 0), count)
      var index = lower
      while index < upper {
        result.append(array[index])
        index += step
      }
    } else {
      let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
      let lower = min(max(normalized(end ?? -count - 1), -1), count - 1)
      var index = upper
      while lower < index {
        result.append(array[index])
        index += step
      }
    }
    return result
  }
}
