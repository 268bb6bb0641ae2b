internal import Foundation

/// The markup of a UTF-8 XML document as written, without libxml2: where the root element
/// starts, and then each start and end tag in order (text, comments, CDATA sections and
/// processing instructions stepped over, quoted attribute values read whole). It finds where
/// an element ends so that ``XMLEventParser`` can digest its bytes and, when its reader knows
/// them, never give them to libxml2 (docs/performance.md, "Unchanged items"). It checks
/// nothing: libxml2 reads everything that is not passed over, and only an element whose bytes
/// (and context) a reader has read before, whole and well-formed, is ever passed over.
struct XMLMarkupScanner {
  enum Tag: Equatable {
    /// A start tag (`empty`: written `<x/>`) over `range`.
    case start(Range<Int>, empty: Bool)
    /// An end tag over `range`.
    case end(Range<Int>)
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  /// Where scanning goes on.
  private(set) var position = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  /// The root element's start tag, after the XML declaration, comments, processing
  /// instructions and a DOCTYPE (its internal subset included); nil when the prolog holds
  /// anything else or the root is empty.
  mutating func root() -> Range<Int>? {
    while let open = find(UInt8(ascii: "<"), from: position) {
      if let end = endOfTextlessMarkup(at: open) {
        position = end
      } else if starts(with: "<!DOCTYPE", at: open) {
        guard let end = doctypeEnd(from: open + 9) else { return nil }
        position = end
      } else {
        guard case .start(let range, let empty)? = tag(at: open), !empty else { return nil }
        position = range.upperBound
        return range
      }
    }
    return nil
  }

  /// The next start or end tag; nil at the end of the bytes or at markup that does not belong
  /// in an element's content (a DOCTYPE, an unclosed construct).
  mutating func next() -> Tag? {
    while let open = find(UInt8(ascii: "<"), from: position) {
      if let end = endOfTextlessMarkup(at: open) {
        position = end
        continue
      }
      guard !starts(with: "<!", at: open), let found = tag(at: open) else { return nil }
      switch found {
      case .start(let range, _), .end(let range): position = range.upperBound
      }
      return found
    }
    return nil
  }

  /// The end of the element whose start tag was the last one read: just after its end tag.
  mutating func elementEnd() -> Int? {
    var depth = 1
    while let found = next() {
      switch found {
      case .start(_, let empty): if !empty { depth += 1 }
      case .end: depth -= 1
      }
      if depth == 0 { return position }
    }
    return nil
  }

  /// Whether `bytes[range]` is XML white space alone.
  func isWhitespace(_ range: Range<Int>) -> Bool {
    range.allSatisfy {
      let byte = bytes[$0]
      return byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
  }

  /// The start or end tag at `open` (a `<`), quoted values read whole.
  private func tag(at open: Int) -> Tag? {
    if open + 1 < bytes.count, bytes[open + 1] == UInt8(ascii: "/") {
      guard let close = find(UInt8(ascii: ">"), from: open + 2) else { return nil }
      return .end(open..<close + 1)
    }
    var index = open + 1
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        guard let quote = find(bytes[index], from: index + 1) else { return nil }
        index = quote + 1
      case UInt8(ascii: ">"):
        return .start(open..<index + 1, empty: bytes[index - 1] == UInt8(ascii: "/"))
      case UInt8(ascii: "<"):
        return nil
      default:
        index += 1
      }
    }
    return nil
  }

  /// Just after the `>` that ends a DOCTYPE begun before `start`.
  private func doctypeEnd(from start: Int) -> Int? {
    var index = start
    var subset = false
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        guard let quote = find(bytes[index], from: index + 1) else { return nil }
        index = quote
      case UInt8(ascii: "<") where starts(with: "<!--", at: index):
        guard let end = find("-->", from: index + 4) else { return nil }
        index = end - 1
      case UInt8(ascii: "["): subset = true
      case UInt8(ascii: "]"): subset = false
      case UInt8(ascii: ">") where !subset: return index + 1
      default: break
      }
      index += 1
    }
    return nil
  }

  /// Just after the comment, processing instruction or CDATA section at `open` (the end of the
  /// bytes when it is not closed: nothing follows it then); nil when none starts there.
  private func endOfTextlessMarkup(at open: Int) -> Int? {
    for (start, end) in Self.textless where starts(with: start, at: open) {
      return find(end, from: open + start.utf8CodeUnitCount) ?? bytes.count
    }
    return nil
  }

  private static let textless: [(StaticString, StaticString)] = [
    ("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"),
  ]

  private func starts(with marker: StaticString, at index: Int) -> Bool {
    let count = marker.utf8CodeUnitCount
    guard index + count <= bytes.count, let base = bytes.baseAddress else { return false }
    return memcmp(base + index, marker.utf8Start, count) == 0
  }

  /// The index of the first `byte` at or after `start`.
  private func find(_ byte: UInt8, from start: Int) -> Int? {
    guard start < bytes.count, let base = bytes.baseAddress,
      let found = memchr(base + start, Int32(byte), bytes.count - start)
    else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
  }

  /// Just after the first `marker` at or after `start`.
  private func find(_ marker: StaticString, from start: Int) -> Int? {
    let first = marker.utf8Start.pointee
    var index = start
    while let found = find(first, from: index) {
      if starts(with: marker, at: found) { return found + marker.utf8CodeUnitCount }
      index = found + 1
    }
    return nil
  }
}
