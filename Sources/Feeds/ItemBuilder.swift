internal import ClarissaCore
internal import Foundation
internal import Markup

/// Gathers one item's fields as the XML reader meets them, then makes a ``FeedItem``.
struct ItemBuilder {
  var guid: String?
  var about: String?
  var title: (text: String, type: String?)?
  var link: String?
  var published: String?
  var updated: String?
  var summary: (text: String, type: String?)?
  var content: (text: String, type: String?)?
  var enclosures: [Enclosure] = []
  var categories: [String] = []
  var author: String?
  /// The item is an Atom entry: its links are Atom links whatever their namespace (feedparser
  /// reads a `<feed>` without the Atom namespace as Atom too).
  var atom = false

  /// The guid may stand for the link (RSS `isPermaLink` is true unless it says false).
  var guidIsPermaLink = true
  /// The keyed digest of the item as written, when its reader was given known items (``ItemPass``).
  var digest: XMLDigest?

  /// Applies one child element of the item, with all the text inside it; `hasMarkup` when it
  /// held elements (inline XHTML), whose text `text` then is.
  mutating func apply(_ element: XMLElement, text: String, nestedName: String?, hasMarkup: Bool) {
    let ns = element.namespace
    let shown: String? = hasMarkup ? "text" : nil
    // An Atom text construct that names no type is text (RFC 4287 3.1.1); RSS writes HTML.
    let untyped: String? = atom ? "text" : nil
    switch (element.name, ns) {
    case ("title", _) where ns != Namespace.media:
      title = Self.construct(element, text, type: untyped, shown: shown)
    case ("link", Namespace.atom?), ("link", Namespace.atom03?):
      applyAtomLink(element)
    case ("link", _) where atom && element.attribute("href") != nil:
      applyAtomLink(element)
    case ("link", _):
      if link == nil, !text.isBlank {
        link = text.trimmed
      } else if let href = element.attribute("href"), link == nil {
        link = href
      }
    case ("guid", _), ("id", _):
      if !text.isBlank { guid = text.trimmed }
      guidIsPermaLink = element.attribute("isPermaLink")?.lowercased() != "false"
    case ("pubDate", _), ("published", _), ("issued", _), ("created", _):
      if published == nil { published = text }
    case ("date", Namespace.dublinCore?):
      if published == nil { published = text }
    case ("updated", _), ("modified", _):
      updated = text
    case ("description", _), ("summary", _):
      if summary == nil { summary = Self.construct(element, text, type: untyped, shown: shown) }
    case ("encoded", Namespace.content?), ("content", Namespace.atom?),
      ("content", Namespace.atom03?):
      content = Self.construct(
        element, text, type: ns == Namespace.content ? "html" : untyped, shown: shown)
    case ("content", nil) where atom:
      content = Self.construct(element, text, type: untyped, shown: shown)
    case ("body", Namespace.xhtml?),
      ("body", nil) where !atom, ("fullitem", _):
      // RSS items that carry their whole text as XHTML (`<xhtml:body>`, or `<body>` without
      // its namespace, as feedparser reads it) or in `<fullitem>`.
      if content == nil { content = (text, shown ?? "html") }
    case ("enclosure", _), ("content", Namespace.media?), ("thumbnail", Namespace.media?):
      applyEnclosure(element)
    case ("category", _):
      if let term = element.attribute("term") ?? (text.isBlank ? nil : text.trimmed) {
        categories.append(term)
      }
    case ("subject", Namespace.dublinCore?):
      if !text.isBlank { categories.append(text.trimmed) }
    case ("author", _), ("creator", Namespace.dublinCore?):
      if author == nil { author = (nestedName ?? text).trimmed.nilIfEmpty }
    default:
      break
    }
  }

  /// A text construct's text and type: `shown` (`text`) when it is XHTML whose elements were
  /// read into its text already; Atom 0.3's `mode="base64"` decoded, and base64 too when the type is a media
  /// type that is neither text nor XML (`application/octet-stream`: RFC 4287 4.1.3.3, which
  /// feedparser applies to titles and summaries too); `mode="escaped"` read as the HTML it is.
  static func construct(
    _ element: XMLElement, _ text: String, type: String? = nil, shown: String? = nil
  ) -> (text: String, type: String?) {
    let declared = element.attribute("type") ?? type
    // XHTML's elements were read into the text; HTML written as elements (`<div>` in a
    // `type="html"` construct) is HTML still, as feedparser reads it.
    if let shown, declared.map({ $0.contains("xhtml") || $0.hasSuffix("xml") }) == true {
      return (text, shown)
    }
    switch element.attribute("mode") {
    case "base64": return (base64(text) ?? "", declared)
    case "escaped": return (text, element.attribute("type") ?? "html")
    default:
      guard let declared, isBinary(declared), let decoded = base64(text) else {
        return (text, declared)
      }
      return (decoded, declared)
    }
  }

  /// A media type whose content Atom writes in base64: not text, HTML, XHTML or XML.
  private static func isBinary(_ type: String) -> Bool {
    let type = type.lowercased()
    guard type.contains("/") else { return false }
    return !type.hasPrefix("text/") && !type.hasSuffix("xml") && !type.contains("html")
  }

  /// Base64 text (whitespace ignored) decoded as UTF-8; nil when it is not base64.
  private static func base64(_ text: String) -> String? {
    let compact = text.filter { !$0.isWhitespace }
    return Data(base64Encoded: compact).map { String(decoding: $0, as: UTF8.self) }
  }

