/// The internal subset of a document's DOCTYPE: where it is, and its entity declarations.
extension InternalEntities {
  struct Subset {
    /// From `<!DOCTYPE` to just past its closing `>`.
    let start: Int
    let end: Int
    /// Between `[` and `]`.
    let body: Range<Int>

    /// The DOCTYPE with an internal subset before the root element, if there is one.
    static func find(in bytes: [UInt8]) -> Subset? {
      let marker = Array("<!DOCTYPE".utf8)
      guard let start = firstIndex(of: marker, in: bytes, before: 4096),
        let open = bytes[start...].prefix(512).firstIndex(of: UInt8(ascii: "[")),
        !bytes[start..<open].contains(UInt8(ascii: ">"))
      else { return nil }
      var index = open + 1
      var quote: UInt8?
      while index < bytes.count {
        let byte = bytes[index]
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: "]") {
          guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
          return Subset(start: start, end: close + 1, body: (open + 1)..<index)
        }
        index += 1
      }
      return nil
    }

    private static func firstIndex(of marker: [UInt8], in bytes: [UInt8], before limit: Int)
      -> Int?
    {
      let last = min(bytes.count, limit) - marker.count
      guard last >= 0 else { return nil }
      return (0...last).first { index in
        marker.indices.allSatisfy { bytes[index + $0] == marker[$0] }
      }
    }

    /// Each `<!ENTITY name "value">`; parameter and external entities refused at their line.
    func declarations(_ bytes: [UInt8]) throws(MarkupError) -> [String: [UInt8]] {
      let text = Array(bytes[body])
      var result: [String: [UInt8]] = [:]
      var index = 0
      let marker = Array("<!ENTITY".utf8)
      while index + marker.count <= text.count {
        guard marker.indices.allSatisfy({ text[index + $0] == marker[$0] }) else {
          index += 1
          continue
        }
        let place = position(of: body.lowerBound + index, in: bytes)
        index += marker.count
        skipSpace(text, &index)
        if index < text.count, text[index] == UInt8(ascii: "%") {
          throw refusal("parameter entities are refused", place)
        }
        let nameStart = index
        while index < text.count, !isSpace(text[index]) { index += 1 }
        let name = String(decoding: text[nameStart..<index], as: UTF8.self)
        skipSpace(text, &index)
        guard index < text.count,
          text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'")
        else {
          throw refusal("entity '\(name)' is external (SYSTEM or PUBLIC), which is refused", place)
        }
        let quote = text[index]
        index += 1
        let valueStart = index
        while index < text.count, text[index] != quote { index += 1 }
        if result[name] == nil { result[name] = Array(text[valueStart..<index]) }
      }
      return result
    }

    private func refusal(_ message: String, _ place: (Int, Int)) -> MarkupError {
      MarkupError(.entityDeclaration, message, line: place.0, column: place.1)
    }

    private func skipSpace(_ text: [UInt8], _ index: inout Int) {
      while index < text.count, isSpace(text[index]) { index += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func position(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
      var line = 1
      var lineStart = 0
      for (index, byte) in bytes[..<offset].enumerated() where byte == UInt8(ascii: "\n") {
        line += 1
        lineStart = index + 1
      }
      return (line, offset - lineStart + 1)
    }
  }
}
