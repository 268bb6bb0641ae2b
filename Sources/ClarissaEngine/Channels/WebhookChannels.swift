import ClarissaCore
import Foundation

/// Posts messages over HTTP through the fetcher (the one door to the network); a 2xx answer is
/// acceptance, anything else a refusal that leaves the listings undelivered.
struct Poster: Sendable {
  let fetcher: any Fetcher
  let channel: String

  func post(_ url: String, body: [UInt8], headers: [String: String], key: String) async throws {
    var headers = headers
    if !key.isEmpty { headers["Idempotency-Key"] = key }
    // A channel's URL is the user's own choice, and a search's key cannot reach it: it goes
    // where it went before the redirect guard (which is for feeds' answers).
    let request = RequestSpec(
      url: url, headers: headers, mode: "notify", allowsConditionalGET: false, method: "POST",
      body: body, allowsPrivateRedirects: true)
    let answer = await fetcher.fetch(request, headers: [:])
    DeliveryTrace.note("resumed", key)
    switch answer {
    case .failure(let error):
      throw DeliveryError("channel '\(channel)': \(error.message)")
    case .success(let response) where !(200..<300).contains(response.status):
      let detail = Excerpt.oneLine(response.body.prefix(4096), droppingTags: true)
      throw DeliveryError(
        "channel '\(channel)': HTTP \(response.status)" + (detail.isEmpty ? "" : " (\(detail))"))
    case .success:
      return
    }
  }
}

/// Sends each message in turn, giving each accepted message's listings to `receipt` before the
/// next is sent; on a failure, says which listings did go through.
func sendEach(
  _ messages: [(message: Message, listings: [Listing])], _ receipt: DeliveryReceipt,
  _ send: (Message) async throws -> Void
) async throws {
  var delivered: [String] = []
  for (message, listings) in messages {
    do {
      try await send(message)
    } catch let error as DeliveryError {
      throw DeliveryError(error.message, delivered: delivered)
    }
    try receipt(listings)
    delivered += listings.map(\.id)
  }
}

/// `+Name=value` query parameters (Apprise's form): headers to send with every message.
func headerParameters(_ components: URLComponents?) -> [String: String] {
  var headers: [String: String] = [:]
  for item in components?.queryItems ?? [] where item.name.hasPrefix("+") && item.name.count > 1 {
    headers[String(item.name.dropFirst())] = item.value ?? ""
  }
  return headers
}

/// ntfy: `POST <server>/<topic>`, the message as a `text/plain` body; title, priority, tags, the
/// listing's link (`Click`) and its photo (`Attach`) as headers. The photo is an attachment by
/// URL rather than an `Icon`: ntfy's apps show an attached image large in the notification, which
/// is the point of a listing alert, while an icon is a thumbnail beside the text; an attachment
/// given by URL is never uploaded, so it costs no attachment quota on the server.
/// `ntfys://tk_token@host/topic` is an access token (`Authorization: Bearer`), `user:password@`
/// is Basic.
struct NtfyChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let headers: [String: String]
  let poster: Poster

  var name: String { channel.name }

  init(_ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil) {
    self.channel = channel
    poster = Poster(fetcher: fetcher, channel: channel.name)
    let components = URLComponents(string: channel.url)
    let secure = channel.url.hasPrefix("ntfys://")
    let segments = (components?.path ?? "").split(separator: "/")
    let host = components?.host ?? "ntfy.sh"
    let port = components?.port.map { ":\($0)" } ?? ""
    let derived =
      segments.isEmpty
      ? "https://ntfy.sh/\(host)"
      : "\(secure ? "https" : "http")://\(host)\(port)/\(segments[0])"
    self.endpoint = endpoint ?? derived
    var headers: [String: String] = [:]
    for item in components?.queryItems ?? [] {
      guard let value = item.value else { continue }
      switch item.name {
      case "priority": headers["Priority"] = value
      case "tags": headers["Tags"] = value
      case "click": headers["Click"] = value
      default: break
      }
    }
    if let user = components?.user?.removingPercentEncoding {
      if let password = components?.password?.removingPercentEncoding {
        headers["Authorization"] =
          "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
      } else {
        headers["Authorization"] = "Bearer \(user)"
      }
    }
    headers["Content-Type"] = "text/plain; charset=utf-8"
    self.headers = headers.merging(headerParameters(components)) { $1 }
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
      var headers = self.headers
      // HTTP headers are Latin-1: ntfy reads RFC 2047 encoded words for anything else.
      headers["Title"] = Self.headerValue(message.title)
      if let link = message.link, headers["Click"] == nil { headers["Click"] = link }
      if message.link != nil,
        let photo = listings.first(where: { $0.url == message.link })?.imageURLs.first
      {
        headers["Attach"] = photo
      }
      let body = MessageTemplate.truncate(message.body, toBytes: 4096)
      try await poster.post(endpoint, body: Array(body.utf8), headers: headers, key: message.key)
    }
  }

  static func headerValue(_ text: String) -> String {
    let clean = text.replacingOccurrences(of: "\n", with: " ")
    guard clean.unicodeScalars.contains(where: { $0.value > 126 }) else { return clean }
    return "=?UTF-8?B?" + Data(clean.utf8).base64EncodedString() + "?="
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
    poster = Poster(fetcher: fetcher, channel: channel.name)
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
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
      let payload = Payload(
        search: search.name, idempotencyKey: message.key, title: message.title,
        body: message.body,
        listings: listings.filter { listing in
          channel.grouping == .digest || message.link == listing.url
        })
      let data = try encoder.encode(payload)
      try await poster.post(
        endpoint, body: Array(data),
        headers: headers.merging(["Content-Type": "application/json"]) { $1 }, key: message.key)
    }
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
    poster = Poster(fetcher: fetcher, channel: channel.name)
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
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
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

/// Discord webhook: `{"content": ...}`, at most 2,000 characters.
struct DiscordChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let poster: Poster

  var name: String { channel.name }

  init(_ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil) {
    self.channel = channel
    poster = Poster(fetcher: fetcher, channel: channel.name)
    if channel.url.hasPrefix("https://") {
      self.endpoint = endpoint ?? channel.url
    } else {
      let parts = channel.url.dropFirst("discord://".count).split(separator: "/")
      self.endpoint =
        endpoint ?? "https://discord.com/api/webhooks/" + parts.prefix(2).joined(separator: "/")
    }
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    // What a site sent reaches a message only through the sanitiser (an older store may
    // hold what this version would not keep).
    let listings = listings.map(ListingCheck.shown)
    try await sendEach(
      MessageTemplate.messages(for: listings, search: search, channel: channel), receipt
    ) {
      message in
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
