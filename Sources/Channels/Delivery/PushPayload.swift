internal import ActionKeys
internal import ClarissaCore
internal import Foundation
internal import WebPush

/// What a Web Push message carries (issue 45), the JSON the page's service worker (`sw.js`)
/// shows: `title`, `body`, `url` (the listing's page under `serve.url`, a digest's search's
/// page, or without `serve.url` the listing on its site), `viewed` (the signed `/act` link
/// that marks it viewed, or null), `tag` (the topic: one notification per search), `unviewed`
/// (the app's badge) and `actions` (Star and Hide as signed `/act` links; empty without
/// `serve.url`). Always under ``PushEncryption/maxPayload`` bytes: the body is shortened,
/// never the JSON cut.
struct PushPayload {
  var title: String
  var body: String
  var url: String?
  var viewed: String?
  var tag: String
  var unviewed: Int
  var actions: [(action: String, title: String, url: String)]

  /// The longest title kept, in characters.
  static let titleLimit = 200

  /// The payload of `message`, which carries `listings` of `search`.
  init(
    _ message: Message, listings: [Listing], search: String, links: ActionLinks?,
    unviewed: Int, now: Date
  ) {
    title = ChannelText.cut(SafeText.line(message.title), to: Self.titleLimit) { _ in 1 }
    body = SafeText.lines(message.body).trimmingCharacters(in: .whitespacesAndNewlines)
    tag = Self.topic(search: search)
    self.unviewed = max(0, unviewed)
    actions = []
    let one = listings.count == 1 ? listings.first : nil
    if let links {
      if let one {
        url = "\(links.base)/listing/\(Self.segment(one.site))/\(Self.segment(one.id))"
        viewed = links.url(.viewed, site: one.site, id: one.id, now: now)
        for (action, label) in [(ListingAction.star, "Star"), (.hide, "Hide")] {
          if let link = links.url(action, site: one.site, id: one.id, now: now) {
            actions.append((label.lowercased(), label, link))
          }
        }
      } else {
        let name = search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        url = "\(links.base)/listings?search=\(name)"
      }
    } else if let link = message.link, ChannelText.isWeb(link) {
      url = link
    }
  }

  /// The `Topic` header and the notification's tag: a newer message of the same search
  /// replaces an older one the push service still holds (RFC 8030 §5.4), and on the phone the
  /// newest of a search replaces the last shown, so a phone that was offline finds one
  /// notification per search (the badge and the page count the rest) rather than a pile. 32
  /// base64url characters, of the SHA-256 of the search's name.
  static func topic(search: String) -> String {
    Base64URL.encode(SHA256.hash(Array("clarissa search \(search)".utf8)).prefix(24))
  }

  /// The JSON, its body shortened (by lines, then characters) until it fits in `limit` bytes;
  /// nil when even an empty body does not.
  func json(limit: Int = PushEncryption.maxPayload) -> [UInt8]? {
    var shown = self
    while true {
      if let bytes = try? shown.encoded(), bytes.count <= limit { return bytes }
      guard !shown.body.isEmpty else { return nil }
      let characters = shown.body.count
      shown.body = ChannelText.cut(shown.body, to: max(0, characters * 3 / 4 - 1)) { _ in 1 }
      if shown.body.count >= characters { shown.body = "" }
    }
  }

  private func encoded() throws -> [UInt8] {
    let object: [String: Any] = [
      "title": title, "body": body, "url": url ?? NSNull(), "viewed": viewed ?? NSNull(),
      "tag": tag, "unviewed": unviewed,
      "actions": actions.map { ["action": $0.action, "title": $0.title, "url": $0.url] },
    ]
    return Array(
      try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
  }

  private static func segment(_ text: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/?#%;")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
  }
}
