/// A word-level diff of two texts (issue 28: a listing's title or description changed): the
/// longest common subsequence of their words, after the words the two share at the start and
/// the end are set aside. Bounded: when what is left between those exceeds ``maxMiddle`` words
/// on either side, it is told as one removal and one addition instead of compared word by word,
/// so a hostile 100 KB description costs a linear scan, never a quadratic table (at most
/// ``maxMiddle``² cells, a million, 2 MB). In ClarissaCore: messages, `show` and the page all
/// render it.
public enum WordDiff {
  /// One run of words: in both texts, only in the old one, or only in the new one.
  public enum Part: Sendable, Equatable {
    /// Words in both texts.
    case same(String)
    /// Words only in the old text.
    case removed(String)
    /// Words only in the new text.
    case added(String)
  }

  /// The most words compared one by one on either side, once the shared start and end are set
  /// aside.
  public static let maxMiddle = 1000

  /// The parts that turn `old` into `new`, words joined by one space; adjacent parts of one
  /// kind are merged, a removal comes before the addition that replaces it.
  public static func diff(_ old: String, _ new: String) -> [Part] {
    let before = words(old)
    let after = words(new)
    var start = 0
    while start < before.count, start < after.count, before[start] == after[start] { start += 1 }
    var end = 0
    while end < before.count - start, end < after.count - start,
      before[before.count - 1 - end] == after[after.count - 1 - end]
    {
      end += 1
    }
    let oldMiddle = Array(before[start..<(before.count - end)])
    let newMiddle = Array(after[start..<(after.count - end)])
    var steps: [Step] = []
    steps += before[..<start].map { .same(String($0)) }
    if oldMiddle.count > maxMiddle || newMiddle.count > maxMiddle {
      steps += oldMiddle.map { .removed(String($0)) } + newMiddle.map { .added(String($0)) }
    } else {
      steps += common(oldMiddle, newMiddle)
    }
    steps += before[(before.count - end)...].map { .same(String($0)) }
    return merged(steps)
  }

  /// Whether the two texts have the same words (white space aside).
  public static func sameWords(_ old: String, _ new: String) -> Bool {
    words(old) == words(new)
  }

  /// For plain channels: `a b [-c-]{+d+} e`, with runs of unchanged words longer than
  /// twice `context` cut to `context` words each side of a change (`…` where cut).
  public static func plain(_ parts: [Part], context: Int = 6) -> String {
    var output: [String] = []
    for (index, part) in parts.enumerated() {
      switch part {
      case .removed(let text): output.append("[-\(text)-]")
      case .added(let text): output.append("{+\(text)+}")
      case .same(let text):
        output.append(
          trimmed(text, context: context, first: index == 0, last: index == parts.count - 1))
      }
    }
    return output.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// An unchanged run as shown between changes: whole when short, else its ends.
  static func trimmed(_ text: String, context: Int, first: Bool, last: Bool) -> String {
    let all = words(text)
    let keepStart = first ? 0 : context
    let keepEnd = last ? 0 : context
    guard all.count > keepStart + keepEnd, all.count > context else { return text }
    let head = all.prefix(keepStart).joined(separator: " ")
    let tail = all.suffix(keepEnd).joined(separator: " ")
    return [head, "…", tail].filter { !$0.isEmpty }.joined(separator: " ")
  }

  private enum Step {
    case same(String)
    case removed(String)
    case added(String)
  }

  /// The words of a text, split at white space.
  static func words(_ text: String) -> [Substring] {
    text.split(whereSeparator: { $0.isWhitespace })
  }

  /// The longest common subsequence of two word lists as steps (removals before additions).
  private static func common(_ old: [Substring], _ new: [Substring]) -> [Step] {
    let columns = new.count + 1
    // lengths[i * columns + j]: the LCS of old[i...] and new[j...]; both at most maxMiddle.
    var lengths = [UInt16](repeating: 0, count: (old.count + 1) * columns)
    for row in stride(from: old.count - 1, through: 0, by: -1) {
      for column in stride(from: new.count - 1, through: 0, by: -1) {
        lengths[row * columns + column] =
          old[row] == new[column]
          ? lengths[(row + 1) * columns + column + 1] + 1
          : max(lengths[(row + 1) * columns + column], lengths[row * columns + column + 1])
      }
    }
    var steps: [Step] = []
    var (row, column) = (0, 0)
    while row < old.count || column < new.count {
      if row < old.count, column < new.count, old[row] == new[column] {
        steps.append(.same(String(old[row])))
        row += 1
        column += 1
      } else if column == new.count
        || (row < old.count
          && lengths[(row + 1) * columns + column] >= lengths[row * columns + column + 1])
      {
        steps.append(.removed(String(old[row])))
        row += 1
      } else {
        steps.append(.added(String(new[column])))
        column += 1
      }
    }
    return steps
  }

  /// Steps merged into parts: one part per run of a kind, a removal before its addition.
  private static func merged(_ steps: [Step]) -> [Part] {
    var parts: [Part] = []
    var removed: [String] = []
    var added: [String] = []
    var same: [String] = []
    func flushChange() {
      if !removed.isEmpty { parts.append(.removed(removed.joined(separator: " "))) }
      if !added.isEmpty { parts.append(.added(added.joined(separator: " "))) }
      removed = []
      added = []
    }
    func flushSame() {
      if !same.isEmpty { parts.append(.same(same.joined(separator: " "))) }
      same = []
    }
    for step in steps {
      switch step {
      case .same(let word):
        flushChange()
        same.append(word)
      case .removed(let word):
        flushSame()
        removed.append(word)
      case .added(let word):
        flushSame()
        added.append(word)
      }
    }
    flushChange()
    flushSame()
    return parts
  }
}
