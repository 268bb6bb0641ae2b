/// One step of a streaming XML read.
public enum XMLEvent: Sendable, Equatable {
  /// An element opens (an empty element is followed at once by its `end`).
  case start(XMLElement)
  /// An element closes.
  case end(name: String, namespace: String?)
  /// Character data: text or CDATA (entity and character references already replaced).
  case text(String)
}

/// An element's name and attributes, namespaces resolved.
public struct XMLElement: Sendable, Equatable {
  /// The local name (`item`, `link`).
  public var name: String
  /// The namespace URI, if any.
  public var namespace: String?
  /// Attributes in document order.
  public var attributes: [XMLAttribute]

  /// Creates an element.
  public init(name: String, namespace: String?, attributes: [XMLAttribute]) {
    self.name = name
    self.namespace = namespace
    self.attributes = attributes
  }

  /// The value of the attribute with this local name (and namespace, when given).
  public func attribute(_ name: String, namespace: String? = nil) -> String? {
    attributes.first { $0.name == name && (namespace == nil || $0.namespace == namespace) }?.value
  }
}

/// One attribute of an element.
public struct XMLAttribute: Sendable, Equatable {
  /// Local name.
  public var name: String
  /// Namespace URI, if any.
  public var namespace: String?
  /// The value, references replaced.
  public var value: String

  /// Creates an attribute.
  public init(name: String, namespace: String?, value: String) {
    self.name = name
    self.namespace = namespace
    self.value = value
  }
}
