internal import CLibXML2

/// An XPath 1.0 expression compiled once by libxml2, for reading many pages.
public final class XPathExpression: @unchecked Sendable {
  // Holds libxml2's compiled expression (a C pointer), read-only once made: libxml2 evaluates
  // it from many contexts at once.
  let compiled: xmlXPathCompExprPtr
  /// The expression as written.
  public let text: String

  /// Compiles `text`; a syntax error says what libxml2 found and the offset (0-based, in
  /// characters) where it stopped.
  public init(_ text: String) throws(XPathError) {
    MarkupLibrary.initialize()
    guard let context = xmlXPathNewContext(nil) else {
      throw XPathError(message: "libxml2 could not make an XPath context", offset: 0)
    }
    defer { xmlXPathFreeContext(context) }
    clarissa_xpath_quiet(context)
    guard let compiled = xmlXPathCtxtCompile(context, text) else {
      let error = context.pointee.lastError
      let message = error.message.map { String(cString: $0) } ?? "invalid expression"
      let bytes = max(0, Int(error.int1))
      throw XPathError(
        message: message.trimmingWhitespace().lowercasedFirst(),
        offset: String(decoding: text.utf8.prefix(bytes), as: UTF8.self).count)
    }
    self.compiled = compiled
    self.text = text
  }

  deinit { xmlXPathFreeCompExpr(compiled) }
}

/// Why an XPath expression does not compile.
public struct XPathError: Error, Sendable, Equatable {
  /// libxml2's message, lower case (`invalid predicate`).
  public var message: String
  /// Where in the expression it stopped, in characters from 0.
  public var offset: Int
}

/// What an expression gives: nodes (elements, attributes, text), or a value.
public enum XPathResult {
  case nodes([HTMLNode])
  case string(String)
  case number(Double)
  case boolean(Bool)
}

extension HTMLNode {
  /// Evaluates `expression` with this node as the context node.
  public func evaluate(_ expression: XPathExpression) -> XPathResult {
    guard let context = document.xpathContext else { return .nodes([]) }
    context.pointee.node = pointer
    guard let object = xmlXPathCompiledEval(expression.compiled, context) else {
      return .nodes([])
    }
    defer { xmlXPathFreeObject(object) }
    switch object.pointee.type {
    case XPATH_NODESET:
      guard let set = object.pointee.nodesetval, set.pointee.nodeNr > 0 else { return .nodes([]) }
      let nodes = (0..<Int(set.pointee.nodeNr)).compactMap { set.pointee.nodeTab[$0] }
      return .nodes(nodes.map { HTMLNode(pointer: $0, document: document) })
    case XPATH_STRING:
      return .string(object.pointee.stringval.map { String(cString: $0) } ?? "")
    case XPATH_NUMBER: return .number(object.pointee.floatval)
    case XPATH_BOOLEAN: return .boolean(object.pointee.boolval != 0)
    default: return .nodes([])
    }
  }
}
