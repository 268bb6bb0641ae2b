internal import CLibXML2

/// An HTML document parsed by libxml2's HTML parser, which recovers from broken markup the way
/// browsers do. Nodes are read through ``HTMLNode``; the document frees libxml2's tree when the
/// last reference to it goes.
public final class HTMLDocument {
  let pointer: htmlDocPtr

  /// Parses `bytes`; the encoding comes from the bytes (UTF-8 when valid, else the page's own
  /// `<meta charset>` or libxml2's guess).
  public init(bytes: [UInt8], url: String = "", limits: MarkupLimits = MarkupLimits()) throws {
    guard bytes.count <= limits.maxBytes else {
      throw MarkupError(
        .tooLarge, "the document is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
    }
    MarkupLibrary.initialize()
    let options =
      Int32(HTML_PARSE_RECOVER.rawValue) | Int32(HTML_PARSE_NOERROR.rawValue)
      | Int32(HTML_PARSE_NOWARNING.rawValue) | Int32(HTML_PARSE_NONET.rawValue)
      | Int32(HTML_PARSE_COMPACT.rawValue)
    let encoding = UTF8Check.isValid(bytes) ? "UTF-8" : nil
    let document = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        htmlReadMemory($0.baseAddress, Int32($0.count), url, encoding, options)
      }
    }
    guard let document else {
      throw MarkupError(.malformed, "libxml2 could not read the HTML document")
    }
    pointer = document
  }

  /// Parses a string of HTML (a whole page or a fragment).
  public convenience init(html: String, limits: MarkupLimits = MarkupLimits()) throws {
    try self.init(bytes: Array(html.utf8), limits: limits)
  }

  deinit {
    if let xpathContext { xmlXPathFreeContext(xpathContext) }
    xmlFreeDoc(pointer)
  }

  /// One XPath context for every evaluation on this document (made on first use).
  lazy var xpathContext: xmlXPathContextPtr? = {
    let context = xmlXPathNewContext(pointer)
    if let context { clarissa_xpath_quiet(context) }
    return context
  }()

  /// The `<html>` element.
  public var root: HTMLNode? {
    xmlDocGetRootElement(pointer).map { HTMLNode(pointer: $0, document: self) }
  }

  /// Every element named `name` (lower case), in document order.
  public func elements(named name: String) -> [HTMLNode] {
    root?.descendants(named: name, includingSelf: true) ?? []
  }
}

/// An element of an ``HTMLDocument``; it keeps its document alive.
public struct HTMLNode {
  let pointer: xmlNodePtr
  let document: HTMLDocument

  /// The element's name, lower case.
  public var name: String {
    pointer.pointee.name.map { String(cString: $0) } ?? ""
  }

  /// An attribute's value, entities decoded.
  public func attribute(_ name: String) -> String? {
    guard let value = xmlGetProp(pointer, name) else { return nil }
    defer { clarissa_xml_free(value) }
    return String(cString: value)
  }

  /// The words of the `class` attribute.
  public var classes: [Substring] {
    attribute("class")?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) ?? []
  }

  /// Whether `class` contains this word.
  public func hasClass(_ word: String) -> Bool { classes.contains { $0 == word } }

  /// All text inside, as written (no spacing added between blocks).
  public var textContent: String {
    guard let content = xmlNodeGetContent(pointer) else { return "" }
    defer { clarissa_xml_free(content) }
    return String(cString: content)
  }

  /// Child elements, in order.
  public var children: [HTMLNode] {
    var result: [HTMLNode] = []
    var child = pointer.pointee.children
    while let node = child {
      if node.pointee.type == XML_ELEMENT_NODE {
        result.append(HTMLNode(pointer: node, document: document))
      }
      child = node.pointee.next
    }
    return result
  }

  /// Descendant elements named `name`, depth first, without recursion (deep pages are safe).
  public func descendants(named name: String, includingSelf: Bool = false) -> [HTMLNode] {
    var result: [HTMLNode] = []
    var stack: [xmlNodePtr] = includingSelf ? [pointer] : Self.childPointers(of: pointer).reversed()
    while let node = stack.popLast() {
      guard node.pointee.type == XML_ELEMENT_NODE else { continue }
      if let raw = node.pointee.name, String(cString: raw) == name {
        result.append(HTMLNode(pointer: node, document: document))
      }
      stack.append(contentsOf: Self.childPointers(of: node).reversed())
    }
    return result
  }

  /// The first descendant named `name` carrying class `word` (any class when nil).
  public func first(_ name: String, class word: String? = nil) -> HTMLNode? {
    descendants(named: name).first { word == nil || $0.hasClass(word ?? "") }
  }

  static func childPointers(of node: xmlNodePtr) -> [xmlNodePtr] {
    var result: [xmlNodePtr] = []
    var child = node.pointee.children
    while let current = child {
      result.append(current)
      child = current.pointee.next
    }
    return result
  }
}
