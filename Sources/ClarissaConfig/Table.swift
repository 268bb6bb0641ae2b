import YAML

/// A YAML mapping read as a table of string keys, keeping every key's node for messages.
struct Table {
  /// One entry: the key as text, its node, and the value node.
  struct Entry {
    var key: String
    var keyNode: Node
    var value: Node
  }

  /// The mapping node itself.
  let node: Node
  /// The entries in file order.
  let entries: [Entry]

  init(node: Node, entries: [Entry]) {
    self.node = node
    self.entries = entries
  }

  /// The entry for `key`.
  func entry(_ key: String) -> Entry? {
    entries.first { $0.key == key }
  }

  /// The value node for `key`.
  subscript(key: String) -> Node? {
    entries.first { $0.key == key }?.value
  }

  /// The key node for `key`, for pointing at the key rather than its value.
  func keyNode(_ key: String) -> Node? {
    entries.first { $0.key == key }?.keyNode
  }
}
