package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A generic JSON webhook.
  package static let json = Channel.Kind(rawValue: "json")
}

/// `json://host/path` (`jsons://` for HTTPS): one POST per message with the body documented in
/// docs/notifications.md. The receiver's own query stays in its URL; `+Name=value` is a header.
package struct JSONKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.json
  package let schemes = ["json", "jsons"]
  package let summary = "`json://host/path`, `jsons://` for HTTPS: a JSON webhook"
  package let example = "jsons://example.com/hook"
  package let warnsOnUnknownParameters = false
  package let takesHeaders = true
  package let secrets: [ChannelSecret] = [.userinfo, .headers, .path(from: 0)]

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    url.hostName.isEmpty
      ? [.error("the URL has no host; write e.g. 'json://localhost:8080/hook'")] : []
  }

  package let examples: [ChannelExample] = [
    .valid(
      "jsons://hooks.example.com/in/abc?+X-Token=t1",
      redacted: "jsons://hooks.example.com/***?+X-Token=***"),
    .invalid("json:///hook", message: "the URL has no host"),
    .invalid("json://example.com/a b", message: "a space in the URL must be percent-encoded"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "json://user:\(secret)@\(host)/\(secret)?+Authorization=\(secret)"
  }

  /// A plain web address no kind claims (Slack's and Discord's own webhook addresses are
  /// theirs) does not say how to post: any of them could be a JSON webhook.
  package func hint(forUnclaimed url: ChannelURL) -> ChannelHint? {
    guard url.scheme == "http" || url.scheme == "https" else { return nil }
    let path = url.segments.isEmpty ? "" : "/" + url.segments.joined(separator: "/")
    let secure = url.scheme == "https" ? "jsons" : "json"
    return .general(
      "a plain web URL does not say how to post; for a JSON webhook write "
        + "'\(secure)://\(url.hostName)\(path)'")
  }
}

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
