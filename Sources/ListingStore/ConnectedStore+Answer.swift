import ClarissaCore

/// Recording what a search's answer held: "seen now" is written once for the answer
/// (`answers`), not per listing (``LastSeen``). A listing still in the answer and unchanged
/// costs a lookup of its content hash and no write; one new to the answer gets its sighting
/// written, one that left it gets its sighting's last seen written down (the time of the answer
/// it was last in), one whose fields changed is written whole.
extension ConnectedStore {
  /// The listings of `record` seen at `now`, inside the record's transaction. A record that saw
  /// nothing leaves the last answer standing: what it held was last seen then.
  static func writeAnswer(_ record: SearchRecord, at now: StoreValue, in database: Connection)
    throws
  {
    guard !record.seen.isEmpty else { return }
    let search = StoreValue.text(record.search)
    // By the answer's index: SQLite's planner, without statistics, would rather read all the
    // search's sightings by primary key (53 ms for a million in `.ci/bench state`).
    let members = Set(
      try database.rows(
        "SELECT site, id FROM sightings\(database.dialect.indexedBy("sightings_answer")) "
          + "WHERE search = ? AND in_answer", [search]
      ) { ListingKey(site: $0.text(0), id: $0.text(1)) })
    let left = members.subtracting(record.seen.map(\.key))
    let answered =
      left.isEmpty
      ? nil
      : try database.rows("SELECT answered_at FROM answers WHERE search = ?", [search]) {
        $0.double(0)
      }.first
    // In key order: workers writing the same listings take their locks in one order. (Keys
    // and positions are sorted, not listings: moving those was a third of the record's time.)
    let steps =
      record.seen.indices.map { (record.seen[$0].key, Optional($0)) }
      + left.map { ($0, Int?.none) }
    for (key, index) in steps.sorted(by: { $0.0 < $1.0 }) {
      if let index {
        try see(
          record.seen[index], in: record, isMember: members.contains(key), at: now, database)
      } else {
        try leave(key, search: search, answered: answered, database)
      }
    }
    try database.run(
      "INSERT INTO answers(search, answered_at) VALUES(?, ?) "
        + "ON CONFLICT(search) DO UPDATE SET answered_at = excluded.answered_at", [search, now])
  }

  /// A listing of the answer: written whole when its content hash differs from the stored one
  /// (new, changed, or no hash: an import, an older store); its sighting written when it was
  /// not in the last answer.
  private static func see(
    _ listing: Listing, in record: SearchRecord, isMember: Bool, at now: StoreValue,
    _ database: Connection
  ) throws {
    let hash = ListingField.contentHash(listing)
    let stored = try database.rows(
      "SELECT content_hash FROM listings WHERE site = ? AND id = ?",
      [.text(listing.site), .text(listing.id)]
    ) { $0.optionalText(0) }.first
    if stored != hash { try upsert(listing, hash: hash, at: now, in: database) }
    guard !isMember else { return }
    try database.run(
      "INSERT INTO sightings(search, site, id, first_seen, last_seen, repost_of, "
        + "announced_price, in_answer) VALUES(?, ?, ?, ?, ?, ?, ?, TRUE) "
        + "ON CONFLICT(search, site, id) DO UPDATE SET last_seen = excluded.last_seen, "
        + "in_answer = TRUE",
      [
        .text(record.search), .text(listing.site), .text(listing.id), now, now,
        .textOrNull(record.reposts[listing.key]), .doubleOrNull(listing.price),
      ])
  }

  /// A listing of the last answer missing from this one: its sighting last seen when that
  /// answer came (with no answer kept, which `state check` reports, its own time stands).
  private static func leave(
    _ key: ListingKey, search: StoreValue, answered: Double?, _ database: Connection
  ) throws {
    try database.run(
      "UPDATE sightings SET last_seen = coalesce(?, last_seen), in_answer = FALSE "
        + "WHERE search = ? AND site = ? AND id = ?",
      [.doubleOrNull(answered), search, .text(key.site), .text(key.id)])
  }
}
