import ClarissaCore
import Foundation

/// Deliveries, the recent listings the outputs show, and retention.
extension ListingStore {
  public func owedDeliveries(maxAttempts: Int) throws -> [OwedDelivery] {
    try locked { database in
      try database.rows(
        "SELECT d.search, d.channel, d.attempts, d.last_error, \(Self.listingColumns) "
          + "FROM deliveries d JOIN listings l ON l.site = d.site AND l.id = d.id "
          + "WHERE d.state = 'owed' OR (d.state = 'failed' AND d.attempts < ?) "
          + "ORDER BY d.owed_at, d.rowid",
        [.int(maxAttempts)]
      ) {
        OwedDelivery(
          search: $0.text(0), listing: Self.listing($0, from: 4), channel: $0.text(1),
          attempts: $0.int(2), lastError: $0.optionalText(3))
      }
    }
  }

  public func markDelivered(search: String, key: ListingKey, channel: String, at now: Date)
    throws
  {
    try locked { database in
      try database.run(
        "INSERT INTO deliveries(search, site, id, channel, state, owed_at, at) "
          + "VALUES(?, ?, ?, ?, 'delivered', ?, ?) "
          + "ON CONFLICT DO UPDATE SET state = 'delivered', at = excluded.at",
        [.text(search), .text(key.site), .text(key.id), .text(channel), .time(now), .time(now)])
    }
  }

  public func markFailed(
    search: String, key: ListingKey, channel: String, error: String, at now: Date
  ) throws -> Int {
    try locked { database in
      let values: [SQLiteDatabase.Value] = [
        .text(search), .text(key.site), .text(key.id), .text(channel),
      ]
      try database.run(
        "INSERT INTO deliveries(search, site, id, channel, state, owed_at, at, attempts, "
          + "last_error) VALUES(?, ?, ?, ?, 'failed', ?, ?, 1, ?) "
          + "ON CONFLICT DO UPDATE SET state = 'failed', at = excluded.at, "
          + "attempts = attempts + 1, last_error = excluded.last_error",
        values + [.time(now), .time(now), .text(error)])
      return try database.integer(
        "SELECT attempts FROM deliveries WHERE search = ? AND site = ? AND id = ? AND channel = ?",
        values)
    }
  }

  public func recent(searches: [String], limit: Int) throws -> [RecentListing] {
    try locked { database in
      var result: [RecentListing] = []
      for search in searches {
        result += try database.rows(
          "SELECT r.found, \(Self.listingColumns) FROM recent r "
            + "JOIN listings l ON l.site = r.site AND l.id = r.id WHERE r.search = ? "
            + "ORDER BY r.found DESC, l.posted DESC, r.rowid DESC LIMIT ?",
          [.text(search), .int(limit)]
        ) {
          RecentListing(
            search: search, listing: Self.listing($0, from: 1),
            found: Date(timeIntervalSince1970: $0.double(0)))
        }
      }
      return result.sorted {
        ($0.found, $0.search, $0.listing.id) > ($1.found, $1.search, $1.listing.id)
      }
    }
  }
}
