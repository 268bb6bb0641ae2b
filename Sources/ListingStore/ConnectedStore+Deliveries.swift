internal import ClarissaCore
internal import Foundation
internal import Tracing

/// Deliveries, the recent listings the outputs show, and retention.
extension ConnectedStore {
  public func owedDeliveries(maxAttempts: Int, searches: Set<String>?) throws -> [OwedDelivery] {
    try locked { database in
      let sql = database.dialect
      var mine = ""
      var values: [StoreValue] = [.int(maxAttempts)]
      // `d.search IN (?3, ?4, ...)` when asked for some searches only.
      let names = searches.map { $0.sorted() }
      let of = names.map { names in
        "AND d.search IN (" + (0..<names.count).map { "?\($0 + 3)" }.joined(separator: ", ") + ") "
      }
      if let claim = deliveryClaim {
        // Workers sharing the store each send only what they claimed; rows another worker
        // is claiming at this moment are skipped, not waited for.
        try database.run(
          "UPDATE deliveries SET claimed_by = $2, claimed_until = $3::float8 + $4::float8 "
            + "WHERE seq IN (SELECT seq FROM deliveries d WHERE (state = 'owed' OR "
            + "(state = 'failed' AND attempts < $1)) AND (claimed_until IS NULL OR "
            + "claimed_until < $3::float8 OR claimed_by = $2) "
            + (names == nil ? "" : "AND d.search = ANY($5::text[]) ")
            + "FOR UPDATE SKIP LOCKED)",
          [.int(maxAttempts), .text(claim.worker), .time(Date()), .double(claim.seconds)]
            + (names.map { [StoreValue.textArray($0)] } ?? []))
        mine = "AND d.claimed_by = ?2 "
      }
      if let names {
        // ?2 is the worker (unused without a claim: an empty text keeps the numbering).
        values += [.text(deliveryClaim?.worker ?? "")] + names.map { .text($0) }
      } else if let claim = deliveryClaim {
        values.append(.text(claim.worker))
      }
      var owed = try database.rows(
        "SELECT d.search, d.channel, d.attempts, d.last_error, d.event, d.old_price, "
          // The posts folded into it, through their index (the planner, without statistics,
          // walked all of the search's sightings: 2.2 s for 20 deliveries among a million).
          + "(SELECT \(sql.jsonArray("r.id")) FROM (SELECT s.id FROM sightings s"
          + "\(sql.indexedBy("sightings_repost_of")) WHERE s.search = d.search AND s.site = d.site AND s.repost_of = d.id "
          + "ORDER BY s.first_seen, s.id) r) AS reposts, \(ListingColumns.selected) "
          + "FROM deliveries d JOIN listings l ON l.site = d.site AND l.id = d.id "
          + "WHERE (d.state = 'owed' OR (d.state = 'failed' AND d.attempts < ?1)) "
          // A listing owed twice to a channel (new, and since changed) is sent once, as it is
          // now: the newest open delivery stands for both, and its receipt closes both.
          + "AND d.\(sql.rowid) = (SELECT max(e.\(sql.rowid)) FROM deliveries e WHERE e.search = d.search "
          + "AND e.site = d.site AND e.id = d.id AND e.channel = d.channel "
          + "AND (e.state = 'owed' OR (e.state = 'failed' AND e.attempts < ?1))) "
          + mine + (of ?? "") + "ORDER BY d.owed_at, d.\(sql.rowid)",
        values
      ) {
        var listing = ListingColumns.listing($0)
        let reposts = StoreJSON.strings($0.text(DeliveryColumn.reposts)) ?? []
        listing.alsoPostedAs = reposts.isEmpty ? nil : reposts
        if let kind = ListingEventKind(rawValue: $0.text(DeliveryColumn.event)), kind != .new {
          listing.event = ListingEvent(
            kind: kind, oldPrice: $0.optionalDouble(DeliveryColumn.oldPrice))
        }
        return OwedDelivery(
          search: $0.text(DeliveryColumn.search), listing: listing,
          channel: $0.text(DeliveryColumn.channel), attempts: $0.int(DeliveryColumn.attempts),
          lastError: $0.optionalText(DeliveryColumn.lastError))
      }
      try Self.describeChanges(&owed, in: database)
      return owed
    }
  }

