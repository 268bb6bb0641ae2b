/// What a message, the report, `show` and the page say of a listing beside its own facts
/// (issue 28): the marks a person set on it, and the deal context the store knows (earlier
/// sightings, the price against similar listings, time on the market). Filled at delivery and
/// display time from the store, never by a site; absent (nil) where nothing is known.
public struct ListingAlert: Sendable, Equatable, Codable {
  /// Whether a person starred it (watches it: every change, gone, back and repost is told).
  public var starred: Bool
  /// A person's note on it.
  public var note: String?
  /// The deal context, one short line each (`seen before: $450 on 3 Mar as 7912345678`,
  /// `18% below the median of 37`, `on the market 12 days`), in the order to show them.
  public var context: [String]
  /// For a `changed` event: the word diff of title and description, one line a field
  /// (``TextChange/plainDiff(to:)``); for `reposted`: `was <old id>`.
  public var change: String? = nil

  /// Creates the details.
  public init(
    starred: Bool = false, note: String? = nil, context: [String] = [], change: String? = nil
  ) {
    self.starred = starred
    self.note = note
    self.context = context
    self.change = change
  }

  /// ``change`` of a repost: the id it was posted as before.
  public static func repostChange(of original: String) -> String { "was \(original)" }

  /// Whether there is nothing to say.
  public var isEmpty: Bool { !starred && note == nil && context.isEmpty && change == nil }
}
