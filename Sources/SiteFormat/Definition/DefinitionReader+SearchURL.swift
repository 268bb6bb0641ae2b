internal import ClarissaCore
internal import Foundation
package import YAML

/// `search_url:`: the site's search pages as people paste them (`url:` in a search).
extension DefinitionReader {
  package static let searchURLKeys = [
    "hosts", "edit", "path", "request", "keep", "drop", "require", "set", "examples",
  ]

  package func searchURL(_ node: Node?, categories: DeclaredNames?) -> SearchURLSpec? {
    guard let node,
      let keys = nodes.mapping(node, "'search_url'", allowed: Self.searchURLKeys)
    else { return nil }
    nodes.require(["hosts", "path", "request", "examples"], in: keys, "'search_url'")
    let hosts = nodes.list(keys["hosts"]).compactMap { nodes.text($0, "a host") }
      .map { $0.lowercased() }
    let edits = nodes.list(keys["edit"]).compactMap(edit)
    // A bad path is reported, and the rest still read: every problem in one pass.
    let pathText = keys["path"].flatMap { nodes.text($0, "'search_url.path'") }
    let path = keys["path"].flatMap { regex($0, "'search_url.path'") }
    let groups = pathText.map(Self.groupNames) ?? []
    var scope = TemplateScope(
      parameters: [], cities: DeclaredNames(kind: .none),
      categories: groups.contains("category") ? categories : nil)
    scope.collected = ["url.path"] + groups.map { "url.\($0)" }
    let request = template(keys["request"], "'search_url.request'", scope: scope)
    let kept = names(keys["keep"])
    let examples = examples(keys["examples"])
    guard let pathText, path != nil, let request,
      let anchored = try? NSRegularExpression(pattern: "^(?:\(pathText))$")
    else { return nil }
    return SearchURLSpec(
      hosts: hosts, edits: edits, path: anchored, groups: groups, request: request,
      keep: keys["keep"] == nil || kept == ["all"] ? nil : kept, drop: names(keys["drop"]),
      require: names(keys["require"]), set: pairs(keys["set"]),
      examples: examples.map { $0.example },
      exampleLocations: examples.map { $0.location })
  }

  /// `(?<name>` groups in a pattern, in order.
  package static func groupNames(_ pattern: String) -> [String] {
    guard let finder = try? NSRegularExpression(pattern: "\\(\\?<([A-Za-z][A-Za-z0-9]*)>") else {
      return []
    }
    let range = NSRange(pattern.startIndex..., in: pattern)
    return finder.matches(in: pattern, range: range).compactMap { match in
      Range(match.range(at: 1), in: pattern).map { String(pattern[$0]) }
    }
  }

  private func edit(_ node: Node) -> SearchURLSpec.PathEdit? {
    guard let parts = node.sequence, parts.count == 2,
      let pattern = regex(parts[0], "an 'edit' pattern"),
      let replacement = nodes.text(parts[1], "an 'edit' replacement")
    else {
      nodes.error("an 'edit' is [regex, replacement], e.g. ['/seite:[0-9]+', '']", node)
      return nil
    }
    return SearchURLSpec.PathEdit(pattern: pattern, replacement: replacement)
  }

  private func names(_ node: Node?) -> [String] {
    nodes.list(node).compactMap { nodes.text($0, "a query name") }
  }

  private func pairs(_ node: Node?) -> [(name: String, value: String)] {
    guard let node, let keys = nodes.mapping(node, "'search_url.set'", allowed: []) else {
      return []
    }
    return keys.list.compactMap { entry in
      nodes.text(entry.value, "'\(entry.key)' in 'search_url.set'").map { (entry.key, $0) }
    }
  }

  private func examples(_ node: Node?) -> [(example: SearchURLExample, location: SourceLocation)] {
    nodes.list(node).compactMap { item in
      guard let keys = nodes.mapping(item, "an example", allowed: ["url", "request"]) else {
        return nil
      }
      nodes.require(["url", "request"], in: keys, "an example")
      let url = nodes.text(keys["url"], "'url'")
      if let url, SearchURL(url) == nil, let urlNode = keys["url"] {
        nodes.error("'\(url)' is not an http or https URL", urlNode)
      }
      guard let url, let request = nodes.text(keys["request"], "'request'") else { return nil }
      return (SearchURLExample(url: url, request: request), nodes.location(item))
    }
  }
}
