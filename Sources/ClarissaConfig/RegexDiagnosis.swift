/// Says what is wrong with a pattern that NSRegularExpression refused. On Linux its error only
/// says "The value is invalid", so the common mistakes are found here, with their offset.
enum RegexDiagnosis {
  /// A reason and the 0-based offset (in characters) of the culprit within the pattern.
  static func explain(_ pattern: String) -> (reason: String, offset: Int?) {
    let chars = Array(pattern)
    var groups: [Int] = []
    var index = 0
    var previousCanRepeat = false
    while index < chars.count {
      let c = chars[index]
      switch c {
      case "\\":
        guard index + 1 < chars.count else { return ("the pattern ends with a lone '\\'", index) }
        index += 2
        previousCanRepeat = true
        continue
      case "[":
        guard let end = classEnd(chars, from: index) else {
          return ("'[' at offset \(index) has no closing ']'", index)
        }
        if let problem = rangeProblem(chars, from: index + 1, to: end) { return problem }
        index = end + 1
        previousCanRepeat = true
        continue
      case "(":
        groups.append(index)
        previousCanRepeat = false
        if index + 1 < chars.count, chars[index + 1] == "?" {
          index += 2
          continue
        }
      case ")":
        guard groups.popLast() != nil else {
          return ("')' at offset \(index) closes no group", index)
        }
        previousCanRepeat = true
      case "*", "+", "?":
        guard
          previousCanRepeat
            || (c == "?" || c == "+") && index > 0 && "*+?}".contains(chars[index - 1])
        else {
          return ("'\(c)' at offset \(index) has nothing to repeat", index)
        }
        previousCanRepeat = false
      case "{":
        if let problem = quantifierProblem(chars, at: index, canRepeat: previousCanRepeat) {
          return problem
        }
        previousCanRepeat = false
        index = (chars[index...].firstIndex(of: "}") ?? index) + 1
        continue
      case "|":
        previousCanRepeat = false
      default:
        previousCanRepeat = true
      }
      index += 1
    }
    if let open = groups.last { return ("'(' at offset \(open) has no closing ')'", open) }
    return ("the pattern is not valid ICU regular-expression syntax", nil)
  }

  /// Where the class opened at `start` closes, nested classes counted; nil when it never does.
  /// One pass with a depth: the recursive version took 2^n steps on n unclosed `[` (a config
  /// the fuzzer wrote held 80 of them, and `validate` never ended).
  private static func classEnd(_ chars: [Character], from start: Int) -> Int? {
    var depth = 0
    var index = start
    while index < chars.count {
      switch chars[index] {
      case "\\":
        index += 2
        continue
      case "[":
        depth += 1
        index += 1
        // A class's first `]` (after an optional `^`) is a member, not its end.
        if index < chars.count, chars[index] == "^" { index += 1 }
        if index < chars.count, chars[index] == "]" { index += 1 }
        continue
      case "]":
        depth -= 1
        if depth == 0 { return index }
      default: break
      }
      index += 1
    }
    return nil
  }

  private static func rangeProblem(_ chars: [Character], from: Int, to: Int) -> (String, Int?)? {
    var index = from
    while index + 2 < to {
      if chars[index] != "\\", chars[index + 1] == "-", chars[index + 2] != "\\",
        chars[index + 2] != "]", chars[index] > chars[index + 2]
      {
        return (
          "range '\(chars[index])-\(chars[index + 2])' at offset \(index) is out of order", index
        )
      }
      index += 1
    }
    return nil
  }

  private static func quantifierProblem(
    _ chars: [Character], at index: Int, canRepeat: Bool
  ) -> (String, Int?)? {
    guard let close = chars[index...].firstIndex(of: "}") else { return nil }
    let body = String(chars[(index + 1)..<close])
    let bounds = body.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
    guard !bounds.isEmpty, bounds.count <= 2, let low = bounds[0] else { return nil }
    if !canRepeat { return ("'{\(body)}' at offset \(index) has nothing to repeat", index) }
    if bounds.count == 2, let high = bounds[1], high < low {
      return ("'{\(body)}' at offset \(index) has its bounds out of order", index)
    }
    return nil
  }
}
