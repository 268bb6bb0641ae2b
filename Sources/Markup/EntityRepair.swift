internal import CLibXML2
internal import Foundation

/// Turns HTML named entities that XML does not define (`&nbsp;`, `&eacute;`, `&mdash;`) into
/// numeric character references, outside CDATA sections and comments, the way a browser reads
/// them. XML's own five entities and unknown names are left alone (the parser then reports them).
///
/// The references are found once, over the whole document (``replacements(in:byteByByte:)``), and
/// made as the bytes are given to the parser (``write(_:_:replacing:into:)``), a chunk at a time:
/// the repaired document is never held whole beside the body (a 15 MB feed that uses `&ndash;`
/// was held twice).
enum EntityRepair {
  private static let xmlEntities: Set<String> = ["amp", "lt", "gt", "quot", "apos"]

  /// One reference to replace: its bytes in the document, and the character it names.
  struct Replacement: Equatable {
    let range: Range<Int>
    let codePoint: UInt32
  }

  /// The references to replace, in document order (none when nothing needs it). They are found
  /// with `memchr` (vectorized), as are CDATA sections and comments; `byteByByte` reads every
  /// byte in turn instead, as this repair first did: tests compare the two.
  static func replacements(in bytes: [UInt8], byteByByte: Bool = false) -> [Replacement] {
    guard bytes.contains(UInt8(ascii: "&")) else { return [] }
    var found = Found(bytes)
    if byteByByte {
      readByteByByte(bytes, into: &found)
    } else {
      bytes.withUnsafeBufferPointer { read($0, into: &found) }
    }
    return found.replacements
  }

  /// The whole repaired document and how many entities were replaced, or nil when nothing
  /// needed it (the recovering reader's input, and the tests').
  static func replacingHTMLEntities(in bytes: [UInt8], byteByByte: Bool = false) -> (
    bytes: [UInt8], count: Int
  )? {
    let replacements = replacements(in: bytes, byteByByte: byteByByte)
    guard !replacements.isEmpty else { return nil }
    return (applying(replacements, to: bytes), replacements.count)
  }

  /// `bytes` with `replacements` made (``replacements(in:byteByByte:)`` of the same bytes).
  static func applying(_ replacements: [Replacement], to bytes: [UInt8]) -> [UInt8] {
    guard !replacements.isEmpty else { return bytes }
    var output: [UInt8] = []
    bytes.withUnsafeBufferPointer {
      write($0, 0..<$0.count, replacing: replacements[...], into: &output)
    }
    return output
  }

  /// Appends `bytes[range]` to `output` with `replacements` made: those of the range, in order,
  /// none cut by its ends.
  static func write(
    _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
    replacing replacements: ArraySlice<Replacement>, into output: inout [UInt8]
  ) {
    output.reserveCapacity(output.count + range.count + 4 * replacements.count)
    var copied = range.lowerBound
    for replacement in replacements {
      output.append(
        contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<replacement.range.lowerBound]))
      appendReference(replacement.codePoint, to: &output)
      copied = replacement.range.upperBound
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<range.upperBound]))
  }

  /// `&#N;`, its digits written without a string.
  private static func appendReference(_ codePoint: UInt32, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "&"))
    output.append(UInt8(ascii: "#"))
    var divisor: UInt32 = 1
    while codePoint / divisor >= 10 { divisor *= 10 }
    while divisor > 0 {
      output.append(UInt8(ascii: "0") + UInt8(codePoint / divisor % 10))
      divisor /= 10
    }
    output.append(UInt8(ascii: ";"))
  }

  /// The references found so far.
  private struct Found {
    let input: [UInt8]
    var replacements: [Replacement] = []

    init(_ input: [UInt8]) { self.input = input }

    /// Notes the reference at `index` when it is an HTML entity XML does not define; the index
    /// to read on from.
    mutating func replace(at index: Int) -> Int {
      guard !isXMLEntity(input, at: index), let (name, end) = entityName(input, at: index),
        !xmlEntities.contains(name), let codePoint = htmlCodePoint(name)
      else { return index + 1 }
      replacements.append(Replacement(range: index..<end, codePoint: codePoint))
      return end
    }
  }

  /// Every reference outside CDATA sections and comments, found by `memchr`, as are the sections
  /// (by their `!`, rarer in feeds than `<`); the next section is kept until the reading passes
  /// its start.
  private static func read(_ buffer: UnsafeBufferPointer<UInt8>, into repair: inout Found) {
    let scan = ByteScan(buffer)
    var index = 0
    var next = scan.section(from: 0)
    while index < buffer.count {
      let reference = scan.find(UInt8(ascii: "&"), from: index)
      if let section = next, section.start < reference {
        index = scan.end(of: section.marks.close, from: section.start + section.marks.open.count)
        next = scan.section(from: index)
      } else if reference < buffer.count {
        index = repair.replace(at: reference)
      } else {
        return
      }
    }
  }

  /// Searches of a buffer by `memchr`.
  private struct ByteScan {
    let buffer: UnsafeBufferPointer<UInt8>

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    /// The first `byte` at or after `start`; the buffer's end when there is none.
    func find(_ byte: UInt8, from start: Int) -> Int {
      guard let base = buffer.baseAddress, start < buffer.count,
        let found = memchr(base + start, Int32(byte), buffer.count - start)
      else { return buffer.count }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    func holds(_ marker: [UInt8], at index: Int) -> Bool {
      index + marker.count <= buffer.count
        && marker.indices.allSatisfy { buffer[index + $0] == marker[$0] }
    }

    /// The first CDATA section or comment opening at or after `start`, with its marks.
    func section(from start: Int) -> (start: Int, marks: (open: [UInt8], close: [UInt8]))? {
      var bang = find(UInt8(ascii: "!"), from: start + 1)
      while bang < buffer.count {
        if buffer[bang - 1] == UInt8(ascii: "<") {
          if holds(cdata.open, at: bang - 1) { return (bang - 1, cdata) }
          if holds(comment.open, at: bang - 1) { return (bang - 1, comment) }
        }
        bang = find(UInt8(ascii: "!"), from: bang + 1)
      }
      return nil
    }

    /// Just after the first `marker` at or after `start`; the buffer's end when there is none.
    func end(of marker: [UInt8], from start: Int) -> Int {
      var found = find(marker[0], from: start)
      while found < buffer.count, !holds(marker, at: found) {
        found = find(marker[0], from: found + 1)
      }
      return min(found + marker.count, buffer.count)
    }
  }

  /// The first way: every byte in turn.
  private static func readByteByByte(_ bytes: [UInt8], into repair: inout Found) {
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
      } else if byte == UInt8(ascii: "&") {
        index = repair.replace(at: index)
        continue
      }
      index += 1
    }
  }

  /// `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;` at `index`, told by bytes (most references
  /// in a feed are these: no name string is made for them).
  static func isXMLEntity(_ bytes: [UInt8], at index: Int) -> Bool {
    func follows(_ name: StaticString) -> Bool {
      let count = name.utf8CodeUnitCount
      guard index + count < bytes.count else { return false }
      let start = name.utf8Start
      for offset in 0..<count where bytes[index + 1 + offset] != start[offset] { return false }
      return true
    }
    guard index + 1 < bytes.count else { return false }
    switch bytes[index + 1] {
    case UInt8(ascii: "l"): return follows("lt;")
    case UInt8(ascii: "g"): return follows("gt;")
    case UInt8(ascii: "a"): return follows("amp;") || follows("apos;")
    case UInt8(ascii: "q"): return follows("quot;")
    default: return false
    }
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
