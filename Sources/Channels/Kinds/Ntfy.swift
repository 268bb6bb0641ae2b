internal import ActionKeys
package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// An ntfy topic.
  package static let ntfy = Channel.Kind(rawValue: "ntfy")
}

/// `ntfy://host/topic` (`ntfys://` for HTTPS; `ntfy://topic` is a topic on ntfy.sh): one POST
/// per message. `tk_token@` is an access token, `user:password@` a login.
package struct NtfyKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.ntfy
  package let schemes = ["ntfy", "ntfys"]
  package let summary = "`ntfy://host/topic`, `ntfys://` for HTTPS: an ntfy topic"
  package let example = "ntfys://ntfy.sh/my-topic"
  package let parameters = [
    ChannelParameter("priority", "1-5 or min, low, default, high, max, urgent"),
    ChannelParameter("tags", "comma-separated tags (emoji short codes)"),
    ChannelParameter("click", "the link opened on a tap (default: the listing's)"),
    ChannelParameter("buttons", "no: no Viewed, Hide and Star buttons (they come with serve.url)"),
  ]
  package let takesHeaders = true
  package let secrets: [ChannelSecret] = [.userinfo, .headers]

  package static let priorities = [
    "1", "2", "3", "4", "5", "min", "low", "default", "high", "max", "urgent",
  ]

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    // `ntfy://topic` means the topic on ntfy.sh, as in Apprise.
    let topic = ChannelURL.decoded(url.segments.last ?? url.host)
    guard !topic.isEmpty, url.segments.count <= 1 else {
      return [.error("an ntfy URL names one topic: 'ntfy://host/topic' or 'ntfy://topic'")]
    }
    guard topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return [.error("ntfy topic '\(topic)' may hold only letters, digits, '-' and '_'")] }
    if let priority = url.value("priority"), !Self.priorities.contains(priority) {
      return [
        .error(
          "ntfy priority '\(priority)' is not one of \(Self.priorities.joined(separator: ", "))")
      ]
    }
    // ntfy's access tokens start with `tk_`; a bare user name is more likely a login missing
    // its password, which would be sent as a bearer token and refused.
    if let user = url.user, url.password == nil, !user.hasPrefix("tk_") {
      return [
        .warning(
          "'\(user)@' is sent as an ntfy access token, and those start with 'tk_'; for a login "
            + "write 'user:password@'")
      ]
    }
    return []
  }

  package let examples: [ChannelExample] = [
    .valid(
      "ntfys://tk_abc@ntfy.sh/deals?priority=high&+X-Trace=t1",
      redacted: "ntfys://***@ntfy.sh/deals?priority=high&+X-Trace=***"),
    .valid("ntfy://deals", redacted: "ntfy://deals"),
    .invalid("ntfy://ntfy.sh/a/b", message: "an ntfy URL names one topic"),
    .invalid("ntfy://ntfy.sh/deals?priority=loud", message: "ntfy priority 'loud' is not one of"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "ntfy://tk_\(secret)@\(host)/deals?+X-Token=\(secret)"
  }

  /// A plain web address of ntfy's own server, or of one named for it, is a topic URL
  /// (`https://ntfy.sh/topic`): it is answered with the `ntfy://` form.
  package func hint(forUnclaimed url: ChannelURL) -> ChannelHint? {
    let host = url.hostName
    guard url.scheme == "http" || url.scheme == "https",
      host == "ntfy.sh" || host.split(separator: ".").contains(where: { $0.hasPrefix("ntfy") })
    else { return nil }
    let path = url.segments.isEmpty ? "" : "/" + url.segments.joined(separator: "/")
    let port = url.port.map { ":\($0)" } ?? ""
    let ntfy = url.scheme == "https" ? "ntfys" : "ntfy"
    return .particular(
      "a plain web URL does not say how to post; for this ntfy topic write "
        + "'\(ntfy)://\(host)\(port)\(path)'")
  }
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
  /// The Viewed, Hide and Star buttons' links; nil: none.
  let actions: ActionLinks?

  var name: String { channel.name }

  init(
    _ channel: Channel, fetcher: any Fetcher, endpoint: String? = nil,
    actions: ActionLinks? = nil
  ) {
    self.channel = channel
    self.actions = actions
    poster = Poster(fetcher: fetcher, channel: channel)
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
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      var headers = self.headers
      // HTTP headers are Latin-1: ntfy reads RFC 2047 encoded words for anything else.
      headers["Title"] = Self.headerValue(message.title)
      if let link = message.link, headers["Click"] == nil { headers["Click"] = link }
      let listing = ChannelText.listing(of: message, in: listings)
      if let photo = listing?.imageURLs.first { headers["Attach"] = photo }
      if let actions, let listing,
        let buttons = ActionButtons.ntfyHeader(listing, links: actions, now: Date())
      {
        headers["Actions"] = buttons
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

extension NtfyKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    NtfyChannel(
      channel, fetcher: context.fetcher, endpoint: context.endpoint,
      actions: ActionButtons.links(for: channel, context: context))
  }
}
