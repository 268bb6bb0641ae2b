import CLibXML2

/// Turns HTML named entities that XML does not define (`&nbsp;`, `&eacute;`, `&mdash;`) into
/// numeric character references, outside CDATA sections and comments, the way a browser reads
/// them. XML's own five entities and unknown names are left alone (the parser then reports them).
enum EntityRepair {
  private static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

  /// The repaired bytes and how many entities were replaced, or nil when nothing needed it.
  static func replacingHTMLEntities(in bytes: [UInt8]) -> (bytes: [UInt8], count: Int)? {
    guard bytes.contains(UInt8(ascii: "&")) else { return nil }
    var output: [UInt8] = []
    var count = 0
    var copied = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "!") {
        if let end = skipSection(bytes, at: index, cdata)
          ?? skipSection(bytes, at: index, comment)
        {
          index = end
          continue
        }
      } else if byte == UInt8(ascii: "&"), !isXMLEntity(bytes, at: index),
        let (name, end) = entityName(bytes, at: index),
        !xmlEntities.contains(name), let codePoint = htmlCodePoint(name)
      {
        if output.isEmpty { output.reserveCapacity(bytes.count) }
        output.append(contentsOf: bytes[copied..<index])
        output.append(contentsOf: Array("&#\(codePoint);".utf8))
        copied = end
        count += 1
        index = end
        continue
      }
      index += 1
    }
    guard count > 0 else { return nil }
    output.append(contentsOf: bytes[copied...])
    return (output, count)
  }

  /// `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;` at `index`, told by bytes (most references
  /// in a feed are these: no name string is made for them).
  private static func isXMLEntity(_ bytes: [UInt8], at index: Int) -> Bool {
    xmlEntityBytes.contains { name in
      index + name.count <= bytes.count
        && name.indices.allSatisfy { bytes[index + $0] == name[$0] }
    }
  }

  private static let xmlEntityBytes = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].map {
    Array($0.utf8)
  }

  private static func entityName(_ bytes: [UInt8], at index: Int) -> (String, Int)? {
    var end = index + 1
    while end < bytes.count, end - index <= 32 {
      let byte = bytes[end]
      if byte == UInt8(ascii: ";") {
        guard end > index + 1 else { return nil }
        return (String(decoding: bytes[(index + 1)..<end], as: UTF8.self), end + 1)
      }
      let isAlnum =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x61 && byte <= 0x7A)
      guard isAlnum else { return nil }
      end += 1
    }
    return nil
  }

  private static func htmlCodePoint(_ name: String) -> UInt32? {
    name.withCString { pointer in
      pointer.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) {
        htmlEntityLookup($0)?.pointee.value
      }
    }
  }

  private static let cdata = (open: Array("<![CDATA[".utf8), close: Array("]]>".utf8))
  private static let comment = (open: Array("<!--".utf8), close: Array("-->".utf8))

  private static func skipSection(
    _ bytes: [UInt8], at index: Int, _ section: (open: [UInt8], close: [UInt8])
  ) -> Int? {
    let (openBytes, closeBytes) = section
    guard index + openBytes.count <= bytes.count,
      bytes[index..<(index + openBytes.count)].elementsEqual(openBytes)
    else { return nil }
    var cursor = index + openBytes.count
    while cursor + closeBytes.count <= bytes.count {
      if bytes[cursor] == closeBytes[0],
        bytes[cursor..<(cursor + closeBytes.count)].elementsEqual(closeBytes)
      {
        return cursor + closeBytes.count
      }
      cursor += 1
    }
    return bytes.count
  }
}
