import CLibXML2

/// A streaming XML parser over libxml2's SAX2 interface, safe for hostile input: no network
/// (`XML_PARSE_NONET` only; never NOENT, DTDLOAD or HUGE), documents that declare entities are
/// refused before parsing, and the body size is capped.
///
/// HTML entities that real feeds use without declaring them (`&nbsp;`, `&eacute;`) are turned
/// into character references first, where a browser would have understood them; bytes that are
/// not UTF-8 in a document that declares no other encoding are read as Windows-1252.
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
  private let folding: () -> Bool
  private let unfolding: (XMLDigest) -> Bool
  private var fold = FoldBuffer()
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
  /// `folding` is asked after each element's start is handed over (outside a folded element):
  /// when it says so, the element is folded. Nothing inside it is handed over as it is read; at
  /// its end `unfolding` is given the digest of all it held (``XMLDigest``), and only if it says
  /// so are its events handed over then, as they would have been, followed by its end; else its
  /// end alone. A reader that knows an element by its digest so never reads it.
  public static func parse(
    bytes: [UInt8], limits: MarkupLimits = MarkupLimits(),
    skippingText: () -> Bool = { false }, folding: () -> Bool = { false },
    unfolding: (XMLDigest) -> Bool = { _ in true }, _ handle: (XMLEvent) throws -> Void
  ) throws -> Outcome {
    let prepared = try PreparedXML(bytes, limits: limits)
    MarkupLibrary.initialize()
    return try withoutActuallyEscaping(handle) { handle in
      try withoutActuallyEscaping(skippingText) { skippingText in
        try withoutActuallyEscaping(folding) { folding in
          try withoutActuallyEscaping(unfolding) { unfolding in
            let parser = XMLEventParser(
              handle: handle, skippingText: skippingText, folding: folding, unfolding: unfolding)
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
    folding: @escaping () -> Bool, unfolding: @escaping (XMLDigest) -> Bool
  ) {
    self.handle = handle
    self.skippingText = skippingText
    self.folding = folding
    self.unfolding = unfolding
    wantsText = !skippingText()
    text.reserveCapacity(4096)
  }

  /// Parses the prepared bytes, a chunk at a time (libxml2's push parser copies each chunk
  /// into its own buffer and drops what it has read: the body is not copied whole); the first
  /// fatal problem, if any.
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
    prepared.bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { bytes in
        var offset = 0
        while offset < bytes.count, !stopped {
          let length = min(Self.chunk, bytes.count - offset)
          _ = xmlParseChunk(context, bytes.baseAddress.map { $0 + offset }, Int32(length), 0)
          offset += length
        }
        if !stopped { _ = xmlParseChunk(context, nil, 0, 1) }
      }
    }
    if !stopped { flushText() }
    return errors.first
  }

  /// A fatal error or the handler's stopped the parse.
  private var stopped: Bool { thrown != nil || errors.first != nil }

  /// Bytes given to libxml2 at a time.
  private static let chunk = 256 << 10

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
    guard !fold.isFolding else { return fold.start(name, namespace, count, attributes) }
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
    if thrown == nil, folding() { fold.start(name, namespace, count, attributes) }
  }

  private func end(_ name: UnsafePointer<xmlChar>?, _ namespace: UnsafePointer<xmlChar>?) {
    if fold.isFolding {
      guard fold.end(name, namespace) else { return }
      defer { fold.reset() }
      if unfolding(fold.digest) {
        fold.replay(wantsText: { !skippingText() }, give)
      } else {
        give(.end(name: Self.string(name) ?? "", namespace: Self.string(namespace)))
      }
      wantsText = !skippingText()
      return
    }
    flushText()
    give(.end(name: Self.string(name) ?? "", namespace: Self.string(namespace)))
    wantsText = !skippingText()
  }

  private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int32) {
    if fold.isFolding, let bytes, count > 0 { return fold.text(bytes, Int(count)) }
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
