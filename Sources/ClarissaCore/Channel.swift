/// A named notification channel, given by URL in the Apprise style.
public struct Channel: Sendable, Equatable {
  /// The kind of receiver, from the URL's scheme.
  public enum Kind: String, Sendable, CaseIterable {
    /// Prints to the terminal (`stdout`).
    case stdout
    /// ntfy topic (`ntfy://host/topic`, `ntfys://` for HTTPS).
    case ntfy
    /// Generic JSON webhook (`json://host/path`, `jsons://` for HTTPS).
    case json
    /// Slack incoming webhook (`slack://T/B/token` or the hooks.slack.com URL).
    case slack
    /// Discord webhook (`discord://id/token` or the discord.com webhook URL).
    case discord
    /// Mail through the local sendmail (`mailto://user@example.com`).
    case mailto
    /// Mail through an SMTP server (`smtp://`, `smtps://`).
    case smtp
    /// A command that reads the listings as JSON on stdin (`exec:/path/to/script`).
    case exec
    /// Handed to the `apprise` command (`apprise://` followed by any Apprise URL).
    case apprise
  }

  /// How listings are grouped into messages.
  public enum Grouping: String, Sendable, CaseIterable {
    /// One message per listing.
    case each
    /// One message per run with every new listing.
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

  /// The URL with any password or token hidden, safe for logs and summaries: the user part, a
  /// Slack or Discord path, and the values of `+Header=value` parameters (often tokens).
  public var redactedURL: String {
    guard let schemeEnd = url.range(of: "://") else { return url }
    let rest = url[schemeEnd.upperBound...]
    let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var authority = String(rest[..<hostEnd])
    if let at = authority.lastIndex(of: "@") {
      authority = "***@" + authority[authority.index(after: at)...]
    }
    var path = String(rest[hostEnd...])
    var query = ""
    if let mark = path.firstIndex(of: "?") {
      query = String(path[mark...])
      path = String(path[..<mark])
    }
    if kind == .slack || kind == .discord { path = path.isEmpty ? "" : "/***" }
    let pairs = query.dropFirst().split(separator: "&").map { pair -> String in
      let isHeader = pair.hasPrefix("+") || pair.lowercased().hasPrefix("%2b")
      guard isHeader, let name = pair.split(separator: "=", maxSplits: 1).first else {
        return String(pair)
      }
      return name + "=***"
    }
    let shownQuery = pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")
    return String(url[..<schemeEnd.upperBound]) + authority + path + shownQuery
  }
}
