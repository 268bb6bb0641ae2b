import Foundation

/// A small JSON tokenizer over bytes, for the state file's large sections: objects walked key by
/// key, strings decoded, anything else skipped while its extent is noted.
struct JSONScanner {
  let bytes: [UInt8]
  var position: Int

  init(bytes: [UInt8], position: Int = 0) {
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
      bytes[start + 19] == UInt8(ascii: "Z"),
      bytes[start + 20] == UInt8(ascii: "\"")
    {
      var fields = [Int](repeating: 0, count: 6)
      let layout = [(0, 4), (5, 2), (8, 2), (11, 2), (14, 2), (17, 2)]
      var valid = true
      for (index, (offset, count)) in layout.enumerated() {
        var value = 0
        for byte in bytes[(start + offset)..<(start + offset + count)] {
          if byte < 0x30 || byte > 0x39 { valid = false }
          value = value * 10 + Int(byte) - 0x30
        }
        fields[index] = value
      }
      if valid, (1...12).contains(fields[1]), (1...31).contains(fields[2]) {
        position = start + 21
        let days = ISODate.daysFromCivil(fields[0], fields[1], fields[2])
        return Date(
          timeIntervalSince1970: Double(
            days * 86_400 + fields[3] * 3600 + fields[4] * 60 + fields[5]))
      }
    }
    let text = try string()
    guard let date = ISODate.parse(text) else { throw StateCodecError("'\(text)' is not a time") }
    return date
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
    if bytes[position...].starts(with: Array("null".utf8)) {
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

  private static func unescape(_ raw: ArraySlice<UInt8>) throws -> String {
    // Rare in a state file (ids and channel names are plain): let Foundation's decoder do it.
    let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
    guard let text = try? JSONDecoderBox.decoder.decode(String.self, from: Data(quoted)) else {
      throw StateCodecError("a string with a bad escape")
    }
    return text
  }
}

enum JSONDecoderBox {
  static let decoder = JSONDecoder()
}
