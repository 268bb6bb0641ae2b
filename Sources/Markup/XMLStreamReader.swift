import CLibXML2

/// A streaming XML reader over libxml2's xmlTextReader, safe for hostile input: no network
/// (`XML_PARSE_NONET` only; never NOENT, DTDLOAD or HUGE), documents that declare entities are
/// refused before parsing, and the body size is capped.
///
/// HTML entities that real feeds use without declaring them (`&nbsp;`, `&eacute;`) are turned
/// into character references first, where a browser would have understood them; bytes that are
/// not UTF-8 in a document that declares no other encoding are read as Windows-1252.
///
/// libxml2 reads the bytes where they are (a 15 MB feed is not copied): a reader lives only
/// inside ``reading(bytes:url:limits:_:)``, which ends it when its body returns.
public final class XMLStreamReader {
  private var reader: xmlTextReaderPtr?
  private let errors = ErrorSink()
  private var pendingEnd: XMLEvent?
  private var finished = false
  /// Repairs made before parsing (entities replaced, encoding guessed), for reports.
  public let notes: [String]
  /// The first fatal problem, once `next()` has returned nil because of it.
  public private(set) var error: MarkupError?

  /// Prepares `bytes` (throws for oversized bodies and entity declarations), then gives `body`
  /// a reader of them; the reader ends when `body` returns (`next()` then returns nil).
  public static func reading<T>(
    bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits(),
    _ body: (XMLStreamReader) throws -> T
  ) throws -> T {
    let prepared = try PreparedXML(bytes, limits: limits)
    MarkupLibrary.initialize()
    // An empty buffer may have no address: libxml2 is given one byte's, and a length of 0.
    let input = prepared.bytes.isEmpty ? [0] : prepared.bytes
    return try input.withUnsafeBufferPointer { buffer in
      let stream = XMLStreamReader(
        buffer.baseAddress, count: prepared.bytes.count, url: url, encoding: prepared.encoding,
        notes: prepared.notes)
      defer { stream.end() }
      return try body(stream)
    }
  }

  private init(
    _ bytes: UnsafePointer<UInt8>?, count: Int, url: String, encoding: String?, notes: [String]
  ) {
    self.notes = notes
    let options = Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_COMPACT.rawValue)
    let reader = bytes.flatMap { bytes in
      Int32(exactly: count).flatMap { length in
        bytes.withMemoryRebound(to: CChar.self, capacity: max(count, 1)) {
          xmlReaderForMemory($0, length, url, encoding, options)
        }
      }
    }
    self.reader = reader
    let errors = self.errors
    if let reader {
      xmlTextReaderSetStructuredErrorHandler(
        reader,
        { context, error in
          guard let context, let error else { return }
          Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }, Unmanaged.passUnretained(errors).toOpaque())
    }
  }

  deinit {
    if let reader { xmlFreeTextReader(reader) }
  }

  /// Frees libxml2's reader before the bytes it reads go away; `next()` returns nil from here.
  private func end() {
    _ = finish()
    pendingEnd = nil
    if let reader { xmlFreeTextReader(reader) }
    reader = nil
  }

  /// The next event, or nil at the end of the document or at the first fatal error; with
  /// `skippingText`, text and white space are passed over (no string is made of them).
  public func next(skippingText: Bool = false) -> XMLEvent? {
    if let pending = pendingEnd {
      pendingEnd = nil
      return pending
    }
    guard !finished, let reader else { return finish() }
    while true {
      let status = xmlTextReaderRead(reader)
      guard status == 1 else { return finish() }
      switch xmlTextReaderNodeType(reader) {
      case Self.element:
        let element = currentElement(reader)
        if xmlTextReaderIsEmptyElement(reader) == 1 {
          pendingEnd = .end(name: element.name, namespace: element.namespace)
        }
        return .start(element)
      case Self.endElement:
        return .end(
          name: Self.string(xmlTextReaderConstLocalName(reader)) ?? "",
          namespace: Self.string(xmlTextReaderConstNamespaceUri(reader)))
      case Self.text, Self.cdata, Self.whitespace, Self.significantWhitespace:
        if skippingText { continue }
        return .text(Self.string(xmlTextReaderConstValue(reader)) ?? "")
      default:
        continue
      }
    }
  }

  private func finish() -> XMLEvent? {
    if !finished {
      finished = true
      if let problem = errors.first {
        error = problem
      } else if reader == nil {
        error = MarkupError(.malformed, "libxml2 could not start reading the document")
      }
    }
    return nil
  }

  private func currentElement(_ reader: xmlTextReaderPtr) -> XMLElement {
    let name = Self.string(xmlTextReaderConstLocalName(reader)) ?? ""
    let namespace = Self.string(xmlTextReaderConstNamespaceUri(reader))
    var attributes: [XMLAttribute] = []
    if xmlTextReaderHasAttributes(reader) == 1 {
      while xmlTextReaderMoveToNextAttribute(reader) == 1 {
        let attributeNamespace = Self.string(xmlTextReaderConstNamespaceUri(reader))
        if attributeNamespace == "http://www.w3.org/2000/xmlns/" { continue }
        attributes.append(
          XMLAttribute(
            name: Self.string(xmlTextReaderConstLocalName(reader)) ?? "",
            namespace: attributeNamespace,
            value: Self.string(xmlTextReaderConstValue(reader)) ?? ""))
      }
      xmlTextReaderMoveToElement(reader)
    }
    return XMLElement(name: name, namespace: namespace, attributes: attributes)
  }

  static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  private static let element = Int32(XML_READER_TYPE_ELEMENT.rawValue)
  private static let endElement = Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
  private static let text = Int32(XML_READER_TYPE_TEXT.rawValue)
  private static let cdata = Int32(XML_READER_TYPE_CDATA.rawValue)
  private static let whitespace = Int32(XML_READER_TYPE_WHITESPACE.rawValue)
  private static let significantWhitespace = Int32(
    XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue)
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
