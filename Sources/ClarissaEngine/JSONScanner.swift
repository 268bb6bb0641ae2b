import Foundation

/// A small JSON tokenizer over bytes, for the state file's large sections: objects walked key by
/// key, strings decoded, anything else skipped while its extent is noted. It reads the bytes in
/// place (no copy, no reference counting per step): valid only inside the caller's
/// `withUnsafeBytes`.
struct JSONScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var position: Int

  init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
    self.bytes = bytes
    self.position = position
  }

  mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  mutating func expect(_ byte: UInt8) throws {
    skipSpace()
    guard position < bytes.count, bytes[position] == byte else {
      throw StateCodecError("expected '\(Character(Unicode.Scalar(byte)))' at byte \(position)")
    }
    position += 1
  }

  /// Calls `member` for each key, positioned at its value; `member` must consume the value.
  mutating func object(_ member: (String, inout JSONScanner) throws -> Void) throws {
    try expect(UInt8(ascii: "{"))
    skipSpace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return
    }
    while true {
      let key = try string()
      try expect(UInt8(ascii: ":"))
      skipSpace()
      try member(key, &self)
      skipSpace()
      guard position < bytes.count else { throw StateCodecError("the text ends inside an object") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      try expect(UInt8(ascii: "}"))
      return
    }
  }

  mutating func string() throws -> String {
    try expect(UInt8(ascii: "\""))
    let start = position
    var plain = true
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let raw = bytes[start..<position]
        position += 1
        return plain ? String(decoding: raw, as: UTF8.self) : try Self.unescape(raw)
      }
      if byte == UInt8(ascii: "\\") {
        plain = false
        position += 1
      }
      position += 1
    }
    throw StateCodecError("the text ends inside a string")
  }

  /// A `"YYYY-MM-DDTHH:MM:SSZ"` string read straight from the bytes (the state's own form);
  /// any other ISO 8601 form is read the slow way.
  mutating func date() throws -> Date {
    skipSpace()
    let start = position + 1
    if start + 21 <= bytes.count, bytes[position] == UInt8(ascii: "\""),
      bytes[start + 19] == UInt8(ascii: "Z"), bytes[start + 20] == UInt8(ascii: "\"")
    {
      var valid = true
      func number(_ offset: Int, _ count: Int) -> Int {
        var value = 0
        for index in (start + offset)..<(start + offset + count) {
          let digit = Int(bytes[index]) &- 0x30
          if digit < 0 || digit > 9 { valid = false }
          value = value &* 10 &+ digit
        }
        return value
      }
      let year = number(0, 4)
      let month = number(5, 2)
      let day = number(8, 2)
      let seconds = number(11, 2) &* 3600 &+ number(14, 2) &* 60 &+ number(17, 2)
      if valid, (1...12).contains(month), (1...31).contains(day) {
        position = start + 21
        let days = ISODate.daysFromCivil(year, month, day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds))
      }
    }
    let text = try string()
    guard let date = ISODate.parse(text) else { throw StateCodecError("'\(text)' is not a time") }
    return date
  }

  /// Where the next `byte` is, from the current position, found by `memchr`; nil when absent.
  func offset(of byte: UInt8) -> Int? {
    guard position < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + position, Int32(byte), bytes.count - position)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - position
  }

  mutating func strings() throws -> [String] {
    try expect(UInt8(ascii: "["))
    skipSpace()
    var list: [String] = []
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return list
    }
    while true {
      list.append(try string())
      skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      try expect(UInt8(ascii: "]"))
      return list
    }
  }

  mutating func nullOrString() throws -> String? {
    skipSpace()
    if position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "n"),
      bytes[position + 1] == UInt8(ascii: "u"), bytes[position + 2] == UInt8(ascii: "l"),
      bytes[position + 3] == UInt8(ascii: "l")
    {
      position += 4
      return nil
    }
    return try string()
  }

  /// Moves past one value of any kind.
  mutating func skipValue() throws {
    skipSpace()
    guard position < bytes.count else { throw StateCodecError("a value is missing") }
    switch bytes[position] {
    case UInt8(ascii: "\""):
      _ = try string()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var inString = false
      while position < bytes.count {
        let byte = bytes[position]
        position += 1
        if inString {
          if byte == UInt8(ascii: "\\") {
            position += 1
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return }
        default: break
        }
      }
      throw StateCodecError("the text ends inside a value")
    default:
      while position < bytes.count, !",}] \n\r\t".utf8.contains(bytes[position]) { position += 1 }
    }
  }

  private static func unescape(_ raw: Slice<UnsafeBufferPointer<UInt8>>) throws -> String {
    // Rare in a state file (ids and channel names are plain): let Foundation's decoder do it.
    let quoted = [UInt8(ascii: "\"")] + Array(raw) + [UInt8(ascii: "\"")]
    guard let text = try? JSONDecoderBox.decoder.decode(String.self, from: Data(quoted)) else {
      throw StateCodecError("a string with a bad escape")
    }
    return text
  }
}

enum JSONDecoderBox {
  static let decoder = JSONDecoder()
}
