/// One kind of notification channel, declared in one place: the URL schemes it takes, the
/// parameters it understands (with their docs), which parts of its URL are secret, and what a
/// URL of it must hold. Each kind lives in its own file with its sender
/// (`Sources/Channels/Kinds/<Kind>.swift`), and `ChannelRegistry.all` (module `Channels`) lists
/// them; the config reader is handed that list, as it is handed the sites.
public protocol ChannelKind: Sendable {
  /// The kind's name, as reports and `validate` show it.
  var kind: Channel.Kind { get }
  /// The URL schemes of this kind (`tgram`), lowercased.
  var schemes: [String] { get }
  /// One line for the docs and the schema: what it is and its URL's form.
  var summary: String { get }
  /// A URL of this kind to copy, for messages.
  var example: String { get }
  /// The query parameters it understands; a name not listed is warned about when
  /// ``warnsOnUnknownParameters``.
  var parameters: [ChannelParameter] { get }
  /// Whether an unknown query parameter is a warning (a JSON webhook's own URL may have any).
  var warnsOnUnknownParameters: Bool { get }
  /// Whether `+Name=value` parameters are sent as HTTP headers.
  var takesHeaders: Bool { get }
  /// Whether its URLs may hold spaces (a command line); any other URL must percent-encode them.
  var allowsSpaces: Bool { get }
  /// The parts of its URLs that are secret: never printed (``ChannelRedactor``).
  var secrets: [ChannelSecret] { get }
  /// Whether `url` is of this kind (by default: its scheme is one of ``schemes``).
  func claims(_ url: ChannelURL) -> Bool
  /// What is wrong with `url`, a URL this kind claims (errors and warnings).
  func check(_ url: ChannelURL) -> [ChannelFinding]
  /// The local program a channel of this kind runs, to warn when it is missing.
  func program(_ url: ChannelURL) -> String?
  /// URLs of this kind, valid (with the form they are printed in) and invalid (with what is
  /// said about them): the docs of the kind, run as tests.
  var examples: [ChannelExample] { get }
  /// A valid URL of this kind that holds `secret` in every part it declares secret, sending to
  /// `host` (`127.0.0.1:8080`) where its URL can say so: the test that nothing prints a secret
  /// plants one in every kind. Nil for a kind with no secret.
  func sample(secret: String, host: String) -> String?
  /// What to write instead of `url`, a URL no kind claims, when it looks meant for this kind
  /// (one of Apprise's schemes, a web address of an ntfy server); nil: nothing to say.
  func hint(forUnclaimed url: ChannelURL) -> ChannelHint?
}

extension ChannelKind {
  public func claims(_ url: ChannelURL) -> Bool { schemes.contains(url.scheme) }
  public var warnsOnUnknownParameters: Bool { true }
  public var takesHeaders: Bool { false }
  public var allowsSpaces: Bool { false }
  public func program(_ url: ChannelURL) -> String? { nil }
  public var parameters: [ChannelParameter] { [] }
  public func hint(forUnclaimed url: ChannelURL) -> ChannelHint? { nil }
}

/// What a kind says of a URL no kind claims (``ChannelKind/hint(forUnclaimed:)``): a word
/// about this URL in particular, or one about any URL of its form, said only when no kind has
/// a particular one (any web address could be a JSON webhook; one of an ntfy server is a topic).
public enum ChannelHint: Sendable, Equatable {
  /// About this URL in particular.
  case particular(String)
  /// About any URL of its form.
  case general(String)
}

/// A query parameter a channel kind understands.
public struct ChannelParameter: Sendable, Equatable {
  /// The name in the query (`priority`).
  public var name: String
  /// What it does, for the docs.
  public var doc: String

  /// Creates a parameter.
  public init(_ name: String, _ doc: String) {
    self.name = name
    self.doc = doc
  }
}

/// A part of a channel URL that holds a secret.
public enum ChannelSecret: Sendable, Equatable {
  /// The whole user part (`user:password@`, a token before `@`).
  case userinfo
  /// The password of `user:password@` (the user stays visible).
  case password
  /// The authority where Apprise's forms put a token (`tgram://TOKEN/...`): hidden unless it
  /// is a host name (`hooks.slack.com` in Slack's own address stays).
  case host
  /// Every path segment from this one on (0: the whole path).
  case path(from: Int)
  /// The values of these query parameters.
  case query([String])
  /// The values of `+Name=value` parameters (headers, often tokens).
  case headers
  /// The arguments after a command's first word (`exec:`).
  case arguments
  /// An Apprise URL inside this one: its user part, a host that is no host name, its whole
  /// path and every query value.
  case nested
}

/// A problem with a channel URL: an error refuses the channel, a warning is said.
public struct ChannelFinding: Error, Sendable, Equatable {
  /// What is wrong, lowercased, naming the user's value in quotes.
  public var message: String
  /// Whether the channel cannot be used.
  public var isError: Bool
  /// The text in the URL to point at (a parameter's `name=`), when there is one.
  public var place: String?

  /// An error.
  public static func error(_ message: String, at place: String? = nil) -> ChannelFinding {
    ChannelFinding(message: message, isError: true, place: place)
  }

  /// A warning.
  public static func warning(_ message: String, at place: String? = nil) -> ChannelFinding {
    ChannelFinding(message: message, isError: false, place: place)
  }
}

/// An example URL of a channel kind: one the kind takes, printed as `redacted`, or one it
/// refuses with a message holding `message`.
public enum ChannelExample: Sendable, Equatable {
  /// Valid, and printed as `redacted`.
  case valid(String, redacted: String)
  /// Refused with a message holding `message`.
  case invalid(String, message: String)
}
