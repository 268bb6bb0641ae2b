internal import ClarissaCore
internal import Foundation
internal import Markup
package import YAML

/// The `read:` part of a request: selectors, fields and their filters.
extension DefinitionReader {
  package static let readKeys = [
    "as", "json_in", "items", "lookups", "fields", "collect", "empty", "blocked",
  ]
  package static let fieldKeys = ["path", "value", "filters", "optional", "lookup", "by"]

  package func read(_ node: Node, last: Bool) -> ReadSpec? {
    guard let keys = nodes.mapping(node, "'read'", allowed: Self.readKeys) else { return nil }
    let formats = ReadSpec.Format.allCases.map(\.rawValue)
    guard
      let format = nodes.word(keys["as"], "'read.as'", in: formats).flatMap(ReadSpec.Format.init)
    else {
      if keys["as"] == nil { nodes.error("'read' needs 'as' (html or json)", node) }
      return nil
    }
    if format == .json, let jsonIn = keys["json_in"] {
      nodes.error("'json_in' reads JSON inside an HTML page: it needs 'as: html'", jsonIn)
    }
    let jsonIn = format == .html ? keys["json_in"].flatMap { selector($0, json: false) } : nil
    let json = format == .json || jsonIn != nil
    let (fields, facts) = self.fields(keys["fields"], json: json)
    var spec = ReadSpec(
      format: format, jsonIn: jsonIn, items: keys["items"].flatMap { selector($0, json: json) },
      fields: fields, facts: facts,
      collect: collect(keys["collect"], json: json),
      empty: keys["empty"].flatMap { selector($0, json: json) },
      blocked: keys["blocked"].flatMap { selector($0, json: json) }, location: nodes.location(node))
    spec.lookups = lookups(keys["lookups"], html: format == .html)
    check(spec, keys, last: last)
    checkLookups(spec)
    return spec
  }

  private func check(_ spec: ReadSpec, _ keys: Entries, last: Bool) {
    if last {
      nodes.require(["items", "fields"], in: keys, "the last request's 'read'")
      // Fields written but broken have their own message; these were not written at all.
      let written = Set(keys["fields"]?.mapping?.compactMap { $0.key.scalar?.value } ?? [])
      for name in [FieldSpec.Name.id, .title, .url] where !written.contains(name.rawValue) {
        if let fields = keys.list.first(where: { $0.key == "fields" })?.keyNode {
          nodes.error("'fields' needs '\(name.rawValue)' (every listing has one)", fields)
        }
      }
    } else if spec.collect.isEmpty {
      nodes.error("a request followed by another must 'collect' what the next one uses", keys.node)
    }
  }

  /// An XPath (HTML) or a JSONPath (JSON), compiled now: a mistake points at its character.
  package func selector(_ node: Node, json: Bool) -> Selector? {
    guard let text = nodes.text(node, json ? "a JSONPath" : "an XPath") else { return nil }
    let location = nodes.location(node)
    do {
      if json {
        let path = try JSONPath(text)
        return Selector(compiled: .json(path), text: text, location: location)
      }
      let expression = try XPathExpression(text)
      return Selector(compiled: .xpath(expression), text: text, location: location)
    } catch let error as JSONPathError {
      nodes.error(
        "'\(text)' is not a JSONPath this clarissa reads: \(error.message)",
        at: offset(location, node, error.offset))
    } catch let error as XPathError {
      let hint = text.hasPrefix("$") ? " (a JSONPath? this answer is read as HTML)" : ""
      nodes.error(
        "'\(text)' is not a valid XPath: \(error.message)\(hint)",
        at: offset(location, node, error.offset))
    } catch {
      nodes.error("'\(text)': \(error)", at: location)
    }
    return nil
  }

  private func collect(_ node: Node?, json: Bool) -> [(name: String, selector: Selector)] {
    guard let node, let keys = nodes.mapping(node, "'collect'", allowed: []) else { return [] }
    return keys.list.compactMap { entry in
      selector(entry.value, json: json).map { (entry.key, $0) }
    }
  }

