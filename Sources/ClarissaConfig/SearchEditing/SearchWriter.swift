internal import YAML

/// Writes one ``SearchChange`` into the text of searches.yaml without re-emitting the file:
/// libyaml's positions (``Node/start``, ``Node/end``) say which lines hold the search and each
/// of its keys, and only those are rewritten. Every line outside the edited search stays byte
/// for byte as it was; inside it, the lines of keys the change does not touch (their comments
/// included) are kept, a changed key's lines are replaced by its new value at the search's
/// indentation, a removed key's lines go with the comment lines directly above it at its own
/// indentation, and a new key goes at the search's end. A search written in flow style
/// (`- {name: a, query: b}`, or a `searches: [...]` list) is rewritten as a whole flow node,
/// the values the change does not touch copied from the text as they were.
package enum SearchWriter {
  /// The text with `change` made.
  package static func apply(_ change: SearchChange, to text: String) throws(SearchEditProblem)
    -> String
  {
    var layout = try SearchLayout(text)
    switch change {
    case .add(let pairs):
      guard let name = pairs.first(where: { $0.key == "name" }) else {
        throw SearchEditProblem("a new search needs a name")
      }
      if case .text(let value) = name.value, layout.index(of: value) != nil {
        throw SearchEditProblem("a search named '\(value)' is already in the file")
      }
      try layout.add(pairs)
    case .edit(let name, let set, let remove):
      guard let index = layout.index(of: name) else {
        throw SearchEditProblem("no search named '\(name)' in the file")
      }
      if remove.contains("name") { throw SearchEditProblem("a search cannot lose its name") }
      if case .text(let newName)? = set.first(where: { $0.key == "name" })?.value, newName != name,
        layout.index(of: newName) != nil
      {
        throw SearchEditProblem("a search named '\(newName)' is already in the file")
      }
      try layout.edit(index, set: set, remove: remove)
    case .delete(let name):
      guard let index = layout.index(of: name) else {
        throw SearchEditProblem("no search named '\(name)' in the file")
      }
      try layout.delete(index)
    }
    return layout.source.text
  }
}

/// searches.yaml's text and where its searches are in it.
struct SearchLayout {
  var source: SourceLines
  /// The `searches:` key and its value (nil when the file has none).
  let searchesKey: Node?
  let searches: Node?
  /// The line of the top-level key after `searches:` (nil when it is the last).
  let nextTopLine: Int?

  init(_ text: String) throws(SearchEditProblem) {
    source = SourceLines(text)
    let document = YAMLReader.read(text)
    guard let root = document.root, let pairs = root.mapping else {
      let why = document.problems.first.map { "\($0.mark): \($0.message)" } ?? "no settings"
      throw SearchEditProblem("the file cannot be read as YAML (\(why)); fix it by hand first")
    }
    let index = pairs.firstIndex { $0.key.scalar?.value == "searches" }
    searchesKey = index.map { pairs[$0].key }
    searches = index.map { pairs[$0].value }
    nextTopLine = index.flatMap { at in
      pairs.filter { $0.key.start > pairs[at].key.start }.map(\.key.start.line).min()
    }
    if let searches, !searches.isNull, searches.sequence == nil {
      throw SearchEditProblem("'searches' is not a list; fix it by hand first")
    }
  }

  var items: [Node] { searches?.sequence ?? [] }

  /// The place of the search named `name` in the list.
  func index(of name: String) -> Int? {
    items.firstIndex { item in
      item.mapping?.contains { $0.key.scalar?.value == "name" && $0.value.scalar?.value == name }
        ?? false
    }
  }

  /// Whether `node` is written in flow style (`{...}` or `[...]`).
  func isFlow(_ node: Node) -> Bool {
    let first = source.suffix(node.start.line, from: node.start.column).first
    return first == "{" || first == "["
  }

  // MARK: - Block items

  /// The last line of item `index`'s content: before the next item (or the next top-level
  /// key), without the blank and comment lines at its end.
  func lastLine(ofItem index: Int) -> Int {
    let items = self.items
    var last: Int
    if index + 1 < items.count {
      last = dashLine(of: items[index + 1]) - 1
    } else {
      last = (nextTopLine ?? source.count + 1) - 1
    }
    last = min(last, source.count)
    while last > items[index].start.line, source.isBlankOrComment(last) { last -= 1 }
    return last
  }

  /// The line holding the `-` of a block item (the item's own first line, or a line above it
  /// when the item starts under its dash, as after `- &anchor`).
  func dashLine(of item: Node) -> Int {
    if source.prefix(item.start.line, before: item.start.column).contains("-") {
      return item.start.line
    }
    var line = item.start.line - 1
    while line >= 1, source.isBlankOrComment(line) { line -= 1 }
    let above = source.line(line).drop { $0 == " " }
    return line >= 1 && above.hasPrefix("-") ? line : item.start.line
  }

  /// The item's own pairs (not those a `<<` merged in from elsewhere), in file order.
  func ownPairs(of item: Node, lastLine: Int) -> [Pair] {
    (item.mapping ?? []).filter {
      $0.key.start >= item.start && $0.key.start.line <= lastLine
    }.sorted { $0.key.start < $1.key.start }
  }

  /// The lines a pair takes: its key's line, its value's lines, up to (not including) the next
  /// pair's key, without blank and comment lines at the end (those above the next key are
  /// that key's).
  func extent(of pair: Pair, next: Int, itemLast: Int, isBlockList: Bool) -> ClosedRange<Int> {
    let start = pair.key.start.line
    let keyColumn = pair.key.start.column
    var last = start
    var line = start + 1
    let bound = min(next - 1, itemLast)
    while line <= bound {
      if !source.isBlankOrComment(line) {
        let column = source.contentColumn(line)
        let dash = source.suffix(line, from: column).hasPrefix("-")
        guard column > keyColumn || (column == keyColumn && dash && isBlockList) else { break }
        last = line
      }
      line += 1
    }
    if let scalar = pair.value.scalar, !pair.value.isAlias,
      scalar.style != .plain
        || pair.value.end.line > start
    {
      let end = pair.value.end.column == 1 ? pair.value.end.line - 1 : pair.value.end.line
      last = max(last, min(end, bound))
    }
    return start...last
  }
}
