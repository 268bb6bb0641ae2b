/// A named notification channel, given by URL in the Apprise style.
public struct Channel: Sendable, Equatable {
  /// The kind of receiver, from the URL's scheme: the name of a ``ChannelKind`` (each kind's
  /// file, in module `Channels`, declares its name as a static member, as in
  /// `Channel.Kind.telegram`).
  public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind's name (`telegram`).
    public var rawValue: String
    /// A kind by name.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
  }

  /// How listings are grouped into messages.
  public enum Grouping: String, Sendable, CaseIterable {
    /// One message per listing.
    case each
    /// One message per run with every new listing (or, with a ``DigestSchedule``, when due).
    case digest
  }

  /// The channel's name in the config.
  public var name: String
  /// The kind of receiver.
  public var kind: Kind
  /// The URL with `${ENV}` references already replaced (secrets: never print it whole).
  public var url: String
  /// One message per listing or a digest.
  public var grouping: Grouping
  /// Message title template (`{title}`, `{price}`, `{location}`, `{url}`, `{search}` ...).
  public var titleTemplate: String?
  /// Message body template.
  public var bodyTemplate: String?
  /// Where the channel is written.
  public var location: SourceLocation?
  /// When a scheduled digest goes (`digest: daily 08:00`); nil: at the end of each run.
  public var schedule: DigestSchedule? = nil

  /// Creates a channel.
  public init(
    name: String, kind: Kind, url: String, grouping: Grouping = .each,
    titleTemplate: String? = nil, bodyTemplate: String? = nil, location: SourceLocation? = nil
  ) {
    self.name = name
    self.kind = kind
    self.url = url
    self.grouping = grouping
    self.titleTemplate = titleTemplate
    self.bodyTemplate = bodyTemplate
    self.location = location
  }
}