  /// The fields, and apart from them the facts (`facts:`, a mapping of fields by fact name).
  private func fields(_ node: Node?, json: Bool) -> (fields: [FieldSpec], facts: [FieldSpec]) {
    guard let node else { return ([], []) }
    let names = FieldSpec.Name.allCases.map(\.rawValue)
    let allowed = names + FieldSpec.deprecatedNames.keys.sorted()
    guard let keys = nodes.mapping(node, "'fields'", allowed: allowed) else { return ([], []) }
    let fields = keys.list.compactMap { entry -> FieldSpec? in
      guard let name = FieldSpec.Name(rawValue: entry.key) ?? deprecated(entry, in: keys),
        name != .facts
      else { return nil }
      return field(name, entry.value, json: json)
    }
    return (fields, keys["facts"].map { facts($0, json: json) } ?? [])
  }

  /// `facts:`: each entry a field (a path, or a mapping with filters) named by its fact.
  private func facts(_ node: Node, json: Bool) -> [FieldSpec] {
    guard let keys = nodes.mapping(node, "'facts'", allowed: []) else { return [] }
    return keys.list.compactMap { entry in
      let name = entry.key.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty, name.count <= Self.longestFactName,
        !name.contains(where: { $0.isNewline || $0.asciiValue.map { $0 < 32 } == true })
      else {
        nodes.error(
          "a fact's name must be one line of 1 to \(Self.longestFactName) characters, found "
            + "'\(entry.key.prefix(80))'", entry.keyNode)
        return nil
      }
      var spec = field(.facts, entry.value, json: json, shown: "fact '\(name)'")
      spec?.fact = name
      return spec
    }
  }

  /// Longer fact names are cut when a listing is checked: a definition may not write them.
  package static let longestFactName = 60

  /// The field an old name stands for, with a warning at the name (an error when the new name
  /// is written too).
  private func deprecated(
    _ entry: (key: String, keyNode: Node, value: Node), in keys: Entries
  ) -> FieldSpec.Name? {
    guard let name = FieldSpec.deprecatedNames[entry.key] else { return nil }
    if keys[name.rawValue] != nil {
      nodes.error(
        "'\(entry.key)' is the old name of '\(name.rawValue)'; keep one of them", entry.keyNode)
      return nil
    }
    nodes.warning(
      "field '\(entry.key)' is now '\(name.rawValue)' (a place such as a district, not floor "
        + "space); rename it, the old name will go", entry.keyNode)
    return name
  }

  private func field(
    _ name: FieldSpec.Name, _ node: Node, json: Bool, shown: String? = nil
  ) -> FieldSpec? {
    let what = shown ?? "field '\(name.rawValue)'"
    let location = nodes.location(node)
    if node.scalar != nil {
      guard let selector = selector(node, json: json) else { return nil }
      return FieldSpec(
        name: name, selector: selector, value: nil, filters: [], optional: false,
        location: location)
    }
    guard let keys = nodes.mapping(node, what, allowed: Self.fieldKeys) else { return nil }
    if (keys["path"] == nil) == (keys["value"] == nil) {
      nodes.error("\(what) needs 'path' or 'value' (one of them)", node)
      return nil
    }
    let lookup = fieldLookup(keys, what)
    if lookup != nil, keys["path"] == nil {
      nodes.error("\(what) looks up a value: it needs 'path' (a JSONPath in the entry)", node)
    }
    let selector = keys["path"].flatMap { self.selector($0, json: json || lookup != nil) }
    if keys["path"] != nil, selector == nil { return nil }
    return FieldSpec(
      name: name, selector: selector, value: nodes.text(keys["value"], "'value'"),
      filters: nodes.list(keys["filters"]).compactMap(filter),
      optional: nodes.bool(keys["optional"], "'optional'") ?? false, location: location,
      lookup: lookup)
  }
}
