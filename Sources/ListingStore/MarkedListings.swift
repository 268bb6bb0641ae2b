public import ClarissaCore
public import Foundation

/// A starred listing as one search watches it (issue 28, `watched`): the source that last
/// returned it, that source's answers in a row without it, and when it was announced gone. A
/// source that failed or was not asked leaves it as it was: a failed city never makes a listing
/// gone.
public struct WatchedSource: Sendable, Equatable {
  /// The request URL that last returned the listing.
  public var source: String
  /// That source's answers in a row without it.
  public var missing: Int
  /// When it was announced gone; nil while it is not.
  public var goneAt: Date?

  /// Creates an entry.
  public init(source: String, missing: Int = 0, goneAt: Date? = nil) {
    self.source = source
    self.missing = missing
    self.goneAt = goneAt
  }
}

/// What a run judges one search's listings with beside their sightings: the listings a person
/// marked (``ListingMarks``). Read in a few statements over the marks, whatever the size of the
/// answer.
public struct MarkedListings: Sendable {
  /// Every starred listing.
  public var starred: Set<ListingKey> = []
  /// Every hidden listing.
  public var hidden: Set<ListingKey> = []
  /// The hidden listings as stored: a new id that is the same item (``Fingerprint``) is their
  /// repost, hidden too.
  public var hiddenListings: [Listing] = []
  /// The search's starred listings it has seen in an answer, by key.
  public var watched: [ListingKey: WatchedSource] = [:]
  /// Those listings as stored (a listing gone is told as it was last seen).
  public var stored: [ListingKey: Listing] = [:]

  /// Creates an empty set.
  public init() {}

  /// Whether no listing is starred or hidden.
  public var isEmpty: Bool { starred.isEmpty && hidden.isEmpty }
}

/// What a search's run leaves of its alerts (part of ``SearchRecord``).
public struct AlertRecord: Sendable {
  /// The starred listings' sources as they stand after this answer.
  public var watched: [ListingKey: WatchedSource] = [:]
  /// The text listings had before a change found now.
  public var textChanges: [ListingKey: TextChange] = [:]
  /// Reposts of starred listings: starred too, so watching continues.
  public var starred: [ListingKey] = []
  /// Reposts of hidden listings: hidden too.
  public var hidden: [ListingKey] = []

  /// Creates an empty record.
  public init() {}
}
