/// One node of a YAML document, with the place it starts at.
///
/// Scalars are not typed here: the field that reads a scalar decides whether `no` is a string or
/// a boolean, so `country: no` stays the string "no" where a string is expected.
public struct Node: Sendable {
  /// What a node holds.
  public enum Content: Sendable {
    case scalar(Scalar)
    case mapping([Pair])
    case sequence([Node])
  }

  /// The node's content.
  public var content: Content
  /// Where the node starts.
  public var start: Mark
  /// Where the node ends (just past its last character).
  public var end: Mark
  /// An explicit tag such as `tag:yaml.org,2002:str`, if the text gave one.
  public var tag: String?
  /// True when this node was reached through an alias (`*name`).
  public var isAlias: Bool

  /// Creates a node.
  public init(_ content: Content, start: Mark, end: Mark, tag: String? = nil, isAlias: Bool = false)
  {
    self.content = content
    self.start = start
    self.end = end
    self.tag = tag
    self.isAlias = isAlias
  }

  /// The scalar, when this node is one.
  public var scalar: Scalar? {
    if case .scalar(let s) = content { return s }
    return nil
  }

  /// The key/value pairs, when this node is a mapping.
  public var mapping: [Pair]? {
    if case .mapping(let pairs) = content { return pairs }
    return nil
  }

  /// The items, when this node is a sequence.
  public var sequence: [Node]? {
    if case .sequence(let items) = content { return items }
    return nil
  }

  /// True for an empty plain scalar, `~` or `null` (in YAML's spellings), untagged.
  public var isNull: Bool {
    guard let scalar, scalar.style == .plain, tag == nil else { return false }
    // Compared in turn, not hashed: every key of every mapping a reader looks at is asked.
    switch scalar.value {
    case "", "~", "null", "Null", "NULL": return true
    default: return false
    }
  }

  /// A short name for the kind of node, for messages: "a mapping", "a list", "a string".
  public var kindDescription: String {
    switch content {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar(let s):
      if isNull { return "nothing (null)" }
      return s.style == .plain ? "'\(s.value)'" : "a quoted string"
    }
  }
}

/// A key and its value in a mapping.
public struct Pair: Sendable {
  /// The key node (a scalar in every config clarissa reads).
  public var key: Node
  /// The value node.
  public var value: Node

  /// Creates a pair.
  public init(key: Node, value: Node) {
    self.key = key
    self.value = value
  }
}

/// A scalar's text and the style it was written in.
public struct Scalar: Sendable, Hashable {
  /// How the scalar was written.
  public enum Style: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded
  }

  /// The scalar's text after YAML's own unescaping and folding.
  public var value: String
  /// How it was written.
  public var style: Style

  /// Creates a scalar.
  public init(_ value: String, style: Style) {
    self.value = value
    self.style = style
  }
}
