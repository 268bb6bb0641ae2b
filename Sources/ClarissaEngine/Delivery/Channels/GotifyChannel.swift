import ClarissaCore
import Foundation

/// Gotify (`gotify://HOST[:PORT][/PATH]/APP_TOKEN`, `gotifys://` for HTTPS): one
/// `POST <server>/message` per message with the application token in `X-Gotify-Key` and a JSON
/// body: `title`, `message` (plain text, at most 10,000 characters), `priority`, and in
/// `extras` the listing's link as `client::notification.click.url` and its photo as
/// `client::notification.bigImageUrl` (Gotify's Android app opens and shows them). Gotify has
/// no idempotency key.
struct GotifyChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let token: String
  let priority: Int
  let poster: Poster

  static let messageLimit = 10_000

  var name: String { channel.name }

  init(_ channel: Channel, context: ChannelContext) {
    self.channel = channel
    let url = ChannelKinds.parse(channel.url)
    token = url?.segments.last.map(ChannelURL.decoded) ?? ""
    let scheme = url?.scheme == "gotifys" ? "https" : "http"
    let path = url?.segments.dropLast().map { "/" + $0 }.joined() ?? ""
    let base = context.endpoint ?? "\(scheme)://\(url?.host ?? "")\(path)"
    endpoint = base + "/message"
    priority = url.flatMap(GotifyKind.priority) ?? 5
    poster = Poster(fetcher: context.fetcher, channel: channel)
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      var notification: [String: Any] = [:]
      if let link = message.link, ChannelText.isWeb(link) {
        notification["click"] = ["url": link]
      }
      if let photo = ChannelText.photo(of: ChannelText.listing(of: message, in: listings)) {
        notification["bigImageUrl"] = photo
      }
      let title = SafeText.line(message.title)
      let text = ChannelText.cut(
        SafeText.lines(message.body).trimmingCharacters(in: .whitespacesAndNewlines),
        to: Self.messageLimit
      ) { _ in 1 }
      var payload: [String: Any] = [
        "title": title,
        // Gotify requires a message.
        "message": text.isEmpty ? title : text,
        "priority": priority,
        "extras": ["client::display": ["contentType": "text/plain"]],
      ]
      if !notification.isEmpty {
        payload["extras"] = [
          "client::display": ["contentType": "text/plain"], "client::notification": notification,
        ]
      }
      let body = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
      try await poster.post(
        endpoint, body: Array(body),
        headers: ["Content-Type": "application/json", "X-Gotify-Key": token], key: message.key)
    }
  }
}

extension GotifyKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    GotifyChannel(channel, context: context)
  }
}
