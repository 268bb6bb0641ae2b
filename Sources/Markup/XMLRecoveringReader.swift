internal import CLibXML2

/// Reads a damaged XML document the way browsers do: libxml2 builds a tree in recovery mode
/// (an unescaped `&`, a mismatched tag or a cut-off end do not stop it), and the tree is played
/// back as the same ``XMLEvent``s the event parser gives. Same safety rules: no network, no
/// entity declarations, a size cap.
public final class XMLRecoveringReader {
  private var events: [XMLEvent] = []
  private var position = 0
  /// Repairs made before parsing, for reports.
  public let notes: [String]
  /// The first problem libxml2 recovered from, if any.
  public let error: MarkupError?

  /// Parses `bytes` at once; throws for oversized bodies, entity declarations, or nothing usable.
  public init(bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits()) throws {
    let prepared = try PreparedXML(bytes, limits: limits)
    notes = prepared.notes
    MarkupLibrary.initialize()
    let options =
      Int32(XML_PARSE_NONET.rawValue) | Int32(XML_PARSE_RECOVER.rawValue)
      | Int32(XML_PARSE_COMPACT.rawValue) | Int32(XML_PARSE_NOERROR.rawValue)
      | Int32(XML_PARSE_NOWARNING.rawValue)
    let errors = ErrorSink()
    let context = xmlNewParserCtxt()
    defer { xmlFreeParserCtxt(context) }
    xmlSetStructuredErrorFunc(Unmanaged.passUnretained(errors).toOpaque()) { sink, error in
      guard let sink, let error else { return }
      Unmanaged<ErrorSink>.fromOpaque(sink).takeUnretainedValue().record(error.pointee)
    }
    defer { xmlSetStructuredErrorFunc(nil, nil) }
    let document = prepared.repairedBytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        xmlCtxtReadMemory(context, $0.baseAddress, Int32($0.count), url, prepared.encoding, options)
      }
    }
    error = errors.first
    guard let document else {
      throw errors.first ?? MarkupError(.malformed, "libxml2 could not recover the document")
    }
    defer { xmlFreeDoc(document) }
    guard let root = xmlDocGetRootElement(document) else {
      throw errors.first ?? MarkupError(.malformed, "the document has no root element")
    }
    events = Self.play(root)
  }

  /// The next event, or nil at the end.
  public func next() -> XMLEvent? {
    guard position < events.count else { return nil }
    defer { position += 1 }
    return events[position]
  }

  /// The tree as start, text and end events, depth first, without recursion.
  private static func play(_ root: xmlNodePtr) -> [XMLEvent] {
    var events: [XMLEvent] = []
    var stack: [(node: xmlNodePtr, closing: Bool)] = [(root, false)]
    while let (node, closing) = stack.popLast() {
      let name = node.pointee.name.map { String(cString: $0) } ?? ""
      let namespace = node.pointee.ns?.pointee.href.map { String(cString: $0) }
      if closing {
        events.append(.end(name: name, namespace: namespace))
        continue
      }
      switch node.pointee.type {
      case XML_ELEMENT_NODE:
        events.append(
          .start(XMLElement(name: name, namespace: namespace, attributes: attributes(of: node))))
        stack.append((node, true))
        var children: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
          children.append(current)
          child = current.pointee.next
        }
        stack.append(contentsOf: children.reversed().map { ($0, false) })
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if let content = node.pointee.content { events.append(.text(String(cString: content))) }
      default:
        continue
      }
    }
    return events
  }

  private static func attributes(of node: xmlNodePtr) -> [XMLAttribute] {
    var result: [XMLAttribute] = []
    var attribute = node.pointee.properties
    while let current = attribute {
      let name = current.pointee.name.map { String(cString: $0) } ?? ""
      let namespace = current.pointee.ns?.pointee.href.map { String(cString: $0) }
      var value = ""
      if let text = xmlNodeListGetString(node.pointee.doc, current.pointee.children, 1) {
        value = String(cString: text)
        clarissa_xml_free(text)
      }
      result.append(XMLAttribute(name: name, namespace: namespace, value: value))
      attribute = current.pointee.next
    }
    return result
  }
}
