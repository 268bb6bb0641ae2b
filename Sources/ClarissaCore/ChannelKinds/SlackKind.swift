extension Channel.Kind {
  /// A Slack incoming webhook.
  public static let slack = Channel.Kind(rawValue: "slack")
}

/// `slack://TokenA/TokenB/TokenC[/#channel]`, or the `https://hooks.slack.com/...` address.
public struct SlackKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.slack
  public let schemes = ["slack"]
  public let summary = "`slack://TokenA/TokenB/TokenC` or the hooks.slack.com URL: a Slack webhook"
  public let example = "slack://TokenA/TokenB/TokenC"
  public let warnsOnUnknownParameters = false
  public let secrets: [ChannelSecret] = [.host, .path(from: 0)]

  public func claims(_ url: ChannelURL) -> Bool {
    url.scheme == "slack" || (url.scheme == "https" && url.hostName == "hooks.slack.com")
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.scheme == "slack" else { return [] }
    let tokens = ([url.host] + url.segments).filter {
      !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("%23") && !$0.hasPrefix("@")
    }
    return tokens.count >= 3
      ? [] : [.error("a slack URL needs 3 tokens, as in 'slack://TokenA/TokenB/TokenC'")]
  }

  public let examples: [ChannelExample] = [
    .valid("slack://T000/B000/XXXX/#deals", redacted: "slack://***/***#deals"),
    .valid(
      "https://hooks.slack.com/services/T000/B000/XXXX",
      redacted: "https://hooks.slack.com/***"),
    .invalid("slack://only-one-token", message: "a slack URL needs 3 tokens"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "slack://\(secret)/\(secret)B/\(secret)C"
  }
}
