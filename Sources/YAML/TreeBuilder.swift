internal import CLibYAML

/// Turns libyaml events into a ``Node`` tree, enforcing the depth limit, the alias budget,
/// unique keys and `<<` merge keys.
struct TreeBuilder {
  /// A mapping or sequence being read. A mapping's pairs are made as its values arrive (not
  /// from a list of children at its end), so that each node is copied once.
  private struct Frame {
    var isMapping: Bool
    var start: Mark
    var tag: String?
    var anchor: String?
    /// A sequence's items.
    var items: [Node] = []
    /// A mapping's pairs in file order, duplicates included (taken out when it closes).
    var pairs: [Pair] = []
    /// A mapping's key waiting for its value.
    var pendingKey: Node?
    /// A mapping's `<<` values, each with the number of pairs written before it.
    var merges: [(index: Int, value: Node)] = []
    var weight = 1

    mutating func append(_ node: consuming Node) {
      guard isMapping else {
        items.append(node)
        return
      }
      guard let key = pendingKey.take() else {
        pendingKey = node
        return
      }
      if let scalar = key.scalar, scalar.style == .plain, scalar.value == "<<", key.tag == nil {
        merges.append((pairs.count, node))
      } else {
        pairs.append(Pair(key: key, value: node))
      }
    }
  }

  private let limits: YAMLLimits
  private var stack: [Frame] = []
  private var anchors: [String: (node: Node, weight: Int)] = [:]
  private var expandedNodes = 0
  private var documents = 0
  private(set) var root: Node?
  private(set) var problems: [YAMLProblem] = []
  private(set) var isFinished = false

  init(limits: YAMLLimits) {
    self.limits = limits
  }

  mutating func fail(_ problem: YAMLProblem) {
    problems.append(problem)
    isFinished = true
    root = nil
  }

  mutating func consume(_ event: yaml_event_t) {
    let start = Mark(event.start_mark)
    let end = Mark(event.end_mark)
    switch event.type {
    case YAML_DOCUMENT_START_EVENT:
      documents += 1
      if documents > 1 {
        fail(
          YAMLProblem(
            .documentCount, "a config file holds one YAML document; a second one starts here",
            at: start))
      }
    case YAML_MAPPING_START_EVENT:
      let data = event.data.mapping_start
      open(isMapping: true, at: start, tag: Self.text(data.tag), anchor: Self.text(data.anchor))
    case YAML_SEQUENCE_START_EVENT:
      let data = event.data.sequence_start
      open(isMapping: false, at: start, tag: Self.text(data.tag), anchor: Self.text(data.anchor))
    case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
      close(at: end)
    case YAML_SCALAR_EVENT:
      scalar(event, start: start, end: end)
    case YAML_ALIAS_EVENT:
      alias(Self.text(event.data.alias.anchor) ?? "", at: start, end: end)
    default:
      break
    }
  }

  // MARK: - Events

  private mutating func open(isMapping: Bool, at start: Mark, tag: String?, anchor: String?) {
    guard stack.count < limits.maxDepth else {
      fail(
        YAMLProblem(
          .depth, "nesting deeper than \(limits.maxDepth) levels is not accepted", at: start))
      return
    }
    expandedNodes += 1
    stack.append(Frame(isMapping: isMapping, start: start, tag: tag, anchor: anchor))
  }

  private mutating func close(at end: Mark) {
    guard let frame = stack.popLast() else { return }
    let content: Node.Content =
      frame.isMapping ? .mapping(pairs(of: frame)) : .sequence(frame.items)
    let node = Node(content, start: frame.start, end: end, tag: frame.tag)
    add(node, weight: frame.weight, anchor: frame.anchor)
  }

  private mutating func scalar(_ event: yaml_event_t, start: Mark, end: Mark) {
    let data = event.data.scalar
    let value =
      data.value.map {
        String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
      } ?? ""
    let node = Node(
      .scalar(Scalar(value, style: Self.style(data.style))), start: start, end: end,
      tag: Self.text(data.tag))
    expandedNodes += 1
    add(node, weight: 1, anchor: Self.text(data.anchor))
  }

