extension Channel.Kind {
  /// A generic JSON webhook.
  public static let json = Channel.Kind(rawValue: "json")
}

/// `json://host/path` (`jsons://` for HTTPS): one POST per message with the body documented in
/// docs/notifications.md. The receiver's own query stays in its URL; `+Name=value` is a header.
public struct JSONKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.json
  public let schemes = ["json", "jsons"]
  public let summary = "`json://host/path`, `jsons://` for HTTPS: a JSON webhook"
  public let example = "jsons://example.com/hook"
  public let warnsOnUnknownParameters = false
  public let takesHeaders = true
  public let secrets: [ChannelSecret] = [.userinfo, .headers, .path(from: 0)]

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    url.hostName.isEmpty
      ? [.error("the URL has no host; write e.g. 'json://localhost:8080/hook'")] : []
  }

  public let examples: [ChannelExample] = [
    .valid(
      "jsons://hooks.example.com/in/abc?+X-Token=t1",
      redacted: "jsons://hooks.example.com/***?+X-Token=***"),
    .invalid("json:///hook", message: "the URL has no host"),
    .invalid("json://example.com/a b", message: "a space in the URL must be percent-encoded"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "json://user:\(secret)@\(host)/\(secret)?+Authorization=\(secret)"
  }
}
