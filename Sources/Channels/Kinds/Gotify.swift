package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A Gotify server.
  package static let gotify = Channel.Kind(rawValue: "gotify")
}

/// `gotify://HOST[:PORT][/PATH]/APP_TOKEN`, `gotifys://` for HTTPS, Apprise's syntax: Gotify's
/// `POST /message`.
package struct GotifyKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.gotify
  package let schemes = ["gotify", "gotifys"]
  package let summary = "`gotify://host/APP_TOKEN`, `gotifys://` for HTTPS: a Gotify server"
  package let example = "gotifys://gotify.example.com/AbCdEf123456789"
  package let parameters = [
    ChannelParameter("priority", "0-10, or low, moderate, normal, high, emergency"),
    ChannelParameter("format", "Apprise's; clarissa always sends Markdown"),
  ]
  package let secrets: [ChannelSecret] = [.userinfo, .path(from: 0)]

  package static let priorities = [
    "low": 1, "moderate": 3, "normal": 5, "high": 8, "emergency": 10,
  ]

  /// The priority `priority=` names (default 5, Gotify's "normal").
  package static func priority(_ url: ChannelURL) -> Int? {
    guard let text = url.value("priority") else { return 5 }
    if let number = Int(text), (0...10).contains(number) { return number }
    return priorities[text]
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard !url.hostName.isEmpty, let token = url.segments.last, !token.isEmpty else {
      return [.error("a gotify URL is 'gotify://host/APP_TOKEN', as in '\(example)'")]
    }
    guard Self.priority(url) != nil else {
      return [
        .error(
          "gotify priority '\(url.value("priority") ?? "")' is not 0-10 or one of low, "
            + "moderate, normal, high, emergency", at: "priority=")
      ]
    }
    return []
  }

  package let examples: [ChannelExample] = [
    .valid("gotifys://push.example.com/AbCdEf123", redacted: "gotifys://push.example.com/***"),
    .valid(
      "gotify://10.0.0.2:8080/gotify/AbCdEf123?priority=8",
      redacted: "gotify://10.0.0.2:8080/***?priority=8"),
    .invalid("gotify://push.example.com", message: "a gotify URL is 'gotify://host/APP_TOKEN'"),
    .invalid("gotify://push.example.com/tok?priority=loud", message: "gotify priority 'loud'"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "gotify://\(host)/\(secret)"
  }
}

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
    let url = ChannelURL.parse(channel.url)
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
