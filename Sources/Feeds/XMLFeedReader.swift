internal import Foundation
internal import Markup

/// Reads RSS 0.9x/2.0, RSS 1.0 (RDF) and Atom 1.0/0.3 from XML events into a ``FeedDocument``.
struct XMLFeedReader {
  private var format: FeedFormat?
  private var depth = 0
  private var channelTitle = ""
  private var channelLink: String?
  private var items: [FeedItem] = []
  private var item: ItemBuilder?
  private var itemDepth = 0
  private var field: (element: XMLElement, depth: Int, text: String, nestedName: String?)?
  private var inNestedName = false
  /// The field holds elements (inline XHTML, unescaped HTML): its text is then the text they
  /// show, collected here, not markup to read again.
  private var fieldHasMarkup = false
  /// Inside a script or style element of a field: its text is left out.
  private var skippedDepth = 0
  private var channelField: (name: String, text: String)?
  private let base: URL?
  private var resolvedBase: (link: String?, url: URL?)?
  private let html = HTMLText.Converter()
  private let conversion: TextConversion
  /// The items it may pass over unread, and the digests of those it did, in document order.
  private let pass: ItemPass?
  private(set) var passed: [XMLDigest] = []
  /// The keyed digest of the element about to be read at the items' depth, for the item it
  /// starts; and what digests are keyed to, with the channel link it was worked out for.
  private var pending: XMLDigest?
  private var keying: (link: String?, key: XMLDigest)?

  /// No root element was read: the document is empty, or broken before its first element.
  struct NoRootElement: Error {}

  init(url: String, text: TextConversion = .eager, passing pass: ItemPass? = nil) {
    base = URL(string: url)
    conversion = text
    self.pass = pass
  }

  /// Reads the document as it streams; a fatal error keeps what was read before it. With
  /// `passing`, each item is digested before it is read (``XMLEventParser``) and a known one
  /// passed over.
  static func read(
    _ bytes: [UInt8], url: String, limits: MarkupLimits, text: TextConversion = .eager,
    passing pass: ItemPass? = nil
  ) throws -> (document: FeedDocument, error: MarkupError?, notes: [String], passed: [XMLDigest]) {
    var reader = XMLFeedReader(url: url, text: text, passing: pass)
    let outcome = try markup {
      try XMLEventParser.parse(
        bytes: bytes, limits: limits, skippingText: { reader.ignoresText },
        passDepth: { reader.passDepth }, passing: { reader.passes($0) }
      ) { try reader.consume($0) }
    }
    let document = try reader.finish(truncated: outcome.error != nil)
    return (document, outcome.error, outcome.notes, reader.passed)
  }

  /// The depth of the items it may pass over: the channel's children in RSS 0.9x and 2.0, the
  /// root's in RSS 1.0 and Atom.
  private var passDepth: Int? {
    guard pass != nil, let format else { return nil }
    return format == .rss2 || format == .rss09 ? 3 : 2
  }

  /// The element about to be read at the items' depth, by its digest keyed to the feed
  /// (``ItemPass/key(format:base:)``): passed over when known; else its digest is the item's.
  private mutating func passes(_ digest: XMLDigest) -> Bool {
    guard let pass, let format else { return false }
    let key: XMLDigest
    if let keying, keying.link == channelLink {
      key = keying.key
    } else {
      key = pass.key(format: format, base: feedBase?.absoluteString)
      keying = (channelLink, key)
    }
    let keyed = digest.mixed(with: key)
    guard pass.known[keyed] == nil else {
      passed.append(keyed)
      return true
    }
    pending = keyed
    return false
  }

  /// Reads a damaged document through libxml2's recovery mode.
  static func recover(
    _ bytes: [UInt8], url: String, limits: MarkupLimits, text: TextConversion = .eager
  ) throws -> (document: FeedDocument, error: MarkupError?, notes: [String]) {
    let tree = try markup { try XMLRecoveringReader(bytes: bytes, url: url, limits: limits) }
    var reader = XMLFeedReader(url: url, text: text)
    while let event = tree.next() { try reader.consume(event) }
    return (try reader.finish(truncated: false), tree.error, tree.notes)
  }

  private static func markup<T>(_ make: () throws -> T) throws -> T {
    do {
      return try make()
    } catch let error as MarkupError {
      throw FeedError(error.description)
    }
  }

