public import Markup

/// The items a feed's reader may pass over unread: those of an earlier read whose digests it
/// is given (docs/performance.md, "Unchanged items"). An item's digest is its bytes as written
/// in their place (``XMLDigest``), keyed to what else its reading depends on: `salt` (the
/// caller's: the reading's generation, the site, the request) and the feed's format and base
/// URL (relative links are resolved against it).
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

  /// What the digests of the items of a feed of this format and base are keyed to (mixed
  /// with each: ``XMLDigest/mixed(with:)``).
  public func key(format: FeedFormat, base: String?) -> XMLDigest {
    var text = "\(salt)\n\(format.rawValue)\n\(base ?? "")"
    return text.withUTF8 { XMLDigest(UnsafeRawBufferPointer($0)) }
  }
}
