internal import YAML

/// A YAML mapping read as a table of string keys, keeping every key's node for messages. It
/// holds the mapping's own pairs (no copy of its nodes) beside their keys as text, which lookups
/// compare: a 1,000-search config makes some 10,000 tables and looks keys up 100,000 times.
struct Table {
  /// One entry: the key as text, its node, and the value node.
  struct Entry {
    let pair: Pair
    let key: String
    var keyNode: Node { pair.key }
    var value: Node { pair.value }
  }

  /// The entries in file order, made as they are read.
  struct Entries: RandomAccessCollection {
    fileprivate let pairs: [Pair]
    fileprivate let keys: [String]
    var startIndex: Int { 0 }
    var endIndex: Int { keys.count }
    subscript(index: Int) -> Entry { Entry(pair: pairs[index], key: keys[index]) }
  }

  /// The mapping node itself.
  let node: Node
  private let pairs: [Pair]
  private let keys: [String]

  /// A table of `pairs` whose keys, as text, are `keys` (one each, in the same order).
  init(node: Node, pairs: [Pair], keys: [String]) {
    self.node = node
    self.pairs = pairs
    self.keys = keys
  }

  /// A table of some entries of another.
  init(node: Node, entries: some Sequence<Entry>) {
    self.node = node
    pairs = entries.map(\.pair)
    keys = entries.map(\.key)
  }

  /// The entries in file order.
  var entries: Entries { Entries(pairs: pairs, keys: keys) }

  /// The entry for `key`.
  func entry(_ key: String) -> Entry? {
    keys.firstIndex(of: key).map { Entry(pair: pairs[$0], key: key) }
  }

  /// The value node for `key`.
  subscript(key: String) -> Node? {
    keys.firstIndex(of: key).map { pairs[$0].value }
  }

  /// The key node for `key`, for pointing at the key rather than its value.
  func keyNode(_ key: String) -> Node? {
    keys.firstIndex(of: key).map { pairs[$0].key }
  }
}