  private mutating func consume(_ event: XMLEvent) throws {
    switch event {
    case .start(let element):
      depth += 1
      // The digest given for this element (``passes(_:)``), when it is of the items' depth.
      let digest = depth == passDepth ? pending.take() : nil
      if depth == 1 {
        format = try Self.format(ofRoot: element)
      } else if item == nil, isItem(element) {
        item = ItemBuilder()
        item?.digest = digest
        item?.atom = format == .atom1 || format == .atom03
        item?.about = element.attribute("about", namespace: Namespace.rdf)
        itemDepth = depth
      } else if item != nil {
        openField(element)
      } else if isChannelField(element) {
        channelField = (element.name, "")
        if element.name == "link", let href = element.attribute("href"),
          element.attribute("rel") ?? "alternate" == "alternate"
        {
          channelLink = channelLink ?? href
        }
      }
    case .text(let text):
      if field != nil {
        guard skippedDepth == 0 else { return }
        // Appended in place (a copy of the field would copy its element too).
        field?.text += text
        if inNestedName {
          let name = (field?.nestedName ?? "") + text
          field?.nestedName = name
        }
      } else if channelField != nil {
        channelField?.text += text
      }
    case .end(let name, _):
      if let fieldDepth = field?.depth, depth > fieldDepth { closeInline(name) }
      closeElement()
      depth -= 1
    }
  }

  /// Whether text here is read: inside an item's field (not in a script or style of it), or a
  /// channel's title or link. Elsewhere the stream is asked to make no string of it.
  private var ignoresText: Bool {
    field == nil ? channelField == nil : skippedDepth > 0
  }

  private mutating func openField(_ element: XMLElement) {
    if depth == itemDepth + 1 {
      field = (element, depth, "", nil)
      (fieldHasMarkup, skippedDepth) = (false, 0)
    } else if field != nil {
      if element.name == "name" { inNestedName = true }
      fieldHasMarkup = true
      if HTMLText.isSkipped(element.name) { skippedDepth += 1 }
      if skippedDepth == 0 { field?.text += HTMLText.lineBreaks(at: element.name) }
    }
  }

  /// The end of an element inside a field: a line break after a block, the end of a script.
  private mutating func closeInline(_ name: String) {
    if HTMLText.isSkipped(name) {
      skippedDepth = max(0, skippedDepth - 1)
    } else if skippedDepth == 0, name != "br" {
      field?.text += HTMLText.lineBreaks(at: name)
    }
  }

  private mutating func closeElement() {
    if field?.depth == depth, let current = field.take() {
      item?.apply(
        current.element, text: current.text, nestedName: current.nestedName,
        hasMarkup: fieldHasMarkup)
    } else if field != nil {
      inNestedName = false
    }
    if let built = item, depth == itemDepth {
      items.append(built.build(base: feedBase, html: html, text: conversion))
      item = nil
    }
    if let current = channelField, item == nil, field == nil {
      if current.name == "title", channelTitle.isEmpty {
        channelTitle = html.plainText(fromHTML: current.text)
      }
      if current.name == "link", channelLink == nil, !current.text.isBlank {
        channelLink = current.text.trimmed
      }
      channelField = nil
    }
  }

  /// The base of the items' relative links: the channel's link when absolute, else the feed's
  /// URL. Worked out once per channel link, not once per item.
  private var feedBase: URL? {
    mutating get {
      if let (link, url) = resolvedBase, link == channelLink { return url }
      let url =
        channelLink.flatMap { URL(string: $0) }.flatMap { $0.scheme == nil ? nil : $0 } ?? base
      resolvedBase = (channelLink, url)
      return url
    }
  }

  private mutating func finish(truncated: Bool) throws -> FeedDocument {
    // A document cut off inside an item keeps that item when it has something to show.
    if truncated, let partial = item, !partial.isEmpty {
      var builder = partial
      if let current = field {
        builder.apply(
          current.element, text: current.text, nestedName: current.nestedName,
          hasMarkup: fieldHasMarkup)
      }
      items.append(builder.build(base: feedBase, html: html, text: conversion))
    }
    guard let format else { throw NoRootElement() }
    return FeedDocument(
      format: format, title: channelTitle, link: channelLink, items: items, problems: [])
  }

  private func isChannelField(_ element: XMLElement) -> Bool {
    guard element.name == "title" || element.name == "link" else { return false }
    switch format {
    case .atom1, .atom03: return depth == 2
    default: return depth == 3
    }
  }

  /// An RSS `item`, or an Atom `entry`: in the Atom namespace, or in a `<feed>` read as Atom
  /// whatever its namespace (as feedparser does).
  private func isItem(_ element: XMLElement) -> Bool {
    guard element.name != "item" else { return true }
    guard element.name == "entry" else { return false }
    return element.namespace == Namespace.atom || element.namespace == Namespace.atom03
      || format == .atom1 || format == .atom03
  }

  private static func format(ofRoot element: XMLElement) throws -> FeedFormat {
    switch (element.name, element.namespace) {
    case ("rss", _):
      let version = element.attribute("version") ?? "2.0"
      return version.hasPrefix("0.9") ? .rss09 : .rss2
    case ("RDF", Namespace.rdf?): return .rss1
    case ("feed", Namespace.atom?): return .atom1
    case ("feed", Namespace.atom03?): return .atom03
    // A `<feed>` without the Atom namespace, or with another one, is read as Atom (feedparser
    // does the same; such feeds exist, written by hand or by old tools).
    case ("feed", _): return .atom1
    default:
      throw FeedError(
        "not a feed: the root element is <\(element.name)>, not <rss>, <rdf:RDF> or <feed>")
    }
  }
}
