internal import Markup

/// The last resort for a damaged feed: cut the document at every `<item` / `<entry` and read
/// each piece on its own (behind the document's head, in recovery mode), so that one broken item
/// never takes the items after it down with it.
enum ItemSalvage {
  static func read(
    _ bytes: [UInt8], url: String, limits: MarkupLimits, text: TextConversion = .eager
  ) -> FeedDocument? {
    let starts = itemStarts(in: bytes)
    guard let first = starts.first else { return nil }
    let head = Array(bytes[..<first])
    var document: FeedDocument?
    var items: [FeedItem] = []
    for (index, start) in starts.enumerated() {
      let end = index + 1 < starts.count ? starts[index + 1] : bytes.count
      let piece = head + bytes[start..<end]
      guard
        let reading = try? XMLFeedReader.recover(
          piece, url: url, limits: limits, text: text),
        let item = reading.document.items.first
      else { continue }
      document = document ?? reading.document
      items.append(item)
    }
    document?.items = items
    return document
  }

  /// Offsets of `<item`, `<entry` and prefixed forms (`<atom:entry`) followed by a space,
  /// `>` or `/`.
  static func itemStarts(in bytes: [UInt8]) -> [Int] {
    let names = [Array("item".utf8), Array("entry".utf8)]
    var starts: [Int] = []
    var index = 0
    while index < bytes.count {
      defer { index += 1 }
      guard bytes[index] == UInt8(ascii: "<") else { continue }
      var nameStart = index + 1
      // Skip a namespace prefix.
      var cursor = nameStart
      while cursor < bytes.count, cursor - nameStart < 16, isNameByte(bytes[cursor]) { cursor += 1 }
      if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") { nameStart = cursor + 1 }
      for name in names where matches(name, in: bytes, at: nameStart) {
        let after = nameStart + name.count
        if after < bytes.count,
          [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "/"), 0x0A, 0x0D, 0x09].contains(
            bytes[after])
        {
          starts.append(index)
        }
      }
    }
    return starts
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39)
      || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
  }

  private static func matches(_ name: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
    guard index + name.count <= bytes.count else { return false }
    for offset in 0..<name.count where bytes[index + offset] != name[offset] { return false }
    return true
  }
}