  private mutating func applyAtomLink(_ element: XMLElement) {
    guard let href = element.attribute("href") else { return }
    switch element.attribute("rel") ?? "alternate" {
    case "alternate": if link == nil { link = href }
    case "enclosure":
      enclosures.append(
        Enclosure(
          url: href, type: element.attribute("type"),
          length: element.attribute("length").flatMap { Int($0) }))
    default: break
    }
  }

  private mutating func applyEnclosure(_ element: XMLElement) {
    guard
      let url = element.attribute("url") ?? element.attribute("resource", namespace: Namespace.rdf)
        ?? element.attribute("resource"), !url.isBlank
    else { return }
    if enclosures.contains(where: { $0.url == url }) { return }
    enclosures.append(
      Enclosure(
        url: url, type: element.attribute("type"),
        length: element.attribute("length").flatMap { Int($0) }))
  }

  /// The finished item, links made absolute against `base`; with `.deferred`, a description
  /// that needs the HTML parser is left in `html` (and `text` empty) unless the id is a hash.
  func build(
    base: URL?, html converter: HTMLText.Converter, text conversion: TextConversion = .eager
  ) -> FeedItem {
    let titleText = title.map { Self.plain($0.text, type: $0.type, converter) } ?? ""
    // As feedparser: the description is the summary where there is one, else the content; the
    // content is kept beside it.
    let body = summary ?? content
    let html = body.flatMap { Self.isHTML($0.type) ? $0.text : nil }
    let absoluteLink = (link ?? about ?? permaLink).map { Self.absolute($0, base: base) }
    let stableGuid = (guid ?? about).flatMap { $0.isBlank ? nil : $0 }
    let deferred =
      conversion == .deferred && (stableGuid != nil || absoluteLink != nil)
      && html.map(HTMLText.needsParser) == true
    let text = deferred ? "" : body.map { Self.plain($0.text, type: $0.type, converter) } ?? ""
    let (id, source): (String, FeedItem.IDSource) =
      if let stableGuid {
        (stableGuid, .guid)
      } else if let absoluteLink {
        (absoluteLink, .link)
      } else {
        (ContentHash.hex([titleText, text, published ?? ""]), .hash)
      }
    return FeedItem(
      id: id, idSource: source, title: titleText, link: absoluteLink,
      published: published.flatMap(FeedDate.parse), updated: updated.flatMap(FeedDate.parse),
      text: text, html: html,
      enclosures: enclosures.map {
        Enclosure(url: Self.absolute($0.url, base: base), type: $0.type, length: $0.length)
      },
      categories: categories, author: author,
      content: summary == nil ? nil : content.flatMap { $0.text.isBlank ? nil : $0.text },
      digest: digest)
  }

  var isEmpty: Bool { title == nil && link == nil && guid == nil && about == nil }

  /// The guid or Atom id when the item has no link and it is an http(s) address that is not
  /// said to be no permalink (feedparser's `guidislink`).
  private var permaLink: String? {
    guard guidIsPermaLink, let guid, guid.hasPrefix("http://") || guid.hasPrefix("https://"),
      URL(string: guid)?.host != nil
    else { return nil }
    return guid
  }

  /// Atom says what a text construct holds; RSS fields are HTML in practice.
  private static func isHTML(_ type: String?) -> Bool {
    guard let type else { return true }
    return type == "html" || type == "xhtml" || type.contains("html")
  }

  /// Text as it shows: HTML (RSS, which names no type, writes HTML) made text; a type that
  /// names no HTML (`text`, `text/plain`, a decoded `application/octet-stream`) as it is.
  private static func plain(_ text: String, type: String?, _ converter: HTMLText.Converter)
    -> String
  {
    if let type, !type.contains("html") { return HTMLText.normalize(text) }
    return converter.plainText(fromHTML: text)
  }

  private static func absolute(_ link: String, base: URL?) -> String {
    let trimmed = link.trimmed
    guard let base, !trimmed.utf8.starts(with: "http".utf8) || !hasScheme(trimmed),
      let url = URL(string: trimmed, relativeTo: base)
    else { return trimmed }
    return url.absoluteString
  }

  /// Whether a link starts with `scheme://` (a byte scan: this runs for every item).
  private static func hasScheme(_ link: String) -> Bool {
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in link.utf8.prefix(16) {
      if previous == (UInt8(ascii: ":"), UInt8(ascii: "/")) && byte == UInt8(ascii: "/") {
        return true
      }
      previous = (previous.1, byte)
    }
    return false
  }
}

extension String {
  /// Without leading and trailing white space (by Unicode scalar: cheaper than Foundation's).
  var trimmed: String {
    if let first = utf8.first, let last = utf8.last, !Self.isASCIISpace(first),
      !Self.isASCIISpace(last),
      first < 0x80, last < 0x80
    {
      return self
    }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    guard let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
    if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) {
      return self
    }
    return String(scalars[first...last])
  }
  var isBlank: Bool {
    if let first = utf8.first, first < 0x80, !Self.isASCIISpace(first) { return false }
    return unicodeScalars.allSatisfy(\.properties.isWhitespace)
  }

  private static func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }
  var nilIfEmpty: String? { isEmpty ? nil : self }
}
