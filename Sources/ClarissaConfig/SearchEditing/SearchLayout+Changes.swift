internal import YAML

/// The three changes, made on the lines (block style) or the characters (flow style) of the
/// search they touch.
extension SearchLayout {
  /// Rewrites search `index`: `set`'s keys given their values, `remove`'s keys taken out.
  mutating func edit(_ index: Int, set: [EditPair], remove: [String]) throws(SearchEditProblem) {
    let item = items[index]
    let merged = mergedKeys(of: item)
    if let key = remove.first(where: { merged.contains($0) }) {
      throw SearchEditProblem(
        "'\(key)' comes to this search through a '<<' merge; change it where its anchor is")
    }
    if isFlow(item) || searches.map(isFlow) == true {
      try editFlow(item, set: set, remove: remove, merged: merged)
    } else {
      try editBlock(index, set: set, remove: remove)
    }
  }

  /// The keys a `<<` merged into the search from elsewhere in the file.
  private func mergedKeys(of item: Node) -> Set<String> {
    let end = item.end
    return Set(
      (item.mapping ?? []).filter { $0.key.start < item.start || $0.key.start >= end }
        .compactMap { $0.key.scalar?.value })
  }

  private mutating func editBlock(_ index: Int, set: [EditPair], remove: [String])
    throws(SearchEditProblem)
  {
    let item = items[index]
    let itemLast = lastLine(ofItem: index)
    let pairs = ownPairs(of: item, lastLine: itemLast)
    guard let column = pairs.first?.key.start.column else {
      throw SearchEditProblem("the search holds no keys of its own to edit")
    }
    let values = Dictionary(set.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    let own = Set(pairs.compactMap { $0.key.scalar?.value })
    let added = set.filter { !own.contains($0.key) }
    let indent = column - 1
    var out: [String] = []
    var line = item.start.line
    var droppedDash: (prefix: String, at: Int)?
    for (position, pair) in pairs.enumerated() {
      let next = position + 1 < pairs.count ? pairs[position + 1].key.start.line : itemLast + 1
      let isBlockList = pair.value.sequence != nil && !isFlow(pair.value)
      let range = extent(of: pair, next: next, itemLast: itemLast, isBlockList: isBlockList)
      var gap = Array(source.lines[(line - 1)..<(range.lowerBound - 1)])
      let key = pair.key.scalar?.value ?? ""
      let prefix = source.prefix(range.lowerBound, before: pair.key.start.column)
      if remove.contains(key) {
        while let last = gap.last, Self.isComment(last, atColumn: column) { gap.removeLast() }
        out += gap
        if prefix.contains("-") { droppedDash = (prefix, out.count) }
      } else if let value = values[key] {
        let lines = YAMLRendering.pairLines(key, value, indent: indent)
        out += gap + [prefix + lines[0]] + lines.dropFirst()
      } else {
        out += gap + source.lines[(range.lowerBound - 1)..<range.upperBound]
      }
      line = range.upperBound + 1
      if position == pairs.count - 1 {
        let pad = String(repeating: " ", count: indent)
        for pair in added {
          let lines = YAMLRendering.pairLines(pair.key, pair.value, indent: indent)
          out += [pad + lines[0]] + lines.dropFirst()
        }
      }
    }
    if line <= itemLast { out += source.lines[(line - 1)..<itemLast] }
    if let dropped = droppedDash {
      // The search's first key went with its `- `: the next key's line takes it.
      guard
        let first = out.indices.first(where: {
          $0 >= dropped.at && !Self.isBlankOrComment(out[$0])
        })
      else { throw SearchEditProblem("the search would hold no keys") }
      let rest = String.UnicodeScalarView(out[first].unicodeScalars.dropFirst(indent))
      out[first] = dropped.prefix + String(rest)
    }
    source.replace(item.start.line, itemLast, with: out)
  }

  private mutating func editFlow(
    _ item: Node, set: [EditPair], remove: [String], merged: Set<String>
  ) throws(SearchEditProblem) {
    guard merged.isEmpty else {
      throw SearchEditProblem("a search in flow style with a '<<' merge is edited by hand")
    }
    let values = Dictionary(set.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    var parts: [String] = []
    var own = Set<String>()
    for pair in item.mapping ?? [] {
      let key = pair.key.scalar?.value ?? ""
      own.insert(key)
      if remove.contains(key) { continue }
      if let value = values[key] {
        parts.append(YAMLRendering.key(key, flow: true) + ": " + Self.flow(value))
      } else {
        guard !pair.value.isAlias, !pair.key.isAlias else {
          throw SearchEditProblem("a search in flow style holding an alias is edited by hand")
        }
        parts.append(text(of: pair.key) + ": " + text(of: pair.value))
      }
    }
    for pair in set where !own.contains(pair.key) {
      parts.append(YAMLRendering.key(pair.key, flow: true) + ": " + Self.flow(pair.value))
    }
    source.replace(
      from: (item.start.line, item.start.column), to: (item.end.line, item.end.column),
      with: "{" + parts.joined(separator: ", ") + "}")
  }

  /// A node's text as written.
  private func text(of node: Node) -> String {
    source.slice(from: (node.start.line, node.start.column), to: (node.end.line, node.end.column))
  }

  /// A value in flow style.
  static func flow(_ value: EditValue) -> String {
    switch value {
    case .text, .plain: YAMLRendering.scalar(value, flow: true)
    case .list(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
    case .map(let pairs):
      "{"
        + pairs.map { YAMLRendering.key($0.key, flow: true) + ": " + flow($0.value) }
        .joined(separator: ", ") + "}"
    }
  }

  // MARK: - Adding and deleting

  /// Appends a search with these keys to `searches:`.
  mutating func add(_ pairs: [EditPair]) throws(SearchEditProblem) {
    guard let searches, let searchesKey else {
      throw SearchEditProblem("the file has no 'searches:' list to add to")
    }
    let items = self.items
    if let last = items.last, isFlow(searches) {
      _ = last
      let close = (searches.end.line, searches.end.column - 1)
      source.replace(from: close, to: close, with: ", " + Self.flow(.map(pairs)))
      return
    }
    guard let last = items.last else {
      let column = searchesKey.start.column
      let keyLine = searchesKey.start.line
      let lastLine = searches.isNull ? keyLine : max(keyLine, searches.end.line)
      let head = source.prefix(keyLine, before: column) + "searches:"
      let dash = String(repeating: " ", count: column + 1) + "- "
      source.replace(keyLine, lastLine, with: [head] + itemLines(pairs, dash: dash))
      return
    }
    let dashColumn = source.contentColumn(dashLine(of: items[0]))
    let dash = String(repeating: " ", count: dashColumn - 1) + "- "
    let end = lastLine(ofItem: items.count - 1)
    let spaced = items.count > 1 && source.isBlank(dashLine(of: last) - 1)
    source.replace(end + 1, end, with: (spaced ? [""] : []) + itemLines(pairs, dash: dash))
  }

  /// A new block item's lines, its first key after `dash`.
  private func itemLines(_ pairs: [EditPair], dash: String) -> [String] {
    let indent = dash.unicodeScalars.count
    let pad = String(repeating: " ", count: indent)
    var out: [String] = []
    for (position, pair) in pairs.enumerated() {
      let lines = YAMLRendering.pairLines(pair.key, pair.value, indent: indent)
      out += [(position == 0 ? dash : pad) + lines[0]] + lines.dropFirst()
    }
    return out
  }

  /// Takes search `index` out, with the comment lines directly above its `- `.
  mutating func delete(_ index: Int) throws(SearchEditProblem) {
    let items = self.items
    let item = items[index]
    if let searches, isFlow(searches) {
      if index > 0 {
        let before = items[index - 1].end
        source.replace(
          from: (before.line, before.column), to: (item.end.line, item.end.column), with: "")
      } else if items.count > 1 {
        source.replace(
          from: (item.start.line, item.start.column),
          to: (items[1].start.line, items[1].start.column), with: "")
      } else {
        source.replace(
          from: (item.start.line, item.start.column), to: (item.end.line, item.end.column),
          with: "")
      }
      return
    }
    let dash = dashLine(of: item)
    let column = source.contentColumn(dash)
    var first = dash
    while first > 1, Self.isComment(source.line(first - 1), atColumn: column) { first -= 1 }
    var last = lastLine(ofItem: index)
    let keyLine = searchesKey?.start.line ?? 0
    if source.isBlank(last + 1), last + 1 <= source.count,
      first - 1 == keyLine || source.isBlank(first - 1)
    {
      last += 1
    }
    source.replace(first, last, with: [])
  }

  /// Whether `line` is a comment starting at `column`.
  static func isComment(_ line: String, atColumn column: Int) -> Bool {
    let spaces = line.unicodeScalars.prefix { $0 == " " }.count
    return spaces == column - 1 && line.unicodeScalars.dropFirst(spaces).first == "#"
  }

  static func isBlankOrComment(_ line: String) -> Bool {
    let content = line.drop { $0 == " " || $0 == "\r" }
    return content.isEmpty || content.first == "#"
  }
}
