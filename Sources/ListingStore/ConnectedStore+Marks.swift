internal import ClarissaCore
public import Foundation

/// The marks a person set on one listing (issue 28): starred, hidden, a note; each with when.
public struct ListingMarks: Sendable, Equatable, Codable {
  /// When it was starred (watched); nil when not.
  public var starredAt: Date?
  /// When it was hidden; nil when not.
  public var hiddenAt: Date?
  /// The person's note.
  public var note: String?
  /// When the note was written.
  public var notedAt: Date?

  /// Creates marks.
  public init(
    starredAt: Date? = nil, hiddenAt: Date? = nil, note: String? = nil, notedAt: Date? = nil
  ) {
    self.starredAt = starredAt
    self.hiddenAt = hiddenAt
    self.note = note
    self.notedAt = notedAt
  }

  /// Whether it is starred.
  public var starred: Bool { starredAt != nil }
  /// Whether it is hidden.
  public var hidden: Bool { hiddenAt != nil }
}

/// One change of a listing's marks.
public enum ListingMark: Sendable, Equatable {
  /// Starred (a listing starred before keeps its time).
  case star
  /// No longer starred.
  case unstar
  /// Hidden (a listing hidden before keeps its time).
  case hide
  /// No longer hidden.
  case unhide
  /// The note set (cut to ``ListingMarks/noteLimit`` characters, control characters dropped but
  /// line breaks), or removed (nil or empty).
  case note(String?)
}

extension ListingMarks {
  /// The longest note kept, in characters.
  public static let noteLimit = 2000

  /// `text` as a note is kept: control characters but line breaks dropped, white space at the
  /// ends trimmed, at most ``noteLimit`` characters; nil when nothing is left.
  public static func cleanNote(_ text: String?) -> String? {
    guard let text else { return nil }
    let clean = String(SafeText.lines(text).trimmingCharacters(in: .whitespacesAndNewlines))
    return clean.isEmpty ? nil : String(clean.prefix(noteLimit))
  }
}

/// Which marked listings to list.
public enum MarkKind: String, Sendable, CaseIterable {
  /// Starred listings.
  case starred
  /// Hidden listings.
  case hidden
  /// Listings with a note.
  case noted
}

/// Marks, in both stores alike: one row per marked listing in `marks` (schema 13 / 9).
extension ConnectedStore {
  public func marks(of keys: [ListingKey]) throws -> [ListingKey: ListingMarks] {
    guard !keys.isEmpty else { return [:] }
    return try locked { database in
      try database.reading {
        var found: [ListingKey: ListingMarks] = [:]
        for key in Set(keys) { found[key] = try Self.marks(of: key, in: database) }
        return found
      }
    }
  }

  public func markedKeys(_ kind: MarkKind) throws -> [ListingKey] {
    let column = ["starred": "starred_at", "hidden": "hidden_at", "noted": "noted_at"][
      kind.rawValue, default: "starred_at"]
    return try locked { database in
      var keys: [ListingKey] = []
      try database.run(
        "SELECT site, id FROM marks WHERE \(column) IS NOT NULL ORDER BY \(column) DESC, site, id"
      ) { keys.append(ListingKey(site: $0.text(MarkColumn.site), id: $0.text(MarkColumn.id))) }
      return keys
    }
  }

  @discardableResult
  public func setMark(_ mark: ListingMark, on keys: [ListingKey], at now: Date) throws -> Int {
    try locked { database in
      try database.transaction {
        var changed = 0
        for key in Set(keys) {
          let before = try Self.marks(of: key, in: database)
          try Self.setMark(mark, on: key, at: now, in: database)
          if try Self.marks(of: key, in: database) != before { changed += 1 }
        }
        return changed
      }
    }
  }

  /// One mark set on one listing, inside the caller's transaction: a person's, or a run's on the
  /// repost of a starred or hidden listing (the same rules either way).
  static func setMark(
    _ mark: ListingMark, on key: ListingKey, at now: Date, in database: Connection
  ) throws {
    let assignment =
      switch mark {
      case .star: "starred_at = coalesce(marks.starred_at, excluded.starred_at)"
      case .unstar: "starred_at = NULL"
      case .hide: "hidden_at = coalesce(marks.hidden_at, excluded.hidden_at)"
      case .unhide: "hidden_at = NULL"
      case .note: "note = excluded.note, noted_at = excluded.noted_at"
      }
    let note = { () -> String? in
      if case .note(let text) = mark { return ListingMarks.cleanNote(text) }
      return nil
    }()
    let starred: Date? = mark == .star ? now : nil
    let hidden: Date? = mark == .hide ? now : nil
    try database.run(
      "INSERT INTO marks(site, id, starred_at, hidden_at, note, noted_at) "
        + "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(site, id) DO UPDATE SET \(assignment)",
      [
        .text(key.site), .text(key.id), .time(starred), .time(hidden),
        .textOrNull(note), .time(note == nil ? nil : now),
      ])
    try database.run(
      "DELETE FROM marks WHERE site = ? AND id = ? AND starred_at IS NULL "
        + "AND hidden_at IS NULL AND note IS NULL", [.text(key.site), .text(key.id)])
    switch mark {
    case .hide:
      // Dealt with: a hidden listing leaves the unviewed counts it is no longer shown in.
      try markViewed(key, at: now, in: database)
    case .unstar:
      // Watched no more: starred again, it starts afresh.
      try database.run(
        "DELETE FROM watched WHERE site = ? AND id = ?", [.text(key.site), .text(key.id)])
    default:
      break
    }
  }

  static func marks(of key: ListingKey, in database: Connection) throws -> ListingMarks? {
    var found: ListingMarks?
    try database.run(
      "SELECT starred_at, hidden_at, note, noted_at FROM marks WHERE site = ? AND id = ?",
      [.text(key.site), .text(key.id)]
    ) { found = marks($0) }
    return found
  }
}
