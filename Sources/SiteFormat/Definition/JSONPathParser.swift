internal import ClarissaCore
internal import Foundation

/// Reads RFC 9535 syntax into a ``JSONQuery``; every mistake names its offset and, where one
/// can be named, the fix.
package struct JSONPathParser {
  private let characters: [Character]
  private var index = 0
  package static let functions = ["length", "match", "search"]

  package init(_ text: String) { characters = Array(text) }

  package mutating func wholeQuery() throws(JSONPathError) -> JSONQuery {
    skipSpaces()
    let query = try self.query()
    skipSpaces()
    guard index == characters.count else {
      throw fail("unexpected '\(characters[index])'; a segment starts with '.', '..' or '['")
    }
    return query
  }

  private func fail(_ message: String, at offset: Int? = nil) -> JSONPathError {
    JSONPathError(message: message, offset: offset ?? index)
  }

  private var current: Character? { index < characters.count ? characters[index] : nil }

  private func peek(_ text: String) -> Bool {
    let wanted = Array(text)
    return index + wanted.count <= characters.count
      && Array(characters[index..<index + wanted.count]) == wanted
  }

  private mutating func skipSpaces() {
    while let character = current, character == " " || character == "\t" || character == "\n" {
      index += 1
    }
  }

  private mutating func expect(_ text: String, _ what: String) throws(JSONPathError) {
    guard peek(text) else { throw fail("expected '\(text)' \(what)") }
    index += text.count
  }

  // MARK: - Queries and segments

  private mutating func query() throws(JSONPathError) -> JSONQuery {
    guard let first = current, first == "$" || first == "@" else {
      throw fail("a path starts with '$' (the document) or '@' (the current item)")
    }
    index += 1
    var segments: [JSONSegment] = []
    while let character = current, character == "." || character == "[" {
      segments.append(try segment())
    }
    return JSONQuery(relative: first == "@", segments: segments)
  }

  private mutating func segment() throws(JSONPathError) -> JSONSegment {
    if peek("..") {
      index += 2
      if current == "[" { return JSONSegment(descendant: true, selectors: try bracketed()) }
      return JSONSegment(descendant: true, selectors: [try shorthand()])
    }
    if current == "." {
      index += 1
      return JSONSegment(descendant: false, selectors: [try shorthand()])
    }
    return JSONSegment(descendant: false, selectors: try bracketed())
  }

  /// `*` or a member name after `.` or `..`.
  private mutating func shorthand() throws(JSONPathError) -> JSONSelector {
    if current == "*" {
      index += 1
      return .wildcard
    }
    let start = index
    while let character = current,
      character.isLetter || character == "_" || (index > start && character.isNumber)
        || (!character.isASCII && !character.isWhitespace)
    {
      index += 1
    }
    guard index > start else {
      throw fail("expected a member name or '*' after '.' (a name with other characters: ['a-b'])")
    }
    return .name(String(characters[start..<index]))
  }

  private mutating func bracketed() throws(JSONPathError) -> [JSONSelector] {
    let open = index
    index += 1
    var selectors: [JSONSelector] = []
    while true {
      skipSpaces()
      selectors.append(try selector())
      skipSpaces()
      guard current == "," else { break }
      index += 1
    }
    guard current == "]" else {
      throw fail(
        current == nil ? "'[' at offset \(open) is never closed by ']'" : "expected ']' or ','")
    }
    index += 1
    return selectors
  }

  private mutating func selector() throws(JSONPathError) -> JSONSelector {
    guard let character = current else { throw fail("expected a selector before the end") }
    switch character {
    case "'", "\"": return .name(try string())
    case "*":
      index += 1
      return .wildcard
    case "?":
      index += 1
      skipSpaces()
      return .filter(try orExpression())
    default: return try indexOrSlice()
    }
  }

  private mutating func indexOrSlice() throws(JSONPathError) -> JSONSelector {
    let start = try optionalInteger()
    skipSpaces()
    guard current == ":" else {
      guard let start else {
        throw fail("expected a name in quotes, '*', an index, a slice or a filter '?...'")
      }
      return .index(start)
    }
    index += 1
    skipSpaces()
    let end = try optionalInteger()
    skipSpaces()
    var step: Int?
    if current == ":" {
      index += 1
      skipSpaces()
      step = try optionalInteger()
    }
    return .slice(start: start, end: end, step: step)
  }

  private mutating func optionalInteger() throws(JSONPathError) -> Int? {
    let start = index
    if current == "-" { index += 1 }
    while let character = current, character.isASCII, character.isNumber { index += 1 }
    let text = String(characters[start..<index])
    guard !text.isEmpty, text != "-" else {
      index = start
      return nil
    }
    guard let number = Int(text), !(text.hasPrefix("0") && text.count > 1), text != "-0" else {
      throw fail("'\(text)' is not an index (a whole number without leading zeros)", at: start)
    }
    return number
  }

  // MARK: - Literals

  private mutating func string() throws(JSONPathError) -> String {
    guard let quote = current else { throw fail("expected a string") }
    let open = index
    index += 1
    var text = ""
    while let character = current, character != quote {
      index += 1
      guard character == "\\" else {
        text.append(character)
        continue
      }
      text.append(try escape())
    }
    guard current == quote else {
      throw fail("the string at offset \(open) is never closed", at: open)
    }
    index += 1
    return text
  }

  private mutating func escape() throws(JSONPathError) -> Character {
    guard let next = current else { throw fail("a '\\' ends the expression") }
    index += 1
    switch next {
    case "b": return "\u{8}"
    case "f": return "\u{C}"
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    case "/", "\\", "'", "\"": return next
    case "u":
      let digits = String(characters[index..<min(index + 4, characters.count)])
      guard digits.count == 4, let code = UInt32(digits, radix: 16),
        let scalar = Unicode.Scalar(code)
      else { throw fail("'\\u' needs four hex digits of a character", at: index - 2) }
      index += 4
      return Character(scalar)
    default: throw fail("'\\\(next)' is not an escape JSONPath knows", at: index - 2)
    }
  }

  private mutating func literal() -> Any? {
    if let character = current, character == "'" || character == "\"" {
      return try? string()
    }
    for (word, value) in [
      ("true", NSNumber(value: true)), ("false", NSNumber(value: false)), ("null", NSNull()),
    ] as [(String, Any)] where peek(word) {
      index += word.count
      return value
    }
    let start = index
    while let character = current, character.isNumber || "+-.eE".contains(character) {
      index += 1
    }
    guard index > start, let number = Double(String(characters[start..<index])) else {
      index = start
      return nil
    }
    return NSNumber(value: number)
  }
}

