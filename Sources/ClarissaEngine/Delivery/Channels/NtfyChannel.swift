import ActionKeys
import ClarissaCore
import Foundation

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
