package import ClarissaCore
internal import Foundation
package import YAML

/// The variables a template may use at one point of a definition.
package struct TemplateScope {
  package var parameters: [String]
  package var cities: DeclaredNames
  package var categories: DeclaredNames?
  /// What earlier steps collect: `pins.pk`.
  package var collected: [String] = []

  /// The search's bounds a template may use: `{price.min}`, `{rooms.max}`, `{floor_area.min}`.
  package static let bounds = ["price", "rooms", "bedrooms", "floor_area"].flatMap {
    ["\($0).min", "\($0).max"]
  }

  package var known: [String] {
    var names = ["query"] + Self.bounds + parameters + collected
    if cities.kind != .none {
      names += ["city"] + columns(cities).map { "city.\($0)" }
    }
    if let categories {
      names += ["category"] + columns(categories).map { "category.\($0)" }
    }
    return names
  }

  private func columns(_ names: DeclaredNames) -> [String] {
    Array(Set(names.table.values.flatMap(\.keys))).sorted()
  }
}

/// The `requests:` of a definition.
extension DefinitionReader {
  package static let stepKeys = ["id", "method", "url", "query", "headers", "body", "read"]

  package func steps(_ node: Node?, scope: TemplateScope) -> [RequestStep]? {
    guard let node else { return nil }
    guard let list = node.sequence, !list.isEmpty else {
      nodes.error("'requests' must be a list of one or more requests", node)
      return nil
    }
    var scope = scope
    var steps: [RequestStep] = []
    for (index, item) in list.enumerated() {
      guard let step = step(item, scope: scope, last: index == list.count - 1) else { continue }
      if let id = step.id { scope.collected += step.read.collect.map { "\(id).\($0.name)" } }
      steps.append(step)
    }
    return steps.count == list.count ? steps : nil
  }

  private func step(_ node: Node, scope: TemplateScope, last: Bool) -> RequestStep? {
    guard let keys = nodes.mapping(node, "a request", allowed: Self.stepKeys) else { return nil }
    nodes.require(["url", "read"], in: keys, "a request")
    let method = nodes.word(keys["method"], "'method'", in: ["GET", "POST"]) ?? "GET"
    let url = template(keys["url"], "'url'", scope: scope)
    let query = pairs(keys["query"], "'query'", scope: scope)
    let headers = pairs(keys["headers"], "'headers'", scope: scope)
    let body = keys["body"].flatMap { template($0, "'body'", scope: scope) }
    if body != nil, method == "GET", let bodyNode = keys["body"] {
      nodes.error("a 'body' needs 'method: POST'", bodyNode)
    }
    let id = nodes.text(keys["id"], "'id'")
    guard let readNode = keys["read"], let read = read(readNode, last: last), let url else {
      return nil
    }
    if !last, id == nil {
      nodes.error("a request followed by another needs an 'id' (its values are '{id.name}')", node)
    }
    return RequestStep(
      id: id, method: method, url: url, query: query, headers: headers, body: body, read: read)
  }

  /// A template whose variables all exist here.
  package func template(_ node: Node?, _ what: String, scope: TemplateScope) -> URLTemplate? {
    guard let node, let text = nodes.text(node, what) else { return nil }
    let location = nodes.location(node)
    do {
      let template = try URLTemplate.parse(text, at: location)
      let known = scope.known
      for name in template.names where !known.contains(name) {
        let at = text.range(of: "{" + name).map {
          text.distance(from: text.startIndex, to: $0.lowerBound)
        }
        nodes.error(
          "unknown variable '{\(name)}' in \(what)\(Suggestions.hint(for: name, in: known))"
            + " (variables here: \(known.joined(separator: ", ")))",
          at: at.map { offset(location, node, $0) } ?? location)
      }
      return template
    } catch {
      nodes.error("\(what): \(error.message)", at: offset(location, node, error.offset))
      return nil
    }
  }

  private func pairs(_ node: Node?, _ what: String, scope: TemplateScope)
    -> [(name: String, value: URLTemplate)]
  {
    guard let node, let keys = nodes.mapping(node, what, allowed: []) else { return [] }
    return keys.list.compactMap { entry in
      template(entry.value, "'\(entry.key)' in \(what)", scope: scope).map { (entry.key, $0) }
    }
  }

  /// The place `offset` characters into a scalar: exact for plain and quoted one-line scalars.
  package func offset(_ location: SourceLocation, _ node: Node, _ offset: Int) -> SourceLocation {
    let style = node.scalar?.style ?? .plain
    let quoted = style == .singleQuoted || style == .doubleQuoted
    guard style == .plain || quoted, node.end.line == node.start.line else { return location }
    return location.advanced(by: offset + (quoted ? 1 : 0))
  }
}
