internal import ActionKeys
internal import ClarissaCore
internal import Foundation

/// The Viewed, Hide and Star buttons of a one-listing message (ntfy, Telegram), when
/// `serve.url` says where a phone reaches the web interface. Each calls `serve.url/act/TOKEN`
/// (or, on Telegram, hands the token to `watch` as callback data): the signed token is the
/// authorization, so no session is needed.
enum ActionButtons {
  /// The links for `channel`: the context's, unless the channel's URL says `buttons=no`.
  static func links(for channel: Channel, context: ChannelContext) -> ActionLinks? {
    channel.wantsButtons ? context.actions : nil
  }

  /// ntfy's `Actions` header in its documented short form (`http, LABEL, URL, method=POST,
  /// clear=true; ...`): three `http` actions that POST to the signed links. Viewed and Hide
  /// clear the notification; Star keeps it. `serve.url` holds no `,`, `;` or quote (the
  /// config reader refuses them) and the token is URL-safe base64, so nothing needs quoting.
  static func ntfyHeader(_ listing: Listing, links: ActionLinks, now: Date) -> String? {
    let actions = ListingAction.buttons.compactMap { action -> String? in
      guard let url = links.url(action, site: listing.site, id: listing.id, now: now) else {
        return nil
      }
      return "http, \(action.label), \(url), method=POST" + (action == .star ? "" : ", clear=true")
    }
    return actions.isEmpty ? nil : actions.joined(separator: "; ")
  }

  /// Telegram's `callback_data` holds at most 64 bytes.
  static let callbackLimit = 64

  /// One row of Telegram inline buttons: each a `callback_data` button carrying the token
  /// (read by `watch` through `getUpdates`), or, for a token longer than Telegram allows, a
  /// `url` button opening the confirmation page at `serve.url/act/TOKEN`.
  static func telegramRow(_ listing: Listing, links: ActionLinks, now: Date) -> [[String: Any]] {
    ListingAction.buttons.compactMap { action -> [String: Any]? in
      guard let token = links.token(action, site: listing.site, id: listing.id, now: now) else {
        return nil
      }
      if token.utf8.count <= callbackLimit {
        return ["text": action.label, "callback_data": token]
      }
      return ["text": action.label, "url": links.url(token: token)]
    }
  }
}

extension Channel {
  /// Whether the channel's messages may carry the buttons: not when its URL says
  /// `buttons=no` (then `watch` reads no Telegram presses for it either).
  package var wantsButtons: Bool {
    let asked = ChannelURL.parse(url)?.value("buttons")?.lowercased() ?? ""
    return !["no", "false", "0", "off"].contains(asked)
  }
}
