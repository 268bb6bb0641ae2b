import ClarissaCore
import Foundation

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
