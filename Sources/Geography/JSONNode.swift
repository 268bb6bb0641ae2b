internal import ClarissaCore

/// A JSON value and where it starts in its text (1-based line, column in Unicode scalars), so
/// that a problem in a GeoJSON file is reported where it is. Foundation's `JSONSerialization`
/// gives no positions.
package struct JSONNode: Sendable {
  /// The value.
  package enum Value: Sendable {
    case object([Member])
    case array([JSONNode])
    case number(Double)
    case string(String)
    case bool(Bool)
    case null
  }

  /// One member of an object, with its key's place.
  package struct Member: Sendable {
    package var key: String
    package var line: Int
    package var column: Int
    package var value: JSONNode
  }

  package var value: Value
  package var line: Int
  package var column: Int

  /// The member named `key` of an object (the first, should a file repeat it).
  package subscript(key: String) -> JSONNode? {
    guard case .object(let members) = value else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// What the value is, for messages: "an object", "a number".
  package var kind: String {
    switch value {
    case .object: "an object"
    case .array: "a list"
    case .number: "a number"
    case .string: "text"
    case .bool: "true or false"
    case .null: "null"
    }
  }
}

/// A problem reading JSON text, at a line and column.
package struct JSONProblem: Error, Sendable, Equatable {
  package var message: String
  package var line: Int
  package var column: Int
}

/// Reads JSON text (RFC 8259) into ``JSONNode``s, bounded in nesting; the caller bounds the size.
package struct JSONNodeParser {
  /// Deeper nesting is refused (a GeoJSON geometry needs six levels).
  package static let maxDepth = 64

  private let bytes: [UInt8]
  private var index = 0
  private var line = 1
  private var column = 1

  private init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The one value `bytes` hold; throws ``JSONProblem`` where the text is not JSON.
  package static func parse(_ bytes: [UInt8]) throws(JSONProblem) -> JSONNode {
    var parser = JSONNodeParser(bytes)
    // A byte order mark is tolerated, as editors write one.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipSpace()
    let node = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else {
      throw parser.problem("unexpected text after the JSON value")
    }
    return node
  }

  private func problem(_ message: String) -> JSONProblem {
    JSONProblem(message: message, line: line, column: column)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func advance() {
    let byte = bytes[index]
    index += 1
    if byte == 0x0A {
      line += 1
      column = 1
    } else if byte & 0xC0 != 0x80 {
      column += 1
    }
  }

  private mutating func skipSpace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      advance()
    }
  }

  private mutating func value(depth: Int) throws(JSONProblem) -> JSONNode {
    guard let byte = current else { throw problem("the JSON text ends where a value should be") }
    let (startLine, startColumn) = (line, column)
    let value: JSONNode.Value
    switch byte {
    case UInt8(ascii: "{"):
      value = .object(try object(depth: depth + 1))
    case UInt8(ascii: "["):
      value = .array(try array(depth: depth + 1))
    case UInt8(ascii: "\""): value = .string(try string())
    case UInt8(ascii: "t"): value = try word("true", .bool(true))
    case UInt8(ascii: "f"): value = try word("false", .bool(false))
    case UInt8(ascii: "n"): value = try word("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
    default:
      throw problem("expected a JSON value, found '\(Unicode.Scalar(byte).escaped(asASCII: true))'")
    }
    return JSONNode(value: value, line: startLine, column: startColumn)
  }

  private mutating func object(depth: Int) throws(JSONProblem) -> [JSONNode.Member] {
    guard depth <= Self.maxDepth else { throw problem("JSON nested deeper than \(Self.maxDepth)") }
    advance()
    skipSpace()
    var members: [JSONNode.Member] = []
    if current == UInt8(ascii: "}") {
      advance()
      return members
    }
    while true {
      guard current == UInt8(ascii: "\"") else { throw problem("expected a key in quotes") }
      let (keyLine, keyColumn) = (line, column)
      let key = try string()
      skipSpace()
      guard current == UInt8(ascii: ":") else { throw problem("expected ':' after the key") }
      advance()
      skipSpace()
      let value = try value(depth: depth)
      members.append(JSONNode.Member(key: key, line: keyLine, column: keyColumn, value: value))
      skipSpace()
      if current == UInt8(ascii: ",") {
        advance()
        skipSpace()
        continue
      }
      guard current == UInt8(ascii: "}") else { throw problem("expected ',' or '}'") }
      advance()
      return members
    }
  }

  private mutating func array(depth: Int) throws(JSONProblem) -> [JSONNode] {
    guard depth <= Self.maxDepth else { throw problem("JSON nested deeper than \(Self.maxDepth)") }
    advance()
    skipSpace()
    var items: [JSONNode] = []
    if current == UInt8(ascii: "]") {
      advance()
      return items
    }
    while true {
      items.append(try value(depth: depth))
      skipSpace()
      if current == UInt8(ascii: ",") {
        advance()
        skipSpace()
        continue
      }
      guard current == UInt8(ascii: "]") else { throw problem("expected ',' or ']'") }
      advance()
      return items
    }
  }

  private mutating func word(_ text: String, _ value: JSONNode.Value) throws(JSONProblem)
    -> JSONNode.Value
  {
    let expected = Array(text.utf8)
    guard bytes.count - index >= expected.count,
      bytes[index..<index + expected.count].elementsEqual(expected)
    else { throw problem("expected '\(text)'") }
    for _ in expected { advance() }
    return value
  }

  private mutating func number() throws(JSONProblem) -> Double {
    let start = index
    let (startLine, startColumn) = (line, column)
    func digits() -> Int {
      var count = 0
      while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        advance()
        count += 1
      }
      return count
    }
    if current == UInt8(ascii: "-") { advance() }
    let whole = index
    guard digits() > 0 else { throw problem("expected a digit") }
    if bytes[whole] == UInt8(ascii: "0"), index - whole > 1 {
      throw JSONProblem(
        message: "a JSON number has no leading zeros", line: startLine, column: startColumn)
    }
    if current == UInt8(ascii: ".") {
      advance()
      guard digits() > 0 else { throw problem("expected a digit after '.'") }
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      advance()
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
      guard digits() > 0 else { throw problem("expected a digit in the exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      throw JSONProblem(
        message: "the number '\(text)' is too large", line: startLine, column: startColumn)
    }
    return value
  }

  private mutating func string() throws(JSONProblem) -> String {
    advance()
    var scalars = String.UnicodeScalarView()
    var run = index
    func flush(_ end: Int) {
      scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars)
    }
    while true {
      guard let byte = current else { throw problem("the text in quotes is not closed") }
      switch byte {
      case UInt8(ascii: "\""):
        flush(index)
        advance()
        return String(scalars)
      case UInt8(ascii: "\\"):
        flush(index)
        advance()
        scalars.append(try escape())
        run = index
      case 0..<0x20:
        throw problem("a control character inside quotes (write it as an escape, such as \\n)")
      default: advance()
      }
    }
  }

  private mutating func escape() throws(JSONProblem) -> Unicode.Scalar {
    guard let byte = current else { throw problem("the text in quotes is not closed") }
    advance()
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{8}"
    case UInt8(ascii: "f"): return "\u{C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hex4()
      if (0xD800..<0xDC00).contains(high), current == UInt8(ascii: "\\") {
        advance()
        guard current == UInt8(ascii: "u") else {
          throw problem("expected '\\u' after a high surrogate")
        }
        advance()
        let low = try hex4()
        if (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        {
          return scalar
        }
      }
      return Unicode.Scalar(high) ?? "\u{FFFD}"
    default: throw problem("unknown escape '\\\(Unicode.Scalar(byte).escaped(asASCII: true))'")
    }
  }

  private mutating func hex4() throws(JSONProblem) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Self.hexValue(byte) else {
        throw problem("expected four hexadecimal digits after '\\u'")
      }
      value = value << 4 | digit
      advance()
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
