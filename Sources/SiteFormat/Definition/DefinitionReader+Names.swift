package import ClarissaCore
internal import Foundation
package import YAML

/// Parameters, cities and categories of a definition.
extension DefinitionReader {
  package static let parameterKeys = [
    "name", "kind", "summary", "example", "default", "values", "range", "required",
  ]
  package static let parameterKinds = ["text", "bool", "integer", "choice", "choices"]
  /// Search keys every site has: a parameter may not take their names.
  package static let reserved = [
    "name", "site", "query", "category", "cities", "price", "filters", "interval", "notify",
    "city", "mode",
  ]

  package func parameters(_ node: Node?) -> [SiteParameter] {
    guard let node else { return [] }
    guard let list = node.sequence else {
      nodes.error("'parameters' must be a list, found \(node.kindDescription)", node)
      return []
    }
    return list.compactMap(parameter)
  }

  private func parameter(_ node: Node) -> SiteParameter? {
    guard let keys = nodes.mapping(node, "a parameter", allowed: Self.parameterKeys) else {
      return nil
    }
    nodes.require(["name", "kind", "summary"], in: keys, "a parameter")
    guard let name = nodes.text(keys["name"], "a parameter's 'name'"),
      let kindWord = nodes.word(keys["kind"], "a parameter's 'kind'", in: Self.parameterKinds)
    else { return nil }
    if Self.reserved.contains(name), let nameNode = keys["name"] {
      nodes.error(
        "'\(name)' is a search key every site has; name the parameter otherwise", nameNode)
      return nil
    }
    let values = nodes.list(keys["values"]).compactMap { nodes.text($0, "a parameter value") }
    let kind: SiteParameter.Kind
    switch kindWord {
    case "bool": kind = .bool
    case "integer": kind = .integer(range(keys["range"]))
    case "choice", "choices":
      if values.isEmpty {
        nodes.error("a '\(kindWord)' parameter needs 'values'", keys.node)
        return nil
      }
      kind = kindWord == "choice" ? .choice(values) : .choices(values)
    default: kind = .text
    }
    let example = nodes.text(keys["example"], "'example'") ?? values.first ?? ""
    return SiteParameter(
      name, kind, summary: nodes.text(keys["summary"], "'summary'") ?? "", example: example,
      defaultValue: nodes.text(keys["default"], "'default'"),
      isRequired: nodes.bool(keys["required"], "'required'") ?? false)
  }

  private func range(_ node: Node?) -> ClosedRange<Int> {
    guard let node else { return 0...1_000_000 }
    let bounds = nodes.list(node).compactMap { nodes.integer($0, "'range'", in: Int.min...Int.max) }
    guard bounds.count == 2, bounds[0] <= bounds[1] else {
      nodes.error("'range' must be two whole numbers, the lower first: [0, 200]", node)
      return 0...1_000_000
    }
    return bounds[0]...bounds[1]
  }

  /// `cities:` or `categories:`.
  package func names(_ node: Node?, _ what: String) -> DeclaredNames? {
    guard let node,
      let keys = nodes.mapping(node, what, allowed: ["kind", "table", "pattern", "default"])
    else { return nil }
    let kinds = DeclaredNames.Kind.allCases.map(\.rawValue)
    guard
      let kind = nodes.word(keys["kind"], "\(what) 'kind'", in: kinds)
        .flatMap(DeclaredNames.Kind.init)
    else {
      if keys["kind"] == nil {
        nodes.error("\(what) needs 'kind' (\(kinds.joined(separator: ", ")))", node)
      }
      return nil
    }
    var names = DeclaredNames(kind: kind)
    if kind == .table { table(keys["table"], into: &names, what, at: node) }
    if kind == .pattern, let patternNode = keys["pattern"] {
      names.patternText = nodes.text(patternNode, "\(what) 'pattern'")
      names.pattern = names.patternText.flatMap { try? NSRegularExpression(pattern: "^(?:\($0))$") }
      if names.pattern == nil { nodes.error("\(what) 'pattern' is not a valid regex", patternNode) }
    } else if kind == .pattern {
      nodes.error("\(what) of kind 'pattern' needs 'pattern'", node)
    }
    if let defaultNode = keys["default"] {
      names.defaultName = nodes.text(defaultNode, "\(what) 'default'")
      if let name = names.defaultName, kind == .table, names.table[name] == nil {
        nodes.error("\(what) 'default' '\(name)' is not in the table", defaultNode)
      }
    }
    return names
  }

  private func table(_ node: Node?, into names: inout DeclaredNames, _ what: String, at owner: Node)
  {
    guard let node else {
      nodes.error("\(what) of kind 'table' needs 'table'", owner)
      return
    }
    guard let entries = nodes.mapping(node, "\(what) 'table'", allowed: []) else { return }
    for entry in entries.list {
      var columns: [String: String] = [:]
      if let row = entry.value.mapping {
        for pair in row {
          guard let key = pair.key.scalar?.value,
            let value = nodes.text(pair.value, "'\(entry.key).\(pair.key.scalar?.value ?? "")'")
          else { continue }
          columns[key] = value
        }
      } else if let value = nodes.text(entry.value, "'\(entry.key)'") {
        columns["code"] = value
      }
      names.table[entry.key] = columns
      names.order.append(entry.key)
    }
  }
}
