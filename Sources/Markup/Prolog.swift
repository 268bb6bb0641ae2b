internal import Foundation

/// Looks at what comes before a document's root element, without parsing it.
enum Prolog {
  /// Where `<!ENTITY` appears before the root element (in a DOCTYPE's internal subset), if it
  /// does. Entity declarations are the root of billion-laughs and external-entity attacks, and
  /// no real feed needs them.
  static func entityDeclaration(in bytes: [UInt8]) -> (line: Int, column: Int)? {
    let marker = Array("<!ENTITY".utf8)
    var line = 1
    var lineStart = 0
    var index = 0
    var inDoctype = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\n") {
        line += 1
        lineStart = index + 1
      } else if byte == UInt8(ascii: "<"), index + 1 < bytes.count {
        let next = bytes[index + 1]
        if matches(marker, in: bytes, at: index) {
          return (line, index - lineStart + 1)
        }
        if matches(Array("<!DOCTYPE".utf8), in: bytes, at: index) { inDoctype = true }
        // The root element starts: a name character after '<' outside the DOCTYPE.
        if !inDoctype, next != UInt8(ascii: "?"), next != UInt8(ascii: "!") { return nil }
      } else if byte == UInt8(ascii: "]"), inDoctype {
        inDoctype = false
      }
      index += 1
    }
    return nil
  }

  /// Whether the document is UTF-16 or UTF-32 (a byte-order mark, or `<` next to a zero byte),
  /// or its XML declaration names an encoding other than UTF-8: libxml2 then decodes it itself.
  static func declaresNonUTF8Encoding(_ bytes: [UInt8]) -> Bool {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
      || bytes.starts(with: [0x3C, 0x00]) || bytes.starts(with: [0x00, 0x3C])
    {
      return true
    }
    let head = String(decoding: bytes.prefix(200), as: UTF8.self).lowercased()
    guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"),
      let end = head.range(of: "?>"), let start = head.range(of: "encoding=")
    else { return false }
    guard start.lowerBound < end.lowerBound else { return false }
    let value = head[start.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
    return value != "utf-8" && value != "utf8"
  }

  private static func matches(_ marker: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
    guard index + marker.count <= bytes.count else { return false }
    for offset in 0..<marker.count where bytes[index + offset] != marker[offset] { return false }
    return true
  }
}

/// Fast UTF-8 validation (no allocation).
enum UTF8Check {
  static func isValid(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { raw in
      var index = 0
      let count = raw.count
      while index < count {
        // Eight ASCII bytes at a time.
        if index + 8 <= count,
          raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
          continue
        }
        let byte = raw[index]
        if byte < 0x80 {
          index += 1
          continue
        }
        let length: Int
        switch byte {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return false
        }
        guard index + length <= count else { return false }
        for offset in 1..<length where raw[index + offset] & 0xC0 != 0x80 { return false }
        index += length
      }
      return true
    }
  }
}
