import ClarissaCore
import Foundation

/// Pushover (`pover://USER_KEY@APP_TOKEN[/DEVICE...]`): one `POST /1/messages.json` per
/// message, form-encoded: `token`, `user`, `title` (at most 250 characters), `message` (HTML,
/// escaped, at most 1,024 characters as sent), `html=1`, the listing's link as `url` with
/// `url_title` "Open", and `device`, `priority`, `sound` when the URL gives them. Pushover has
/// no idempotency key; a `429` means the application's monthly quota is spent (retried on the
/// next run, not waited out).
struct PushoverChannel: DeliveryChannel {
  let channel: Channel
  let endpoint: String
  let fields: [(String, String)]
  let poster: Poster

  static let titleLimit = 250
  static let messageLimit = 1024
  static let urlLimit = 512

  var name: String { channel.name }

  init(_ channel: Channel, context: ChannelContext) {
    self.channel = channel
    let url = ChannelKinds.parse(channel.url)
    let base = context.endpoint ?? url?.value("api") ?? "https://api.pushover.net"
    endpoint = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/1/messages.json"
    var fields = [
      ("token", url.map { ChannelURL.decoded($0.host) } ?? ""),
      ("user", url?.user ?? ""),
    ]
    let devices = url.map(PushoverKind.devices) ?? []
    if !devices.isEmpty { fields.append(("device", devices.joined(separator: ","))) }
    if let priority = url?.value("priority").flatMap({ PushoverKind.priorities[$0] }) {
      fields.append(("priority", priority))
    }
    if let sound = url?.value("sound") { fields.append(("sound", sound)) }
    self.fields = fields
    poster = Poster(fetcher: context.fetcher, channel: channel)
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let response = try await poster.exchange(
        endpoint, body: Array(Self.form(fields + Self.fields(of: message)).utf8),
        headers: ["Content-Type": "application/x-www-form-urlencoded"], key: message.key)
      guard (200..<300).contains(response.status), Self.accepted(response.body) else {
        var refusal = poster.refusal(response)
        // Pushover answers 400 for an invalid user or application token too: that refuses
        // every message, not this one.
        let object = ChannelText.object(response.body)
        if object?["user"] != nil || object?["token"] != nil { refusal.onlyThisMessage = false }
        throw refusal
      }
    }
  }

  /// The message's own fields: title, escaped text, link.
  static func fields(of message: Message) -> [(String, String)] {
    let title = ChannelText.cut(SafeText.line(message.title), to: titleLimit) { _ in 1 }
    let text = ChannelText.cut(
      SafeText.lines(message.body).trimmingCharacters(in: .whitespacesAndNewlines),
      to: messageLimit, size: ChannelText.escapedSize)
    var fields = [
      ("title", title), ("message", ChannelText.escapeHTML(text.isEmpty ? title : text)),
      ("html", "1"),
    ]
    if let link = message.link, ChannelText.isWeb(link, limit: urlLimit) {
      fields += [("url", link), ("url_title", "Open")]
    }
    return fields
  }

  /// `application/x-www-form-urlencoded`, in the order given.
  static func form(_ fields: [(String, String)]) -> String {
    fields.map { $0 + "=" + ChannelText.percentEncoded($1) }.joined(separator: "&")
  }

  /// Whether Pushover's answer says `"status": 1`.
  static func accepted(_ body: [UInt8]) -> Bool {
    (ChannelText.object(body)?["status"] as? NSNumber)?.intValue == 1
  }
}

extension PushoverKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    PushoverChannel(channel, context: context)
  }
}
