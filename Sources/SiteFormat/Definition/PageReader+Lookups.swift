internal import ClarissaCore
internal import Foundation

/// A lookup table of one answer: each entry by its key's text, with the document it is in.
struct LookupTable {
  var entries: [String: (entry: Any, root: Any)] = [:]
}

extension PageReader {
  /// The tables of `lookups:`, each read once per answer. A key found twice keeps its first
  /// entry, with a note naming the table.
  func lookupTables(_ answer: Answer, notes: inout [String]) throws(SiteError) -> [String:
    LookupTable]
  {
    var tables: [String: LookupTable] = [:]
    for spec in self.spec.lookups {
      var table = LookupTable()
      var repeated = 0
      let documents: [Item]
      if let jsonIn = spec.jsonIn, let page = answer.page {
        documents = try jsonDocuments(jsonIn, in: page)
      } else {
        documents = answer.documents
      }
      for case .json(let document, _) in documents {
        guard case .json(let entries) = spec.entries.compiled,
          case .json(let keyPath) = spec.key.compiled
        else { continue }
        for entry in entries.select(document) {
          guard let key = keyPath.select(document, current: entry).first.flatMap(Self.jsonValue)
          else { continue }
          if table.entries[key.text] == nil {
            table.entries[key.text] = (entry, document)
          } else {
            repeated += 1
          }
        }
      }
      if repeated > 0 {
        notes.append(
          "lookup '\(spec.name)' (\(spec.location)) has \(repeated) entries whose key another "
            + "entry has: the first is used")
      }
      tables[spec.name] = table
    }
    return tables
  }

  /// A note when `items` takes the members of an object (`$[*]` on a document that is one
  /// object): each member becomes an "item", which is rarely what was meant.
  func membersNote(_ items: Selector, _ roots: [Item]) -> [String] {
    guard case .json(let path) = items.compiled, let last = path.query.segments.last,
      !last.descendant,
      last.selectors.contains(where: { if case .wildcard = $0 { true } else { false } })
    else { return [] }
    let parents = JSONQuery(
      relative: path.query.relative, segments: Array(path.query.segments.dropLast()))
    let objects = roots.contains { root in
      guard case .json(let document, _) = root else { return false }
      return parents.select(root: document, current: document).contains { $0 is [String: Any] }
    }
    guard objects else { return [] }
    return [
      "'items' (\(items.text), \(items.location)) takes the members of an object, one item "
        + "per member: write a path to an array, or '$' for one item per document"
    ]
  }
}
