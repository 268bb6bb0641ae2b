internal import ClarissaCore
internal import Foundation

/// Alerts for marked listings (issue 28), in both stores alike: what the judge reads of the
/// marks and of the listings' text before a change, what a run writes of them (`watched`,
/// `text_changes`, marks carried to reposts), and what a message of such a change says.
extension ConnectedStore {
  public func markedListings(search: String) throws -> MarkedListings {
    try locked { database in
      try database.reading {
        var marked = MarkedListings()
        try database.run(
          "SELECT site, id, starred_at IS NOT NULL AS starred, hidden_at IS NOT NULL AS hidden "
            + "FROM marks "
            + "WHERE starred_at IS NOT NULL OR hidden_at IS NOT NULL"
        ) {
          let key = ListingKey(site: $0.text(MarkColumn.site), id: $0.text(MarkColumn.id))
          if $0.flag(MarkColumn.starred) { marked.starred.insert(key) }
          if $0.flag(MarkColumn.hidden) { marked.hidden.insert(key) }
        }
        guard !marked.isEmpty else { return marked }
        if !marked.hidden.isEmpty {
          marked.hiddenListings = try database.rows(
            "SELECT \(ListingColumns.selected) FROM marks m JOIN listings l "
              + "ON l.site = m.site AND l.id = m.id WHERE m.hidden_at IS NOT NULL"
          ) { ListingColumns.listing($0) }
        }
        try database.run(
          "SELECT w.source, w.missing, w.gone_at, \(ListingColumns.selected) FROM watched w "
            + "JOIN marks m ON m.site = w.site AND m.id = w.id AND m.starred_at IS NOT NULL "
            + "JOIN listings l ON l.site = w.site AND l.id = w.id WHERE w.search = ?",
          [.text(search)]
        ) {
          let listing = ListingColumns.listing($0)
          marked.watched[listing.key] = WatchedSource(
            source: $0.text(WatchedColumn.source), missing: $0.int(WatchedColumn.missing),
            goneAt: $0.optionalDate(WatchedColumn.goneAt))
          marked.stored[listing.key] = listing
        }
        return marked
      }
    }
  }

  public func textsBefore(_ listings: [Listing], at now: Date) throws -> [ListingKey: TextChange] {
    guard !listings.isEmpty else { return [:] }
    return try locked { database in
      try database.reading {
        var found: [ListingKey: TextChange] = [:]
        // The text is read only where the content hash differs: most listings of a poll are
        // unchanged, and cost their hash alone.
        for listing in listings {
          try database.run(
            "SELECT title, description FROM listings WHERE site = ? AND id = ? "
              + "AND (content_hash IS NULL OR content_hash != ?)",
            [
              .text(listing.site), .text(listing.id), .text(ListingField.contentHash(listing)),
            ]
          ) {
            found[listing.key] = TextChange(
              oldTitle: $0.text(ChangedText.title),
              oldDescription: $0.optionalText(ChangedText.description) ?? "", changedAt: now)
          }
        }
        return found
      }
    }
  }

  public func textChanges(of key: ListingKey) throws -> [TextChange] {
    try locked { database in
      try Self.textChanges(of: key, limit: nil, in: database)
    }
  }

  /// The text changes of a listing, newest first.
  static func textChanges(of key: ListingKey, limit: Int?, in database: Connection) throws
    -> [TextChange]
  {
    try database.rows(
      "SELECT old_title, old_description, changed_at FROM text_changes WHERE site = ? AND id = ? "
        + "ORDER BY changed_at DESC" + (limit.map { " LIMIT \($0)" } ?? ""),
      [.text(key.site), .text(key.id)]
    ) {
      TextChange(
        oldTitle: $0.text(TextChangeColumn.oldTitle),
        oldDescription: $0.text(TextChangeColumn.oldDescription),
        changedAt: $0.date(TextChangeColumn.changedAt))
    }
  }

  /// The writes of a record's alerts, inside its transaction.
  static func writeAlerts(_ record: SearchRecord, at now: StoreValue, in database: Connection)
    throws
  {
    let alerts = record.alerts
    for (key, watched) in alerts.watched.sorted(by: { $0.key < $1.key }) {
      try database.run(
        "INSERT INTO watched(search, site, id, source, missing, gone_at) VALUES(?, ?, ?, ?, ?, ?) "
          + "ON CONFLICT(search, site, id) DO UPDATE SET source = excluded.source, "
          + "missing = excluded.missing, gone_at = excluded.gone_at",
        [
          .text(record.search), .text(key.site), .text(key.id), .text(watched.source),
          .int(watched.missing), .time(watched.goneAt),
        ])
    }
    for (key, change) in alerts.textChanges.sorted(by: { $0.key < $1.key }) {
      try recordTextChange(change, of: key, at: now, in: database)
    }
    // A starred listing's repost is starred, a hidden one's hidden, as a person's mark is.
    for (keys, mark) in [(alerts.starred, ListingMark.star), (alerts.hidden, .hide)] {
      for key in keys { try setMark(mark, on: key, at: record.now, in: database) }
    }
  }

  /// Keeps the text a listing had before a change. A text it had before (a feed that flips
  /// between two) is moved to now rather than kept twice, and only the newest
  /// ``textChangesKept`` are kept: a flipping listing holds two rows, any listing five at most.
  static func recordTextChange(
    _ change: TextChange, of key: ListingKey, at now: StoreValue, in database: Connection
  ) throws {
    let listing: [StoreValue] = [.text(key.site), .text(key.id)]
    try database.run(
      "DELETE FROM text_changes WHERE site = ? AND id = ? AND old_title = ? "
        + "AND old_description = ?",
      listing + [.text(change.oldTitle), .text(change.oldDescription)])
    try database.run(
      "INSERT INTO text_changes(site, id, changed_at, old_title, old_description) "
        + "VALUES(?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
      listing + [now, .text(change.oldTitle), .text(change.oldDescription)])
    try database.run(
      "DELETE FROM text_changes WHERE site = ? AND id = ? AND changed_at < (SELECT changed_at "
        + "FROM text_changes WHERE site = ? AND id = ? ORDER BY changed_at DESC LIMIT 1 "
        + "OFFSET \(textChangesKept - 1))",
      listing + listing)
  }

  /// What a message of a text change or a repost of a starred listing says beside the
  /// listing (``ListingAlert/change``): the word diff from the text before, or the id it
  /// was posted as before.
  static func describeChanges(_ owed: inout [OwedDelivery], in database: Connection) throws {
    for index in owed.indices {
      let listing = owed[index].listing
      var change: String?
      switch listing.event?.kind {
      case .changed?:
        change = try textChanges(of: listing.key, limit: 1, in: database).first?
          .plainDiff(to: listing)
      case .reposted?:
        change = try database.rows(
          "SELECT repost_of FROM sightings WHERE search = ? AND site = ? AND id = ?",
          [.text(owed[index].search), .text(listing.site), .text(listing.id)]
        ) { $0.optionalText(SightingColumn.repostOf) }.first.flatMap { $0 }
          .map(ListingAlert.repostChange(of:))
      default: continue
      }
      guard let change, !change.isEmpty else { continue }
      var alert = listing.alert ?? ListingAlert()
      alert.change = change
      owed[index].listing.alert = alert
    }
  }
}

/// Text changes kept per listing, at most: the newest (five: the listing page shows them all). A feed whose text changes on every poll
/// added every old text for ever (9.6 MB a poll for 2,000 listings, issue 40).
let textChangesKept = 5

/// The `listings` facts a text change keeps (``ListingField/all``'s columns of those names).
private enum ChangedText: String, TableColumns { case title, description }
