internal import ClarissaCore

/// Which listings a ``ListingQuery`` finds by the marks a person set (``ListingMarks``).
public enum MarkFilter: String, Sendable, CaseIterable {
  /// Every listing but the hidden ones: what is shown unless a person asks for the hidden.
  case notHidden
  /// Every listing, hidden or not.
  case any
  /// Only the starred listings, the most recently starred first.
  case starred
  /// Only the hidden listings, the most recently hidden first.
  case hidden

  /// The partial index of `marks` the query starts from, for the starred or the hidden.
  var index: String? {
    switch self {
    case .starred: "marks_starred"
    case .hidden: "marks_hidden"
    case .notHidden, .any: nil
    }
  }

  /// The condition on `marks m` (joined to every listing).
  var condition: String? {
    switch self {
    case .notHidden: "m.hidden_at IS NULL"
    case .any: nil
    case .starred: "m.starred_at IS NOT NULL"
    case .hidden: "m.hidden_at IS NOT NULL"
    }
  }
}

extension ConnectedStore {
  /// Every listing's marks beside it (`marks m`, most listings have none).
  static var markJoin: String { " LEFT JOIN marks m ON m.site = l.site AND m.id = l.id" }

  /// The columns of `marks m` that ``marks(_:)`` reads.
  static var markColumns: String { "m.starred_at, m.hidden_at, m.note, m.noted_at" }

  /// The starred and the hidden listed by when they were marked, the latest first.
  static func markOrder(_ query: ListingQuery) -> String {
    switch query.marked {
    case .starred: "m.starred_at DESC, "
    case .hidden: "m.hidden_at DESC, "
    case .notHidden, .any: ""
    }
  }

  /// The marks read from ``markColumns`` by their names; nil when the listing has none.
  static func marks(_ row: some StoreRow) -> ListingMarks? {
    let marks = ListingMarks(
      starredAt: row.optionalDate(MarkColumn.starredAt),
      hiddenAt: row.optionalDate(MarkColumn.hiddenAt), note: row.optionalText(MarkColumn.note),
      notedAt: row.optionalDate(MarkColumn.notedAt))
    return marks == ListingMarks() ? nil : marks
  }
}
