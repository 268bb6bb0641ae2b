internal import ClarissaCore
internal import Foundation
internal import YAML

/// `lookups:` (tables of JSON entries by key) and the fields that read them (`lookup:`, `by:`).
extension DefinitionReader {
  package static let lookupKeys = ["json_in", "entries", "key"]

  /// Each table: `NAME: {json_in: XPath (HTML answers), entries: JSONPath, key: JSONPath}`.
  func lookups(_ node: Node?, html: Bool) -> [LookupSpec] {
    guard let node, let tables = nodes.mapping(node, "'lookups'", allowed: []) else { return [] }
    return tables.list.compactMap { entry in
      let what = "lookup '\(entry.key)'"
      guard let keys = nodes.mapping(entry.value, what, allowed: Self.lookupKeys) else {
        return nil
      }
      nodes.require(["entries", "key"], in: keys, what)
      let jsonIn = keys["json_in"].flatMap { selector($0, json: false) }
      if !html, let written = keys["json_in"] {
        nodes.error(
          "\(what): 'json_in' reads JSON inside an HTML page: it needs 'as: html'", written)
      }
      guard let entries = keys["entries"].flatMap({ selector($0, json: true) }),
        let key = keys["key"].flatMap({ selector($0, json: true) })
      else { return nil }
      return LookupSpec(
        name: entry.key, jsonIn: html ? jsonIn : nil, entries: entries, key: key,
        location: nodes.location(entry.keyNode))
    }
  }

  /// A field's `lookup: NAME` and `by: FIELD` (the field whose value is the key; `id` unsaid).
  func fieldLookup(_ keys: Entries, _ what: String) -> FieldLookup? {
    guard let table = keys["lookup"] else {
      if let by = keys["by"] { nodes.error("\(what): 'by' goes with 'lookup'", by) }
      return nil
    }
    guard let name = nodes.text(table, "'lookup'") else { return nil }
    let fields = FieldSpec.Name.allCases.filter { $0 != .facts }.map(\.rawValue)
    let by = keys["by"].map { nodes.word($0, "'by'", in: fields) } ?? FieldSpec.Name.id.rawValue
    guard let by, let field = FieldSpec.Name(rawValue: by) else { return nil }
    return FieldLookup(
      table: name, by: field, location: nodes.location(table),
      byLocation: keys["by"].map(nodes.location) ?? nodes.location(table))
  }

  /// Every `lookup:` names a table of this `read:`, and its `by:` a field read without one.
  func checkLookups(_ spec: ReadSpec) {
    let tables = spec.lookups.map(\.name)
    for field in spec.fields + spec.facts {
      guard let lookup = field.lookup else { continue }
      if !tables.contains(lookup.table) {
        nodes.error(
          "\(field.shownName) looks up '\(lookup.table)', which 'lookups' does not declare"
            + (tables.isEmpty
              ? " (it declares none)"
              : Suggestions.hint(for: lookup.table, in: tables)
                + " (tables: \(tables.joined(separator: ", ")))"),
          at: lookup.location)
      }
      if lookup.by == field.name && field.fact == nil
        || !spec.fields.contains(where: { $0.name == lookup.by && $0.lookup == nil })
      {
        nodes.error(
          "\(field.shownName) looks up by '\(lookup.by.rawValue)': 'fields' must read "
            + "'\(lookup.by.rawValue)' without a lookup (its value is the key)",
          at: lookup.byLocation)
      }
    }
    for table in spec.lookups
    where table.jsonIn == nil && spec.format == .html && spec.jsonIn == nil {
      nodes.error(
        "lookup '\(table.name)' is in an HTML page: it needs 'json_in' (the element whose text "
          + "is its JSON)", at: table.location)
    }
  }
}
