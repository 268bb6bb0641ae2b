/// Why a document could not be read (or was read only in part), with its place when known.
public struct MarkupError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem, so callers can tell a hostile document from a broken one.
  public enum Kind: Sendable, Equatable {
    /// The body is larger than the limit.
    case tooLarge
    /// The document declares entities (the root of billion-laughs and external-entity attacks).
    case entityDeclaration
    /// The XML is not well-formed (libxml2's message).
    case malformed
    /// The bytes are not text in the declared or guessed encoding.
    case encoding
  }

  /// The kind of problem.
  public var kind: Kind
  /// Lower-case message, libxml2's own where it gave one.
  public var message: String
  /// 1-based line, when known.
  public var line: Int?
  /// 1-based column, when known.
  public var column: Int?

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, line: Int? = nil, column: Int? = nil) {
    self.kind = kind
    self.message = message
    self.line = line
    self.column = column
  }

  public var description: String {
    guard let line else { return message }
    return "\(line):\(column ?? 1): \(message)"
  }
}

/// Limits applied before any parsing starts.
public struct MarkupLimits: Sendable {
  /// Largest document accepted, in bytes.
  public var maxBytes: Int

  /// Creates limits; the default accepts 16 MiB.
  public init(maxBytes: Int = 16 << 20) {
    self.maxBytes = maxBytes
  }
}
