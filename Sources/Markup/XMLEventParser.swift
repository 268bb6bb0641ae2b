internal import CLibXML2

/// A streaming XML parser over libxml2's SAX2 interface, safe for hostile input: no network
/// (`XML_PARSE_NONET` only; never NOENT, DTDLOAD or HUGE), documents that declare entities are
/// refused before parsing, and the body size is capped.
///
/// HTML entities that real feeds use without declaring them (`&nbsp;`, `&eacute;`) are turned
/// into character references as the bytes are given to libxml2, where a browser would have
/// understood them; bytes that are not UTF-8 in a document that declares no other encoding are
/// read as Windows-1252.
///
/// libxml2 is given the bytes a chunk at a time (a 15 MB feed is never copied whole) and builds
/// no tree: each
/// element and each run of text is handed on as it is read (libxml2's reader, used before, made
/// and freed a node for each, at about three times the cost). Text split by libxml2 (at entity
/// references, every 300 bytes, at CDATA sections) is joined into one event.
public final class XMLEventParser {
  /// What a parse leaves besides its events.
  public struct Outcome: Sendable {
    /// The first fatal problem; the events before it were given.
    public let error: MarkupError?
    /// Repairs made before parsing (entities replaced, encoding guessed), for reports.
    public let notes: [String]
  }

  private let handle: (XMLEvent) throws -> Void
  private let skippingText: () -> Bool
  let passDepth: () -> Int?
  let passing: (XMLDigest) -> Bool
  private let errors = ErrorSink()
  private var context: xmlParserCtxtPtr?
  private var text: [UInt8] = []
  private var wantsText: Bool
  private var thrown: Error?

  /// Prepares `bytes` (throws for oversized bodies and entity declarations), then gives each
  /// event to `handle` in document order. `skippingText` is asked after each element's start
  /// and end: while it says so, text is passed over (no string is made of it). An error thrown
  /// by `handle` stops the parse and is thrown from here.
  ///
  /// `passDepth` is asked once the root element has been handed over: the depth (the root's
  /// children are 2) of the elements its reader may pass over, or nil. In a UTF-8 document each
  /// element of that depth is then digested before libxml2 reads it (its bytes as written, with
  /// everything before the root and the start tags of the elements it is in: ``XMLDigest``)
  /// and `passing` is given the digest: when it says so, the element is passed over unread
  /// (none of its events is handed over, and libxml2 never sees it), else it is read as usual.
  /// `passing` is asked only when every event before the element has been handed over (its
  /// reader's state is what it will be when the element is read); else the element is read.
  /// White space between elements of that depth is not handed over.
  public static func parse(
    bytes: [UInt8], limits: MarkupLimits = MarkupLimits(),
    skippingText: () -> Bool = { false }, passDepth: () -> Int? = { nil },
    passing: (XMLDigest) -> Bool = { _ in false }, _ handle: (XMLEvent) throws -> Void
  ) throws -> Outcome {
    let prepared = try PreparedXML(bytes, limits: limits)
    MarkupLibrary.initialize()
    return try withoutActuallyEscaping(handle) { handle in
      try withoutActuallyEscaping(skippingText) { skippingText in
        try withoutActuallyEscaping(passDepth) { passDepth in
          try withoutActuallyEscaping(passing) { passing in
            let parser = XMLEventParser(
              handle: handle, skippingText: skippingText, passDepth: passDepth, passing: passing)
            let error = parser.run(prepared)
            if let thrown = parser.thrown { throw thrown }
            return Outcome(error: error, notes: prepared.notes)
          }
        }
      }
    }
  }

  private init(
    handle: @escaping (XMLEvent) throws -> Void, skippingText: @escaping () -> Bool,
    passDepth: @escaping () -> Int?, passing: @escaping (XMLDigest) -> Bool
  ) {
    self.handle = handle
    self.skippingText = skippingText
    self.passDepth = passDepth
    self.passing = passing
    wantsText = !skippingText()
    text.reserveCapacity(4096)
  }

  /// Parses the prepared bytes, a chunk at a time (libxml2's push parser copies each chunk
  /// into its own buffer and drops what it has read: the body is not copied whole, and its HTML
  /// entities are replaced a chunk at a time); the first fatal problem, if any.
  private func run(_ prepared: PreparedXML) -> MarkupError? {
    // libxml2 would call an empty document "extra content at the end of the document".
    guard !prepared.bytes.isEmpty else { return Self.empty }
    var handler = Self.handler()
    let me = Unmanaged.passUnretained(self).toOpaque()
    guard let context = xmlCreatePushParserCtxt(&handler, me, nil, 0, nil) else {
      return Self.couldNotStart
    }
    defer { xmlFreeParserCtxt(context) }
    self.context = context
    defer { self.context = nil }
    _ = xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
    if let encoding = prepared.encoding, let converter = xmlFindCharEncodingHandler(encoding) {
      _ = xmlSwitchToEncoding(context, converter)
    }
    prepared.bytes.withUnsafeBufferPointer { bytes in
      var feed = ChunkFeed(context: context, bytes: bytes, repairs: prepared.repairs) {
        [unowned self] in !self.stopped
      }
      if prepared.isUTF8 { passOver(bytes, feed: &feed) }
      feed.give(upTo: bytes.count)
      if !stopped { _ = xmlParseChunk(context, nil, 0, 1) }
    }
    if !stopped { flushText() }
    return errors.first
  }

