package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A Slack incoming webhook.
  package static let slack = Channel.Kind(rawValue: "slack")
}

/// `slack://TokenA/TokenB/TokenC[/#channel]`, or the `https://hooks.slack.com/...` address.
package struct SlackKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.slack
  package let schemes = ["slack"]
  package let summary = "`slack://TokenA/TokenB/TokenC` or the hooks.slack.com URL: a Slack webhook"
  package let example = "slack://TokenA/TokenB/TokenC"
  package let warnsOnUnknownParameters = false
  package let secrets: [ChannelSecret] = [.host, .path(from: 0)]

  package func claims(_ url: ChannelURL) -> Bool {
    url.scheme == "slack" || (url.scheme == "https" && url.hostName == "hooks.slack.com")
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.scheme == "slack" else { return [] }
    let tokens = ([url.host] + url.segments).filter {
      !$0.isEmpty && !$0.hasPrefix("#") && !$0.hasPrefix("%23") && !$0.hasPrefix("@")
    }
    return tokens.count >= 3
      ? [] : [.error("a slack URL needs 3 tokens, as in 'slack://TokenA/TokenB/TokenC'")]
  }

  package let examples: [ChannelExample] = [
    .valid("slack://T000/B000/XXXX/#deals", redacted: "slack://***/***#deals"),
    .valid(
      "https://hooks.slack.com/services/T000/B000/XXXX",
      redacted: "https://hooks.slack.com/***"),
    .invalid("slack://only-one-token", message: "a slack URL needs 3 tokens"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "slack://\(secret)/\(secret)B/\(secret)C"
  }
}

/// Slack incoming webhook: `{"text": ...}` in Slack's mrkdwn, at most 40,000 characters.
struct SlackChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let target: String?
  let poster: Poster

  var name: String { channel.name }

  init(_ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil) {
    self.channel = channel
    poster = Poster(fetcher: fetcher, channel: channel)
    if channel.url.hasPrefix("https://") {
      self.endpoint = endpoint ?? channel.url
      target = nil
    } else {
      let parts = channel.url.dropFirst("slack://".count).split(separator: "/").map(String.init)
      let tokens = parts.filter { !$0.hasPrefix("#") && !$0.hasPrefix("@") }
      self.endpoint =
        endpoint ?? "https://hooks.slack.com/services/" + tokens.prefix(3).joined(separator: "/")
      target = parts.first { $0.hasPrefix("#") || $0.hasPrefix("@") }
    }
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      var text = "*\(Self.escape(message.title))*\n\(Self.escape(message.body))"
      if let link = message.link {
        // A link is escaped too: a `|` or `>` in it would end Slack's link early.
        text =
          "*<\(Self.escape(link).replacingOccurrences(of: "|", with: "%7C"))|"
          + "\(Self.escape(message.title))>*\n\(Self.escape(message.body))"
      }
      var payload: [String: String] = ["text": MessageTemplate.truncate(text, toBytes: 40_000)]
      if let target { payload["channel"] = target }
      let data = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
      try await poster.post(
        endpoint, body: Array(data), headers: ["Content-Type": "application/json"],
        key: message.key)
    }
  }

  /// Slack's three escapes.
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}

extension SlackKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    SlackChannel(channel, fetcher: context.fetcher, endpoint: context.endpoint)
  }
}
