extension Channel.Kind {
  /// A Discord webhook.
  public static let discord = Channel.Kind(rawValue: "discord")
}

/// `discord://webhook_id/webhook_token`, or the `https://discord.com/api/webhooks/...` address.
public struct DiscordKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.discord
  public let schemes = ["discord"]
  public let summary = "`discord://id/token` or the discord.com webhook URL: a Discord webhook"
  public let example = "discord://webhook_id/webhook_token"
  public let warnsOnUnknownParameters = false
  public let secrets: [ChannelSecret] = [.host, .path(from: 0)]

  public func claims(_ url: ChannelURL) -> Bool {
    if url.scheme == "discord" { return true }
    let host = url.hostName
    return url.scheme == "https"
      && (host.hasSuffix("discord.com") || host.hasSuffix("discordapp.com"))
      && url.segments.starts(with: ["api", "webhooks"])
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.scheme == "discord" else { return [] }
    let tokens = ([url.host] + url.segments).filter { !$0.isEmpty }
    return tokens.count >= 2
      ? [] : [.error("a discord URL needs 2 tokens, as in 'discord://webhook_id/webhook_token'")]
  }

  public let examples: [ChannelExample] = [
    .valid("discord://1234/abcd", redacted: "discord://***/***"),
    .valid(
      "https://discord.com/api/webhooks/1234/abcd", redacted: "https://discord.com/***"),
    .invalid("discord://1234", message: "a discord URL needs 2 tokens"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "discord://\(secret)/\(secret)T"
  }
}
