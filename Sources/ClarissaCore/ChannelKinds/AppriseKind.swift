extension Channel.Kind {
  /// Any Apprise URL, through the apprise command.
  public static let apprise = Channel.Kind(rawValue: "apprise")
}

/// `apprise://` followed by any Apprise URL, handed to the `apprise` command. Apprise's URLs
/// put tokens anywhere (user part, host, path, query), so all of those are hidden.
public struct AppriseKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.apprise
  public let schemes = ["apprise"]
  public let summary =
    "`apprise://` + any Apprise URL: sent by the apprise command (pip install apprise)"
  public let example = "apprise://pover://user@token"
  public let warnsOnUnknownParameters = false
  public let secrets: [ChannelSecret] = [.nested]

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.separator == "://", let inner = url.opaque, ChannelURL(inner) != nil else {
      return [
        .error(
          "write 'apprise://' followed by an Apprise URL, as in 'apprise://pover://user@token'")
      ]
    }
    return []
  }

  public func program(_ url: ChannelURL) -> String? { "apprise" }

  public let examples: [ChannelExample] = [
    .valid("apprise://tgram://123456:ABCdef/987654", redacted: "apprise://tgram://***/***"),
    .valid("apprise://pover://userkey@apptoken", redacted: "apprise://pover://***@***"),
    .valid(
      "apprise://gotifys://push.example.com/TOKEN?priority=high",
      redacted: "apprise://gotifys://push.example.com/***?priority=***"),
    .valid("apprise://mailto://me:pass@gmail.com", redacted: "apprise://mailto://***@gmail.com"),
    .invalid("apprise://nothing", message: "write 'apprise://' followed by an Apprise URL"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "apprise://tgram://123456:\(secret)/987654"
  }
}
