import Markup

/// Reads any feed (RSS 0.9x/2.0, RSS 1.0, Atom 1.0/0.3, JSON Feed) into one model.
///
/// It recovers where a browser would: HTML entities such as `&nbsp;` are understood, a document
/// that is not UTF-8 and declares nothing is read as Windows-1252, a well-formedness error in
/// the middle (an unescaped `&`) does not lose the items after it, and a document cut off at the
/// end keeps every item before the cut. What was repaired is listed in ``FeedDocument/problems``.
/// Hostile documents (entity declarations, oversized bodies) are refused.
public enum FeedParser {
  /// Parses `bytes` fetched from `url` (used to make relative links absolute).
  public static func parse(
    _ bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits()
  ) throws -> FeedDocument {
    guard bytes.count <= limits.maxBytes else {
      throw FeedError("the feed is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
    }
    switch firstSignificantByte(bytes) {
    case UInt8(ascii: "{"):
      return try JSONFeedReader.read(bytes, url: url)
    case UInt8(ascii: "<"):
      return try readXML(bytes, url: url, limits: limits)
    case nil:
      throw FeedError("the document is empty")
    default:
      throw FeedError("not a feed: it starts with neither '<' (XML) nor '{' (JSON Feed)")
    }
  }

  private static func readXML(
    _ bytes: [UInt8], url: String, limits: MarkupLimits
  ) throws -> FeedDocument {
    let strict = try XMLFeedReader.read(bytes, url: url, limits: limits, recover: false)
    var document = strict.document
    document.problems = strict.notes
    guard let error = strict.error else { return document }
    // A well-formedness error: read again in libxml2's recovery mode and keep whichever
    // reading found more items.
    if let lenient = try? XMLFeedReader.read(bytes, url: url, limits: limits, recover: true),
      lenient.document.items.count > document.items.count
    {
      document = lenient.document
      document.problems = lenient.notes
      document.problems.append("not well-formed XML (\(error)); recovered \(document.items.count) items")
      return document
    }
    if document.items.isEmpty, error.line.map({ $0 <= 1 }) ?? true {
      throw FeedError("not well-formed XML: \(error)")
    }
    document.problems.append("the feed breaks off (\(error)); kept the \(document.items.count) items before it")
    return document
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
