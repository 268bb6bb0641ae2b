public import Foundation

/// What a listing's text was before a change (issue 28): kept by the store (`text_changes`),
/// announced with a word diff (``WordDiff``) to starred listings and to searches that name
/// `changed` in `notify_on`, and shown by `show` and the page.
public struct TextChange: Sendable, Equatable, Codable {
  /// The title before.
  public var oldTitle: String
  /// The description before (plain text).
  public var oldDescription: String
  /// When the change was found.
  public var changedAt: Date

  /// Creates a change.
  public init(oldTitle: String, oldDescription: String, changedAt: Date) {
    self.oldTitle = oldTitle
    self.oldDescription = oldDescription
    self.changedAt = changedAt
  }

  /// Whether `listing`'s title or description has other words than these (white space
  /// aside).
  public func differs(from listing: Listing) -> Bool {
    !WordDiff.sameWords(oldTitle, listing.title)
      || !WordDiff.sameWords(oldDescription, listing.description)
  }

  /// The word diffs to `listing`'s text, by field (`title`, `description`), of the fields
  /// whose words changed.
  public func diffs(to listing: Listing) -> [(field: String, parts: [WordDiff.Part])] {
    [("title", oldTitle, listing.title), ("description", oldDescription, listing.description)]
      .compactMap { field, old, new in
        WordDiff.sameWords(old, new) ? nil : (field, WordDiff.diff(old, new))
      }
  }

  /// Each of `changes` (newest first) with its word diffs to the text that followed it: the
  /// next newer change's text before, or `listing`'s as it is.
  public static func steps(_ changes: [TextChange], to listing: Listing) -> [(
    change: TextChange, diffs: [(field: String, parts: [WordDiff.Part])]
  )] {
    var after = listing
    return changes.map { change in
      let diffs = change.diffs(to: after)
      after.title = change.oldTitle
      after.description = change.oldDescription
      return (change, diffs)
    }
  }

  /// The diffs in plain text, one line a field: `title: iPad [-mini-]{+air+} 2`.
  public func plainDiff(to listing: Listing) -> String {
    diffs(to: listing).map { "\($0.field): \(WordDiff.plain($0.parts))" }
      .joined(separator: "\n")
  }
}