  private mutating func alias(_ name: String, at start: Mark, end: Mark) {
    guard let target = anchors[name] else {
      problems.append(
        YAMLProblem(
          .undefinedAlias, "alias '*\(name)' refers to no anchor '&\(name)' defined before it",
          at: start))
      add(Node(.scalar(Scalar("", style: .plain)), start: start, end: end), weight: 1, anchor: nil)
      return
    }
    expandedNodes += target.weight
    guard expandedNodes <= limits.maxExpandedNodes else {
      fail(
        YAMLProblem(
          .aliasBudget,
          "aliases expand to more than \(limits.maxExpandedNodes) nodes; "
            + "this looks like an alias bomb ('*\(name)' crossed the limit)",
          at: start))
      return
    }
    var node = target.node
    node.isAlias = true
    add(node, weight: target.weight, anchor: nil)
  }

  private mutating func add(_ node: consuming Node, weight: Int, anchor: String?) {
    guard !isFinished else { return }
    if let anchor { anchors[anchor] = (node, weight) }
    if stack.isEmpty {
      root = node
    } else {
      stack[stack.count - 1].append(node)
      stack[stack.count - 1].weight += weight
    }
  }

  // MARK: - Mappings: unique keys and `<<` merges

  /// A closed mapping's pairs: a key written twice is reported and its later pair dropped, and
  /// `<<` merges are applied.
  private mutating func pairs(of frame: Frame) -> [Pair] {
    let duplicates = duplicateIndices(frame.pairs)
    guard !duplicates.isEmpty || !frame.merges.isEmpty else { return frame.pairs }
    var explicit: [Pair] = []
    var merges: [(index: Int, value: Node)] = []
    var nextMerge = 0
    for (index, pair) in frame.pairs.enumerated() {
      while nextMerge < frame.merges.count, frame.merges[nextMerge].index == index {
        merges.append((explicit.count, frame.merges[nextMerge].value))
        nextMerge += 1
      }
      if !duplicates.contains(index) { explicit.append(pair) }
    }
    for merge in frame.merges[nextMerge...] { merges.append((explicit.count, merge.value)) }
    guard !merges.isEmpty else { return explicit }
    let keys = Set(explicit.compactMap { $0.key.scalar?.value })
    return merged(explicit, merges: merges, explicitKeys: keys)
  }

  /// The indices of pairs whose key an earlier pair has, each reported with the first one's
  /// place. Most mappings are a handful of keys: compared in turn rather than hashed.
  private mutating func duplicateIndices(_ pairs: [Pair]) -> Set<Int> {
    var duplicates = Set<Int>()
    var firstSeen: [String: Mark] = [:]
    let hashed = pairs.count > 16
    for (index, pair) in pairs.enumerated() {
      guard let name = pair.key.scalar?.value else { continue }
      let first: Mark?
      if hashed {
        first = firstSeen[name]
        if first == nil { firstSeen[name] = pair.key.start }
      } else {
        first = pairs[..<index].first { $0.key.scalar?.value == name }?.key.start
      }
      guard let first else { continue }
      duplicates.insert(index)
      problems.append(
        YAMLProblem(
          .duplicateKey, "duplicate key '\(name)'", at: pair.key.start,
          notes: [YAMLNote("'\(name)' is first defined here", at: first)]))
    }
    return duplicates
  }

  /// Inserts merged pairs where their `<<` stood; explicit keys win, then earlier merges.
  private mutating func merged(
    _ explicit: [Pair], merges: [(index: Int, value: Node)], explicitKeys: Set<String>
  ) -> [Pair] {
    var taken = explicitKeys
    var result: [Pair] = []
    var position = 0
    for merge in merges {
      result.append(contentsOf: explicit[position..<merge.index])
      position = merge.index
      let sources = merge.value.sequence ?? [merge.value]
      for source in sources {
        guard let pairs = source.mapping else {
          problems.append(
            YAMLProblem(
              .syntax, "'<<' merges mappings only, but found \(source.kindDescription)",
              at: source.start))
          continue
        }
        for pair in pairs {
          guard let name = pair.key.scalar?.value, !taken.contains(name) else { continue }
          taken.insert(name)
          result.append(pair)
        }
      }
    }
    result.append(contentsOf: explicit[position...])
    return result
  }

  // MARK: - libyaml values

  private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
  }

  private static func style(_ style: yaml_scalar_style_t) -> Scalar.Style {
    switch style {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
    case YAML_LITERAL_SCALAR_STYLE: .literal
    case YAML_FOLDED_SCALAR_STYLE: .folded
    default: .plain
    }
  }
}