  /// A fatal error or the handler's stopped the parse.
  var stopped: Bool { thrown != nil || errors.first != nil }

  private static let empty = MarkupError(.malformed, "the document is empty")
  private static let couldNotStart = MarkupError(
    .malformed, "libxml2 could not start reading the document")

  private func give(_ event: XMLEvent) {
    guard thrown == nil else { return }
    do {
      try handle(event)
    } catch {
      thrown = error
      if let context { xmlStopParser(context) }
    }
  }

  /// The text collected since the last element's start or end, as one event.
  private func flushText() {
    guard !text.isEmpty else { return }
    let joined = String(decoding: text, as: UTF8.self)
    text.removeAll(keepingCapacity: true)
    give(.text(joined))
  }

  private func start(
    _ name: UnsafePointer<xmlChar>?, _ namespace: UnsafePointer<xmlChar>?, _ count: Int32,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  ) {
    flushText()
    var list: [XMLAttribute] = []
    if count > 0, let attributes {
      list.reserveCapacity(Int(count))
      // Five pointers an attribute: local name, prefix, namespace, value start, value end.
      for index in 0..<Int(count) {
        let base = attributes + index * 5
        guard let valueStart = base[3], let valueEnd = base[4] else { continue }
        let value = UnsafeBufferPointer(start: valueStart, count: valueEnd - valueStart)
        list.append(
          XMLAttribute(
            name: Self.string(base[0]) ?? "", namespace: Self.string(base[2]),
            value: Self.attributeValue(value)))
      }
    }
    give(
      .start(
        XMLElement(
          name: Self.string(name) ?? "", namespace: Self.string(namespace), attributes: list)))
    wantsText = !skippingText()
  }

  private func end(_ name: UnsafePointer<xmlChar>?, _ namespace: UnsafePointer<xmlChar>?) {
    flushText()
    give(.end(name: Self.string(name) ?? "", namespace: Self.string(namespace)))
    wantsText = !skippingText()
  }

  private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    guard wantsText, thrown == nil, let bytes, count > 0 else { return }
    text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
  }

  /// An attribute's value as libxml2's SAX2 interface gives it: without entity replacement
  /// asked for (never: see the type's note), an `&` written as `&amp;` or `&#38;` comes as
  /// `&#38;`, which the tree builder would have turned back; here too.
  static func attributeValue(_ bytes: UnsafeBufferPointer<xmlChar>) -> String {
    guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "&"), index + 5 <= bytes.count,
        bytes[index..<index + 5].elementsEqual(Self.ampersand)
      {
        out.append(UInt8(ascii: "&"))
        index += 5
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  private static let ampersand = Array("&#38;".utf8)

  static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  private static func parser(_ context: UnsafeMutableRawPointer?) -> XMLEventParser? {
    context.map { Unmanaged<XMLEventParser>.fromOpaque($0).takeUnretainedValue() }
  }

  /// The callbacks: elements, text and CDATA, structured errors; nothing else (no tree, no
  /// entity look-up beyond XML's own five, no DTD).
  private static func handler() -> xmlSAXHandler {
    var handler = xmlSAXHandler()
    handler.initialized = XML_SAX2_MAGIC
    handler.startElementNs = { context, name, _, namespace, _, _, count, _, attributes in
      XMLEventParser.parser(context)?.start(name, namespace, count, attributes)
    }
    handler.endElementNs = { context, name, _, namespace in
      XMLEventParser.parser(context)?.end(name, namespace)
    }
    handler.characters = { context, bytes, count in
      XMLEventParser.parser(context)?.characters(bytes, count)
    }
    handler.ignorableWhitespace = handler.characters
    handler.cdataBlock = handler.characters
    handler.serror = { context, error in
      guard let error else { return }
      XMLEventParser.parser(context)?.errors.record(error.pointee)
    }
    return handler
  }
}

/// Collects libxml2's structured errors; keeps the first fatal one.
final class ErrorSink {
  private(set) var first: MarkupError?

  func record(_ error: xmlError) {
    guard error.level.rawValue >= XML_ERR_ERROR.rawValue, first == nil else { return }
    let raw = error.message.map { String(cString: $0) } ?? "malformed XML"
    let message = raw.trimmingWhitespace().lowercasedFirst()
    let kind: MarkupError.Kind =
      raw.contains("UTF-8") || raw.contains("encoding") ? .encoding : .malformed
    first = MarkupError(
      kind, message, line: error.line > 0 ? Int(error.line) : nil,
      column: error.int2 > 0 ? Int(error.int2) : nil)
  }
}

/// One-time libxml2 set-up.
enum MarkupLibrary {
  private static let once: Void = { xmlInitParser() }()

  static func initialize() { _ = once }
}

extension String {
  func trimmingWhitespace() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[start...end])
  }

  func lowercasedFirst() -> String {
    guard let first = first, first.isUppercase, dropFirst().first?.isUppercase != true else {
      return self
    }
    return first.lowercased() + dropFirst()
  }
}
