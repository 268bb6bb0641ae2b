internal import YAML

/// One search as searches.yaml writes it: its name and its keys' values, read straight from the
/// YAML (not through the config reader), so that a form shows what the file says.
package struct SearchValues: Sendable, Equatable {
  /// The search's name.
  package var name: String
  /// Its keys in file order, those a `<<` merged in included, with their values.
  package var pairs: [EditPair]

  /// The value of `key`, if the search holds it.
  package func value(_ key: String) -> EditValue? {
    pairs.first { $0.key == key }?.value
  }

  /// Every search of `text`, in file order; nil when the text does not parse or `searches:`
  /// is not a list. `defaults:` is not applied: these are the search's own keys.
  package static func all(in text: String) -> [SearchValues]? {
    guard let layout = try? SearchLayout(text) else { return nil }
    return layout.items.compactMap { item in
      guard let pairs = item.mapping,
        let name = pairs.first(where: { $0.key.scalar?.value == "name" })?.value.scalar?.value
      else { return nil }
      return SearchValues(
        name: name,
        pairs: pairs.map { EditPair($0.key.scalar?.value ?? "", EditValue($0.value)) })
    }
  }
}

extension EditValue {
  /// A node's value: a plain scalar as ``plain`` (so `true` and `30m` are written back as they
  /// were), a quoted or block one as ``text``.
  init(_ node: Node) {
    switch node.content {
    case .scalar(let scalar):
      self = scalar.style == .plain && node.tag == nil ? .plain(scalar.value) : .text(scalar.value)
    case .sequence(let items):
      self = .list(items.map(EditValue.init))
    case .mapping(let pairs):
      self = .map(pairs.map { EditPair($0.key.scalar?.value ?? "", EditValue($0.value)) })
    }
  }

  /// Whether two values say the same, told apart only by what YAML reads (a scalar's text,
  /// not whether it was quoted).
  package func means(_ other: EditValue) -> Bool {
    switch (self, other) {
    case (.text(let a), .text(let b)), (.text(let a), .plain(let b)),
      (.plain(let a), .text(let b)), (.plain(let a), .plain(let b)):
      return a == b
    case (.list(let a), .list(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.means($1) }
    case (.map(let a), .map(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.means($1.value) }
    default:
      return false
    }
  }
}

extension SearchValues {
  /// The names a top-level mapping of `text` holds (`notify:`'s channels, `places:`), in file
  /// order; empty when it has none.
  package static func names(of section: String, in text: String) -> [String] {
    let root = YAMLReader.read(text).root?.mapping ?? []
    let value = root.first { $0.key.scalar?.value == section }?.value
    return (value?.mapping ?? []).compactMap { $0.key.scalar?.value }
  }

  /// The key of the search named `search` that line `line` of `text` belongs to (a problem's
  /// field, for the form); nil when the line is not in that search.
  package static func key(atLine line: Int, inSearch search: String, of text: String) -> String? {
    guard let layout = try? SearchLayout(text), let index = layout.index(of: search) else {
      return nil
    }
    let item = layout.items[index]
    let last = layout.lastLine(ofItem: index)
    guard line >= item.start.line, line <= last else { return nil }
    return layout.ownPairs(of: item, lastLine: last).last { $0.key.start.line <= line }?.key
      .scalar?.value
  }
}