// MARK: - Filters

extension JSONPathParser {
  fileprivate mutating func orExpression() throws(JSONPathError) -> JSONFilter {
    var parts = [try andExpression()]
    skipSpaces()
    while peek("||") {
      index += 2
      skipSpaces()
      parts.append(try andExpression())
      skipSpaces()
    }
    return parts.count == 1 ? parts[0] : .or(parts)
  }

  private mutating func andExpression() throws(JSONPathError) -> JSONFilter {
    var parts = [try basicExpression()]
    skipSpaces()
    while peek("&&") {
      index += 2
      skipSpaces()
      parts.append(try basicExpression())
      skipSpaces()
    }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  private mutating func basicExpression() throws(JSONPathError) -> JSONFilter {
    if current == "!" {
      index += 1
      skipSpaces()
      return .not(try basicExpression())
    }
    if current == "(" {
      index += 1
      skipSpaces()
      let inner = try orExpression()
      skipSpaces()
      try expect(")", "to close '('")
      return inner
    }
    let start = index
    let left = try operand()
    skipSpaces()
    guard let operation = JSONComparison.allCases.first(where: { peek($0.rawValue) }) else {
      return try test(left, at: start)
    }
    index += operation.rawValue.count
    skipSpaces()
    let rightStart = index
    let right = try operand()
    return .compare(
      try comparable(left, at: start), operation, try comparable(right, at: rightStart))
  }

  /// A query or function standing alone: existence, or `match`/`search`.
  private func test(_ operand: Parsed, at start: Int) throws(JSONPathError) -> JSONFilter {
    switch operand {
    case .query(let query): return .exists(query)
    case .logical(let filter): return filter
    case .value:
      throw fail("a literal or length() alone is no test; compare it: length(@.x) > 0", at: start)
    }
  }

  private func comparable(_ operand: Parsed, at start: Int) throws(JSONPathError) -> JSONOperand {
    switch operand {
    case .query(let query):
      guard query.isSingular else {
        throw fail(
          "only a path to one value can be compared (names and indexes, no '*', '..' or filter)",
          at: start)
      }
      return .query(query)
    case .logical:
      throw fail("match() and search() are tests; they cannot be compared", at: start)
    case .value(let value): return value
    }
  }

  /// What can stand in a filter: a value, a query, or a test.
  fileprivate enum Parsed {
    case value(JSONOperand)
    case query(JSONQuery)
    case logical(JSONFilter)
  }

  private mutating func operand() throws(JSONPathError) -> Parsed {
    if let character = current, character == "$" || character == "@" {
      return .query(try query())
    }
    if let character = current, character.isLetter, !peek("true"), !peek("false"), !peek("null") {
      return try function()
    }
    guard let value = literal() else {
      throw fail("expected a path ('@.x'), a literal ('text', 3, true, null) or a function")
    }
    return .value(.literal(value))
  }

  private mutating func function() throws(JSONPathError) -> Parsed {
    let start = index
    while let character = current, character.isLetter || character == "_" { index += 1 }
    let name = String(characters[start..<index])
    guard Self.functions.contains(name) else {
      throw fail(
        "unknown function '\(name)'\(Suggestions.hint(for: name, in: Self.functions))"
          + " (functions: \(Self.functions.joined(separator: ", ")))", at: start)
    }
    skipSpaces()
    try expect("(", "after '\(name)'")
    skipSpaces()
    let argumentStart = index
    let argument = try operand()
    let value: JSONOperand
    switch argument {
    case .query(let query) where query.isSingular: value = .query(query)
    case .value(let operand): value = operand
    default: throw fail("'\(name)' takes a path to one value or a literal", at: argumentStart)
    }
    skipSpaces()
    if name == "length" {
      try expect(")", "to close length(")
      return .value(.length(value))
    }
    try expect(",", "between \(name)'s text and its pattern")
    skipSpaces()
    let patternStart = index
    guard case .value(.literal(let pattern as String))? = try? operand() else {
      throw fail("\(name)'s pattern must be a string literal", at: patternStart)
    }
    skipSpaces()
    try expect(")", "to close \(name)(")
    guard let compiled = try? NSRegularExpression(pattern: pattern) else {
      throw fail("'\(pattern)' is not a regular expression", at: patternStart)
    }
    return .logical(.regex(value, compiled, whole: name == "match"))
  }
}
