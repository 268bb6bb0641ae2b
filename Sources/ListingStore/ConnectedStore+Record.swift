internal import ClarissaCore
internal import Foundation

/// Writing a search's part of a run, and the held queue.
extension ConnectedStore {
  /// One transaction: the listings (fields, price history, sightings), what is owed, held and
  /// recent, the sources that answered, the validators, and when the search ran.
  public func record(_ record: SearchRecord) throws {
    try self.record(search: record.search) { _ in record }
  }

  /// Reads what the store remembers of `search`, lets `decide` judge with it and records the
  /// result, all in one transaction, one worker at a time per search: a source another worker
  /// primed a moment ago is known here, whatever the run believed when it started.
  public func record(
    search: String, deciding decide: (SearchMemory?) throws -> SearchRecord
  ) throws {
    try locked { database in
      try database.transaction {
        if let lock = database.dialect.lockSearch { try database.run(lock, [.text(search)]) }
        let record = try decide(try Self.memory(of: search, in: database))
        try Self.write(record, in: database)
      }
    }
  }

  /// The writes of ``record(_:)``, inside its transaction.
  private static func write(_ record: SearchRecord, in database: Connection) throws {
    let now = StoreValue.time(record.now)
    try Self.writeAnswer(record, at: .time(record.answeredAt ?? record.now), in: database)
    for listing in record.owed {
      try Self.owe(listing.key, search: record.search, to: record.channels, at: now, database)
    }
    for listing in record.changed {
      try Self.announce(listing, search: record.search, to: record.channels, at: now, database)
    }
    for listing in record.held {
      try database.run(
        "INSERT INTO held(search, site, id, held_at) VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [.text(record.search), .text(listing.site), .text(listing.id), now])
    }
    for listing in record.recent {
      try database.run(
        "INSERT INTO recent(search, site, id, found) VALUES(?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [.text(record.search), .text(listing.site), .text(listing.id), now])
    }
    for listing in record.changed {
      // The feeds and the page show the change, found now, in place of the older entry.
      try database.run(
        "INSERT INTO recent(search, site, id, found, event, old_price) "
          + "VALUES(?, ?, ?, ?, ?, ?) ON CONFLICT(search, site, id) DO UPDATE SET "
          + "found = excluded.found, event = excluded.event, old_price = excluded.old_price",
        [
          .text(record.search), .text(listing.site), .text(listing.id), now,
          .textOrNull(listing.event?.kind.rawValue), .doubleOrNull(listing.event?.oldPrice),
        ])
    }
    try Self.writeCrossPosts(record, at: now, in: database)
    try Self.writeAlerts(record, at: now, in: database)
    try Self.writeSignals(record, at: now, in: database)
    try Self.remember(record, in: database)
  }

  /// The listing's fields as seen now with their content hash, and a price row when its price
  /// is new or changed.
  static func upsert(
    _ listing: Listing, hash: String, at now: StoreValue, in database: Connection
  ) throws {
    let key: [StoreValue] = [.text(listing.site), .text(listing.id)]
    if let price = listing.price {
      let before = try database.rows(
        "SELECT price, currency FROM listings WHERE site = ? AND id = ?", key
      ) { ($0.optionalDouble(PriceColumn.price), $0.optionalText(PriceColumn.currency)) }.first
      if before == nil || before?.0 != price || before?.1 != listing.currency {
        try database.run(
          "INSERT INTO prices(site, id, seen_at, price, currency) VALUES(?, ?, ?, ?, ?) "
            + "ON CONFLICT(site, id, seen_at) DO UPDATE SET price = excluded.price, "
            + "currency = excluded.currency",
          key + [now, .double(price), .textOrNull(listing.currency)])
      }
    }
    try database.run(
      ListingFields.upsert(
        times: ListingFields.seenNow, keepingText: listing.isDescriptionPending),
      key + ListingFields.values(listing) + [now, now, .text(hash)])
    try ListingFields.storeImages(listing, in: database)
  }

  /// An owed delivery per channel (one already there, delivered or not, is left alone); with
  /// an event (a price change, a return), one for that event.
  static func owe(
    _ key: ListingKey, search: String, to channels: [String], at now: StoreValue,
    _ database: Connection, event: ListingEvent? = nil
  ) throws {
    for channel in channels {
      try database.run(
        "INSERT INTO deliveries(search, site, id, channel, state, owed_at, event, "
          + "old_price, event_at) VALUES(?, ?, ?, ?, 'owed', ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        [
          .text(search), .text(key.site), .text(key.id), .text(channel), now,
          .text(event?.kind.rawValue ?? "new"), .doubleOrNull(event?.oldPrice),
          event == nil ? .double(0) : now,
        ])
    }
  }

  /// A change announced: owed to the channels as that event, and its price the one to compare
  /// with from now on (so a wobbling price is announced once per change, not on every run).
  private static func announce(
    _ listing: Listing, search: String, to channels: [String], at now: StoreValue,
    _ database: Connection
  ) throws {
    try owe(listing.key, search: search, to: channels, at: now, database, event: listing.event)
    try database.run(
      "UPDATE sightings SET announced_price = ? WHERE search = ? AND site = ? AND id = ?",
      [.doubleOrNull(listing.price), .text(search), .text(listing.site), .text(listing.id)])
  }

  /// The search's run, its sources ((known ∪ answered) ∩ asked) and the validators.
  private static func remember(_ record: SearchRecord, in database: Connection) throws {
    let now = StoreValue.time(record.began ?? record.now)
    let name = StoreValue.text(record.search)
    try database.run(
      "INSERT INTO searches(name, last_run, last_attempt, last_failures) VALUES(?, ?, ?, ?) "
        + "ON CONFLICT(name) DO UPDATE SET last_run = coalesce(excluded.last_run, searches.last_run), "
        + "last_attempt = excluded.last_attempt, last_failures = excluded.last_failures",
      [
        name, record.reached ? now : .null, now,
        record.failures.isEmpty ? .null : .text(StoreJSON.text(record.failures)),
      ])
    // A state that did not keep sources knew them all: from now on, those that answer.
    let allKnown = try database.integer(
      "SELECT all_sources_known FROM searches WHERE name = ?", [name])
    if allKnown != 0 {
      try database.run("UPDATE searches SET all_sources_known = FALSE WHERE name = ?", [name])
    }
    let known = Set(
      try database.rows("SELECT url FROM sources WHERE search = ?", [name]) {
        $0.text(SourceColumn.url)
      })
    for url in known.subtracting(record.asked) {
      try database.run("DELETE FROM sources WHERE search = ? AND url = ?", [name, .text(url)])
    }
    for url in record.answered.intersection(record.asked).subtracting(known) {
      try database.run(
        "INSERT INTO sources(search, url) VALUES(?, ?) ON CONFLICT DO NOTHING", [name, .text(url)])
    }
    for (url, validators) in record.validators {
      try database.run(
        "INSERT INTO validators(url, etag, last_modified) VALUES(?, ?, ?) ON CONFLICT(url) DO UPDATE "
          + "SET etag = excluded.etag, last_modified = excluded.last_modified",
        [.text(url), .textOrNull(validators.etag), .textOrNull(validators.lastModified)])
    }
  }

  public func held() throws -> [HeldListing] {
    try locked { database in
      try database.rows(
        "SELECT h.search, h.held_at, \(ListingColumns.selected) FROM held h "
          + "JOIN listings l ON l.site = h.site AND l.id = h.id ORDER BY h.held_at, h.search"
      ) {
        HeldListing(
          search: $0.text(HeldColumn.search), listing: ListingColumns.listing($0),
          heldAt: $0.date(HeldColumn.heldAt))
      }
    }
  }

  public func release(search: String, keys: [ListingKey], to channels: [String], at now: Date)
    throws
  {
    try locked { database in
      try database.transaction {
        for key in keys {
          try database.run(
            "DELETE FROM held WHERE search = ? AND site = ? AND id = ?",
            [.text(search), .text(key.site), .text(key.id)])
          try Self.owe(key, search: search, to: channels, at: .time(now), database)
        }
      }
    }
  }
}