  public func hasOwedDeliveries(maxAttempts: Int) throws -> Bool {
    try locked { database in
      var sql =
        "SELECT EXISTS(SELECT 1 FROM deliveries WHERE (state = 'owed' OR (state = 'failed' AND "
        + "attempts < ?))"
      var values: [StoreValue] = [.int(maxAttempts)]
      if let claim = deliveryClaim {
        sql += " AND (claimed_until IS NULL OR claimed_until < ? OR claimed_by = ?)"
        values += [.time(Date()), .text(claim.worker)]
      }
      return try database.integer(sql + ")", values) != 0
    }
  }

  public func markDelivered(search: String, key: ListingKey, channel: String, at now: Date)
    throws
  {
    try locked { try Self.delivered(search, key, channel, now, in: $0) }
    DeliveryTrace.note("committed", "\(channel) \(key.id)")
  }

  public func markDelivered(
    _ carried: [(search: String, keys: [ListingKey])], channel: String, at now: Date
  ) throws {
    // One transaction: a process killed half-way leaves the whole message owed, never a part
    // of it recorded and the rest sent again in another message.
    try locked { database in
      try database.transaction {
        for (search, keys) in carried {
          for key in keys { try Self.delivered(search, key, channel, now, in: database) }
        }
      }
    }
    for key in carried.flatMap(\.keys) { DeliveryTrace.note("committed", "\(channel) \(key.id)") }
  }

  /// Every open delivery of the listing to the channel: the message sent carried the latest.
  private static func delivered(
    _ search: String, _ key: ListingKey, _ channel: String, _ now: Date, in database: Connection
  ) throws {
    let row: [StoreValue] = [.text(search), .text(key.site), .text(key.id), .text(channel)]
    try database.run(
      "UPDATE deliveries SET state = 'delivered', at = ? WHERE search = ? AND site = ? "
        + "AND id = ? AND channel = ? AND state != 'delivered'", [.time(now)] + row)
    guard database.changes == 0 else { return }
    try database.run(
      "INSERT INTO deliveries(search, site, id, channel, state, owed_at, at) "
        + "VALUES(?, ?, ?, ?, 'delivered', ?, ?) ON CONFLICT DO NOTHING",
      row + [.time(now), .time(now)])
  }

  public func markFailed(
    search: String, key: ListingKey, channel: String, error: String, at now: Date
  ) throws -> Int {
    try locked { database in
      let values: [StoreValue] = [
        .text(search), .text(key.site), .text(key.id), .text(channel),
      ]
      try database.run(
        "UPDATE deliveries SET state = 'failed', at = ?, attempts = attempts + 1, "
          + "last_error = ? WHERE search = ? AND site = ? AND id = ? AND channel = ? "
          + "AND state != 'delivered'", [.time(now), .text(error)] + values)
      if database.changes == 0 {
        try database.run(
          "INSERT INTO deliveries(search, site, id, channel, state, owed_at, at, "
            + "attempts, last_error) VALUES(?, ?, ?, ?, 'failed', ?, ?, 1, ?) ON CONFLICT DO NOTHING",
          values + [.time(now), .time(now), .text(error)])
      }
      return try database.integer(
        "SELECT max(attempts) FROM deliveries WHERE search = ? AND site = ? AND id = ? "
          + "AND channel = ? AND state != 'delivered'", values)
    }
  }

  public func recent(searches: [String], limit: Int) throws -> [RecentListing] {
    try locked { database in
      var result: [RecentListing] = []
      for search in searches {
        result += try database.rows(
          "SELECT r.found, r.event, r.old_price, \(ListingColumns.selected) FROM recent r "
            + "JOIN listings l ON l.site = r.site AND l.id = r.id\(Self.markJoin) "
            + "WHERE r.search = ? AND \(MarkFilter.notHidden.condition ?? "TRUE") "
            + "ORDER BY r.found DESC, l.posted DESC, r.\(database.dialect.rowid) DESC LIMIT ?",
          [.text(search), .int(limit)]
        ) { row in
          var listing = ListingColumns.listing(row)
          listing.event = row.optionalText(RecentColumn.event).flatMap(
            ListingEventKind.init(rawValue:)
          ).map { ListingEvent(kind: $0, oldPrice: row.optionalDouble(RecentColumn.oldPrice)) }
          return RecentListing(
            search: search, listing: listing, found: row.date(RecentColumn.found))
        }
      }
      return result.sorted {
        ($0.found, $0.search, $0.listing.id) > ($1.found, $1.search, $1.listing.id)
      }
    }
  }
}
