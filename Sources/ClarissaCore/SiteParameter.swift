/// A key that one site accepts in a search, declared so that `validate` can check it.
public struct SiteParameter: Sendable, Equatable {
  /// The type of a parameter's value.
  public enum Kind: Sendable, Equatable {
    /// Free text.
    case text
    /// `true` or `false`.
    case bool
    /// A whole number in a range.
    case integer(ClosedRange<Int>)
    /// One of a fixed list of words.
    case choice([String])
    /// One or more of a fixed list of words (a word or a YAML list of them).
    case choices([String])
    /// One or more http(s) URLs.
    case urls
  }

  /// The YAML key.
  public var name: String
  /// The value's type.
  public var kind: Kind
  /// What it does, one line.
  public var summary: String
  /// A value that works, shown in help and docs.
  public var example: String
  /// The value used when a search leaves it out; nil when there is none.
  public var defaultValue: String?
  /// Whether every search on the site must set it.
  public var isRequired: Bool
  /// Values that work but deserve a warning, with the warning's text.
  public var cautions: [String: String]
  /// Whether a search with a pasted `url:` may set it (how answers are read, not what is
  /// searched: the URL carries that).
  public var keptWithURL = false

  /// Creates a parameter declaration.
  public init(
    _ name: String, _ kind: Kind, summary: String, example: String, defaultValue: String? = nil,
    isRequired: Bool = false, cautions: [String: String] = [:], keptWithURL: Bool = false
  ) {
    self.name = name
    self.kind = kind
    self.summary = summary
    self.example = example
    self.defaultValue = defaultValue
    self.isRequired = isRequired
    self.cautions = cautions
    self.keptWithURL = keptWithURL
  }

  /// The type as people read it: "true|false", "api|html|rss", "integer 1-500".
  public var typeDescription: String {
    switch kind {
    case .text: "text"
    case .bool: "true|false"
    case .integer(let range): "integer \(range.lowerBound)-\(range.upperBound)"
    case .choice(let words): words.joined(separator: "|")
    case .choices(let words): "one or more of " + words.joined(separator: "|")
    case .urls: "URL or list of URLs"
    }
  }
}

/// A site parameter's value as read from the config.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
  case text(String)
  case bool(Bool)
  case integer(Int)
  case urls([String])
  /// Several words of a `choices` parameter, in the order written.
  case words([String])

  public var description: String {
    switch self {
    case .text(let s): s
    case .bool(let b): b ? "true" : "false"
    case .integer(let i): String(i)
    case .urls(let list), .words(let list): list.joined(separator: ", ")
    }
  }
}
