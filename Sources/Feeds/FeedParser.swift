public import Markup

/// Reads any feed (RSS 0.9x/2.0, RSS 1.0, Atom 1.0/0.3, JSON Feed) into one model.
///
/// It recovers where a browser would: HTML entities such as `&nbsp;` are understood, a document
/// that is not UTF-8 and declares nothing is read as Windows-1252, a well-formedness error in
/// the middle (an unescaped `&`) does not lose the items after it, and a document cut off at the
/// end keeps every item before the cut. What was repaired is listed in ``FeedDocument/problems``.
/// Hostile documents (entity declarations, oversized bodies) are refused.
public enum FeedParser {
  /// Parses `bytes` fetched from `url` (used to make relative links absolute); `text` says
  /// whether HTML descriptions become plain text now or are left for the caller.
  public static func parse(
    _ bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits(),
    text: TextConversion = .eager
  ) throws -> FeedDocument {
    try read(bytes, url: url, limits: limits, text: text).document
  }

  /// ``parse(_:url:limits:text:)``, passing over the items `passing` knows: the document holds
  /// the others, each with its ``FeedItem/digest``, and `passed` the digests of those passed
  /// over, in document order. Only a well-formed XML feed is read so: a JSON Feed, or a
  /// damaged document (which is read again whole, to recover what it can), passes over nothing.
  public static func read(
    _ bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits(),
    text: TextConversion = .eager, passing: ItemPass? = nil
  ) throws -> (document: FeedDocument, passed: [XMLDigest]) {
    guard bytes.count <= limits.maxBytes else {
      throw FeedError("the feed is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
    }
    switch firstSignificantByte(bytes) {
    case UInt8(ascii: "{"):
      return (try JSONFeedReader.read(bytes, url: url, text: text), [])
    case UInt8(ascii: "<"):
      if let passing,
        let read = try? XMLFeedReader.read(
          bytes, url: url, limits: limits, text: text, passing: passing), read.error == nil
      {
        var document = read.document
        document.problems = read.notes
        return (document, read.passed)
      }
      return (try readXML(bytes, url: url, limits: limits, text: text), [])
    case nil:
      throw FeedError("the document is empty")
    default:
      throw FeedError("not a feed: it starts with neither '<' (XML) nor '{' (JSON Feed)")
    }
  }

  private typealias Reading = (
    document: FeedDocument, error: MarkupError?, notes: [String], passed: [XMLDigest]
  )

  private static func readXML(
    _ bytes: [UInt8], url: String, limits: MarkupLimits, text: TextConversion
  ) throws -> FeedDocument {
    // libxml2's reader parses a small document in one go, so an early error can hide every
    // node: "no root seen" then means "damaged", not "empty".
    var strict: Reading?
    do {
      strict = try XMLFeedReader.read(bytes, url: url, limits: limits, text: text)
    } catch is XMLFeedReader.NoRootElement {
      strict = nil
    }
    if let strict, strict.error == nil {
      var document = strict.document
      document.problems = strict.notes
      return document
    }
    // Damaged: read it again through libxml2's recovery mode, and item by item; keep the
    // reading with the most items (on a tie the item-by-item one, then the recovered one,
    // which keep more of each item than a stream cut at the error).
    let lenient = try? XMLFeedReader.recover(bytes, url: url, limits: limits, text: text)
    let salvaged = ItemSalvage.read(bytes, url: url, limits: limits, text: text)
    let firstError = strict?.error ?? lenient?.error
    let candidates = [salvaged, lenient?.document, strict?.document].compactMap { $0 }
    guard var best = candidates.max(by: { $0.items.count < $1.items.count }),
      !best.items.isEmpty
    else {
      throw FeedError("not well-formed XML" + (firstError.map { ": \($0)" } ?? ""))
    }
    best.problems = strict?.notes ?? lenient?.notes ?? []
    let reason = firstError.map { " (\($0))" } ?? ""
    best.problems.append("not well-formed XML\(reason); kept \(best.items.count) items")
    return best
  }

  private static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count {
      let byte = bytes[index]
      if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D { return byte }
      index += 1
    }
    return nil
  }
}
