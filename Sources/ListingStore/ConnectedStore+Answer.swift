import ClarissaCore

/// Recording what a search's answer held: "seen now" is written once for the answer
/// (`answers`), not per listing (``LastSeen``). A listing still in the answer and unchanged
/// costs its content hash, compared with the one read with the answer's members, and no write; one new to the answer gets its sighting
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
    var members = try Self.members(of: search, in: database)
    // Decided first, written after in key order (workers writing the same listings take their
    // locks in one order): only what is written is sorted, and only its listings are moved.
    var writes: [(key: ListingKey, seen: (index: Int, hash: String)?)] = []
    for index in record.seen.indices {
      let key = record.seen[index].key
      let hash = ListingField.contentHash(record.seen[index])
      guard let member = members.index(forKey: key) else {
        // New to the answer: its stored hash is read when it is written.
        writes.append((key, (index, hash)))
        continue
      }
      members.values[member].seen = true
      guard members.values[member].hash != hash else { continue }
      members.values[member].hash = hash
      writes.append((key, (index, hash)))
    }
    let before = writes.count
    for (key, member) in members where !member.seen { writes.append((key, nil)) }
    let answered =
      writes.count == before
      ? nil
      : try database.rows("SELECT answered_at FROM answers WHERE search = ?", [search]) {
        $0.double(0)
      }.first
    for (key, seen) in writes.sorted(by: { $0.key < $1.key }) {
      guard let seen else {
        try leave(key, search: search, answered: answered, database)
        continue
      }
      if members[key] != nil {
        try upsert(record.seen[seen.index], hash: seen.hash, at: now, in: database)
      } else {
        try see(record.seen[seen.index], hash: seen.hash, in: record, at: now, database)
      }
    }
    try database.run(
      "INSERT INTO answers(search, answered_at) VALUES(?, ?) "
        + "ON CONFLICT(search) DO UPDATE SET answered_at = excluded.answered_at", [search, now])
  }

  /// The sightings of the search's last answer, each with its listing's content hash, in one
  /// statement by the answer's index: SQLite's planner, without statistics, would rather read
  /// all the search's sightings by primary key (53 ms for a million in `.ci/bench state`).
  private static func members(of search: StoreValue, in database: Connection) throws
    -> [ListingKey: (hash: String?, seen: Bool)]
  {
    var members: [ListingKey: (hash: String?, seen: Bool)] = [:]
    try database.run(
      "SELECT s.site, s.id, l.content_hash FROM sightings s"
        + "\(database.dialect.indexedBy("sightings_answer")) LEFT JOIN listings l "
        + "ON l.site = s.site AND l.id = s.id WHERE s.search = ? AND s.in_answer", [search]
    ) { members[ListingKey(site: $0.text(0), id: $0.text(1))] = ($0.optionalText(2), false) }
    return members
  }

  /// A listing new to the answer: written whole when its content hash differs from the stored
  /// one (new, changed, or no hash: an import, an older store), and its sighting written.
  private static func see(
    _ listing: Listing, hash: String, in record: SearchRecord, at now: StoreValue,
    _ database: Connection
  ) throws {
    let stored = try database.rows(
      "SELECT content_hash FROM listings WHERE site = ? AND id = ?",
      [.text(listing.site), .text(listing.id)]
    ) { $0.optionalText(0) }.first
    if stored != hash { try upsert(listing, hash: hash, at: now, in: database) }
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
