public import ClarissaCore
public import Foundation

/// The listing a new one repeats (a repost, a cross-post), as the store knows it.
public struct Original: Sendable, Equatable {
  /// Its id (the site is the repost's).
  public var id: String
  /// When the search first saw it.
  public var firstSeen: Date

  /// Creates an entry.
  public init(id: String, firstSeen: Date) {
    self.id = id
    self.firstSeen = firstSeen
  }
}

extension ListingMemory {
  /// ``originals(search:of:since:present:)`` of listings none of whose originals is in the
  /// answer being judged.
  public func originals(search: String, of listings: [Listing], since: Date) throws
    -> [ListingKey: Original]
  {
    try originals(search: search, of: listings, since: since, present: [])
  }
}
