package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// Pushover.
  package static let pushover = Channel.Kind(rawValue: "pushover")
}

/// `pover://USER_KEY@APP_TOKEN[/DEVICE...]`, Apprise's syntax: Pushover's `messages.json`.
package struct PushoverKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.pushover
  package let schemes = ["pover"]
  package let summary = "`pover://USER_KEY@APP_TOKEN[/DEVICE...]`: Pushover"
  package let example = "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi"
  package let parameters = [
    ChannelParameter("priority", "-2 to 2, or lowest, low, normal, high (emergency is not sent)"),
    ChannelParameter("sound", "one of Pushover's sounds, e.g. 'pushover' or 'none'"),
    ChannelParameter("to", "more devices, comma-separated"),
    ChannelParameter("api", "the API's address (default https://api.pushover.net)"),
    ChannelParameter("format", "Apprise's; clarissa always sends HTML"),
  ]
  package let secrets: [ChannelSecret] = [.userinfo, .host]

  package static let priorities = [
    "-2": "-2", "-1": "-1", "0": "0", "1": "1",
    "lowest": "-2", "low": "-1", "normal": "0", "high": "1",
  ]

  /// Pushover's keys: 30 letters and digits.
  package static func isKey(_ text: String) -> Bool {
    text.count == 30 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
  }

  /// The devices: the path's segments and `to=`.
  package static func devices(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return (url.segments.map(ChannelURL.decoded) + extra).filter { !$0.isEmpty }
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    let user = ChannelURL.decoded(url.userinfo ?? "")
    let token = ChannelURL.decoded(url.host)
    guard Self.isKey(user), Self.isKey(token) else {
      return [
        .error(
          "a pover URL is 'pover://USER_KEY@APP_TOKEN', each 30 letters and digits, as in "
            + "'\(example)'")
      ]
    }
    if let priority = url.value("priority"), Self.priorities[priority] == nil {
      return [
        .error(
          "pushover priority '\(priority)' is not one of -2, -1, 0, 1, lowest, low, normal, high",
          at: "priority=")
      ]
    }
    for device in Self.devices(url)
    where device.count > 25
      || !device.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-".contains($0)) })
    {
      return [.error("'\(device)' is not a Pushover device name (25 letters, digits, '_' or '-')")]
    }
    if let api = url.value("api"), !(api.hasPrefix("http://") || api.hasPrefix("https://")) {
      return [.error("'api=\(api)' is not an http:// or https:// address", at: "api=")]
    }
    return []
  }

  package let examples: [ChannelExample] = [
    .valid(
      "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi/phone",
      redacted: "pover://***@***/phone"),
    .invalid("pover://user@token", message: "a pover URL is 'pover://USER_KEY@APP_TOKEN'"),
    .invalid(
      "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi?priority=2",
      message: "pushover priority '2' is not one of"),
  ]

  package func sample(secret: String, host: String) -> String? {
    let key = String((secret + String(repeating: "k", count: 30)).prefix(30))
    let token = String((secret + String(repeating: "t", count: 30)).prefix(30))
    return "pover://\(key)@\(token)?api=http://\(host)"
  }
}

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
    let url = ChannelURL.parse(channel.url)
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
