/// "Did you mean" by edit distance, as compilers and argument parsers do it.
public enum Suggestions {
  /// The candidates closest to `word` (case-insensitive), best first; empty when none is close.
  public static func closest(to word: String, in candidates: some Sequence<String>, limit: Int = 1)
    -> [String]
  {
    let lowered = word.lowercased()
    let threshold = max(2, lowered.count / 3)
    let scored = candidates.compactMap { candidate -> (String, Int)? in
      let other = candidate.lowercased()
      // A word cut short ('substr' for 'substring') is as good as one typo.
      if lowered.count >= 3, other.hasPrefix(lowered), other != lowered { return (candidate, 1) }
      let distance = editDistance(lowered, other)
      return distance <= threshold ? (candidate, distance) : nil
    }
    return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
  }

  /// "; did you mean 'x'?" or "" when nothing is close.
  public static func hint(for word: String, in candidates: some Sequence<String>) -> String {
    closest(to: word, in: candidates).first.map { "; did you mean '\($0)'?" } ?? ""
  }

  /// Levenshtein distance with adjacent transpositions counted as one edit.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
