import Markup

/// The items a feed's reader may pass over unread: those of an earlier read whose digests it
/// is given (docs/performance.md, "Unchanged items"). An item's digest is what it held (every
/// element, attribute and text in it: ``XMLDigest``), keyed to what else its reading depends
/// on: `salt` (the caller's: the reading's generation, the site, the request) and the feed's
/// format and base URL (relative links are resolved against it).
public struct ItemPass: Sendable {
  /// What the caller keys digests to.
  public var salt: String
  /// The keyed digests of the items that may be passed over, each with what the caller knows
  /// it as (a listing's id).
  public var known: [XMLDigest: String]

  /// Creates a pass.
  public init(salt: String, known: [XMLDigest: String]) {
    self.salt = salt
    self.known = known
  }

  /// An item's digest keyed to its feed.
  public func key(_ digest: XMLDigest, format: FeedFormat, base: String?) -> XMLDigest {
    digest.mixed(with: "\(salt)\n\(format.rawValue)\n\(base ?? "")")
  }
}
