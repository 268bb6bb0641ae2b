package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A Discord webhook.
  package static let discord = Channel.Kind(rawValue: "discord")
}

/// `discord://webhook_id/webhook_token`, or the `https://discord.com/api/webhooks/...` address.
package struct DiscordKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.discord
  package let schemes = ["discord"]
  package let summary = "`discord://id/token` or the discord.com webhook URL: a Discord webhook"
  package let example = "discord://webhook_id/webhook_token"
  package let warnsOnUnknownParameters = false
  package let secrets: [ChannelSecret] = [.host, .path(from: 0)]

  package func claims(_ url: ChannelURL) -> Bool {
    if url.scheme == "discord" { return true }
    let host = url.hostName
    return url.scheme == "https"
      && (host.hasSuffix("discord.com") || host.hasSuffix("discordapp.com"))
      && url.segments.starts(with: ["api", "webhooks"])
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.scheme == "discord" else { return [] }
    let tokens = ([url.host] + url.segments).filter { !$0.isEmpty }
    return tokens.count >= 2
      ? [] : [.error("a discord URL needs 2 tokens, as in 'discord://webhook_id/webhook_token'")]
  }

  package let examples: [ChannelExample] = [
    .valid("discord://1234/abcd", redacted: "discord://***/***"),
    .valid(
      "https://discord.com/api/webhooks/1234/abcd", redacted: "https://discord.com/***"),
    .invalid("discord://1234", message: "a discord URL needs 2 tokens"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "discord://\(secret)/\(secret)T"
  }
}

/// Discord webhook: `{"content": ...}`, at most 2,000 characters.
struct DiscordChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let poster: Poster

  var name: String { channel.name }

  init(_ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil) {
    self.channel = channel
    poster = Poster(fetcher: fetcher, channel: channel)
    if channel.url.hasPrefix("https://") {
      self.endpoint = endpoint ?? channel.url
    } else {
      let parts = channel.url.dropFirst("discord://".count).split(separator: "/")
      self.endpoint =
        endpoint ?? "https://discord.com/api/webhooks/" + parts.prefix(2).joined(separator: "/")
    }
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let content = MessageTemplate.truncate(
        "**\(Self.escape(message.title))**\n\(Self.escape(message.body))", toBytes: 2000)
      // A listing titled "@everyone" must not ping a whole server: no mention is parsed.
      let payload: [String: Any] = ["content": content, "allowed_mentions": ["parse": [String]()]]
      let data = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
      try await poster.post(
        endpoint, body: Array(data), headers: ["Content-Type": "application/json"],
        key: message.key)
    }
  }

  /// Discord's Markdown made literal outside links: a title cannot bold, strike, quote, spoil
  /// or dress a link as other text (`[free](https://evil.example)`). Addresses stay as they are,
  /// so that Discord still links them.
  static func escape(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.split(separator: " ", omittingEmptySubsequences: false).map { word in
        if word.hasPrefix("http://") || word.hasPrefix("https://") { return String(word) }
        var out = ""
        for character in word {
          if "\\*_~`|>[]()#-".contains(character) { out.append("\\") }
          out.append(character)
        }
        return out
      }.joined(separator: " ")
    }.joined(separator: "\n")
  }
}

extension DiscordKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    DiscordChannel(channel, fetcher: context.fetcher, endpoint: context.endpoint)
  }
}
