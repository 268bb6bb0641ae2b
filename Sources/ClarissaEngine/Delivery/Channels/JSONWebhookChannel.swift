import ClarissaCore
import Foundation

/// A generic JSON webhook (`json://`, `jsons://`): one POST per message with the body
/// documented in docs/notifications.md.
struct JSONWebhookChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let headers: [String: String]
  let poster: Poster

  var name: String { channel.name }

  /// `+Name=value` parameters become headers; the others stay in the receiver's URL.
  init(_ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil) {
    self.channel = channel
    poster = Poster(fetcher: fetcher, channel: channel)
    let secure = channel.url.hasPrefix("jsons://")
    var components = URLComponents(string: channel.url)
    headers = headerParameters(components)
    if let items = components?.percentEncodedQueryItems {
      let kept = items.filter { !$0.name.hasPrefix("+") }
      components?.percentEncodedQueryItems = kept.isEmpty ? nil : kept
    }
    components?.scheme = secure ? "https" : "http"
    self.endpoint = endpoint ?? components?.string ?? channel.url
  }

  struct Payload: Encodable {
    let version = 1
    let search: String
    /// The `Idempotency-Key` header's value.
    let idempotencyKey: String
    let title: String
    let body: String
    let listings: [Listing]
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let payload = Payload(
        search: search.name, idempotencyKey: message.key, title: message.title,
        body: message.body, listings: listings)
      let data = try encoder.encode(payload)
      try await poster.post(
        endpoint, body: Array(data),
        headers: headers.merging(["Content-Type": "application/json"]) { $1 }, key: message.key)
    }
  }
}

extension JSONKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    JSONWebhookChannel(channel, fetcher: context.fetcher, endpoint: context.endpoint)
  }
}
