public import Foundation

/// Unchanged items (``UnchangedItems``; docs/performance.md, "Unchanged items").
extension ConnectedStore {
  public func unchangedItems(search: String, site: String) throws -> UnchangedItems {
    try locked { database in
      let name = StoreValue.text(search)
      let answers = try database.rows(
        "SELECT answered_at FROM answers WHERE search = ?", [name]
      ) { $0.double(AnswerColumn.answeredAt) }
      guard let answered = answers.first else { return UnchangedItems(answeredAt: nil, ids: [:]) }
      var ids: [String: String] = [:]
      // By the answer's index, as the record's read of the answer (``writeAnswer``).
      try database.run(
        "SELECT s.item_digest, s.id FROM sightings s"
          + "\(database.dialect.indexedBy("sightings_answer")) JOIN listings l "
          + "ON l.site = s.site AND l.id = s.id WHERE s.search = ? AND s.in_answer AND s.site = ? "
          + "AND s.item_digest IS NOT NULL AND l.content_hash = s.item_content "
          + "AND NOT EXISTS (SELECT 1 FROM marks m WHERE m.site = s.site AND m.id = s.id "
          + "AND m.starred_at IS NOT NULL)", [name, .text(site)]
      ) { ids[$0.text(SightingColumn.itemDigest)] = $0.text(SightingColumn.id) }
      return UnchangedItems(answeredAt: Date(timeIntervalSince1970: answered), ids: ids)
    }
  }
}

/// The items of a search's last answer that its next answer may pass over unread when it holds
/// them unchanged (docs/performance.md, "Unchanged items"): by the digest of the item each
/// listing was read from, its id (of the site asked for). Only listings whose content is still the one read from that
/// item, and that are not starred (a starred listing's alerts are decided on every answer).
public struct UnchangedItems: Sendable, Equatable {
  /// When the last answer came (nil: the search has none).
  public var answeredAt: Date?
  /// Listing ids by digest.
  public var ids: [String: String]

  /// Creates a table.
  public init(answeredAt: Date?, ids: [String: String]) {
    self.answeredAt = answeredAt
    self.ids = ids
  }
}
