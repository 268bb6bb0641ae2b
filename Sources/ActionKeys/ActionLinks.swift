package import ClarissaCore
package import Foundation

/// What makes a message's buttons: the web interface's address as a phone reaches it, the
/// key, and how long a button works.
package struct ActionLinks: Sendable {
  /// `serve.url`, without a trailing `/`.
  package let base: String
  /// The signing key.
  package let key: ActionKey
  /// How long a button works.
  package let lifetime: Double

  /// Links under `base` (`serve.url`) signed with `key`, working for `lifetime` seconds.
  package init(base: String, key: ActionKey, lifetime: Double) {
    self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    self.key = key
    self.lifetime = lifetime
  }

  /// The signed token of `action` on the listing, made at `now`; nil when the listing's
  /// site and id are too long to carry.
  package func token(_ action: ListingAction, site: String, id: String, now: Date) -> String? {
    ActionToken(action: action, site: site, id: id, expires: now.addingTimeInterval(lifetime))
      .signed(with: key)
  }

  /// `serve.url/act/TOKEN` for `action` on the listing.
  package func url(_ action: ListingAction, site: String, id: String, now: Date) -> String? {
    token(action, site: site, id: id, now: now).map(url(token:))
  }

  /// `serve.url/act/TOKEN`.
  package func url(token: String) -> String { "\(base)/act/\(token)" }
}
