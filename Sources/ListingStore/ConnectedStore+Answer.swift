internal import ClarissaCore

/// Recording what a search's answer held: "seen now" is written once for the answer
/// (`answers`), not per listing (``LastSeen``). A listing still in the answer and unchanged
/// costs its content hash, compared with the one read with the answer's members, and no write
/// (one passed over unread, ``SearchRecord/unchanged``, not even that); one new to the answer
/// gets its sighting written, one that left it gets its sighting's last seen written down (the
/// time of the answer it was last in), one whose fields changed is written whole. A sighting
/// keeps the digest of the item it was last read from (``UnchangedItems``), written when it
/// changes.
extension ConnectedStore {
  /// The listings of `record` seen at `now`, inside the record's transaction. A record that saw
  /// nothing leaves the last answer standing: what it held was last seen then.
  static func writeAnswer(_ record: SearchRecord, at now: StoreValue, in database: Connection)
    throws
  {
    guard !record.seen.isEmpty || !record.unchanged.isEmpty else { return }
    let search = StoreValue.text(record.search)
    // The stored content hashes read with the members when most of the answer was read; when
    // most was passed over, only those of the listings read, one by one.
    let joined = record.seen.count >= record.unchanged.count
    var members = try Self.members(of: search, withContent: joined, in: database)
    // Decided first, written after in key order (workers writing the same listings take their
    // locks in one order): only what is written is sorted, and only its listings are moved.
    var writes: [(key: ListingKey, write: AnswerWrite)] = []
    for index in record.seen.indices {
      let key = record.seen[index].key
      let hash = ListingField.contentHash(record.seen[index])
      let item = record.digests[key].map { ItemDigest(digest: $0, content: hash) }
      guard let member = members.index(forKey: key) else {
        // New to the answer: its stored hash is read when it is written.
        writes.append((key, .see(index, hash: hash, item: item)))
        continue
      }
      members.values[member].seen = true
      if !joined {
        members.values[member].hash = try storedHash(of: key, database)
      }
      let stored = members.values[member]
      if stored.hash != hash { writes.append((key, .change(index, hash: hash))) }
      if stored.item != item { writes.append((key, .item(item))) }
    }
    for key in record.unchanged {
      if let member = members.index(forKey: key) {
        members.values[member].seen = true
      } else {
        // Another worker's answer left it out since this run read the last one.
        writes.append((key, .rejoin))
      }
    }
    let before = writes.count
    for (key, member) in members where !member.seen { writes.append((key, .leave)) }
    let answered =
      writes.count == before
      ? nil
      : try database.rows("SELECT answered_at FROM answers WHERE search = ?", [search]) {
        $0.double(AnswerColumn.answeredAt)
      }.first
    for (key, write) in writes.sorted(by: { $0.key < $1.key }) {
      switch write {
      case .leave:
        try leave(key, search: search, answered: answered, database)
      case .see(let index, let hash, let item):
        try see(record.seen[index], hash: hash, item: item, in: record, at: now, database)
      case .change(let index, let hash):
        try upsert(record.seen[index], hash: hash, at: now, in: database)
      case .item(let item):
        try mark(key, item, search: search, database)
      case .rejoin:
        try rejoin(key, search: search, at: now, database)
      }
    }
    // Only forward: an answer received before the one recorded last, by a worker that records
    // late, does not make the listings of the answer seen earlier than they were.
    try database.run(
      "INSERT INTO answers(search, answered_at) VALUES(?, ?) ON CONFLICT(search) DO UPDATE SET "
        + "answered_at = \(LastSeen.later("answers.answered_at", "excluded.answered_at"))",
      [search, now])
  }

  /// The sightings of the search's last answer, each with its listing's content hash and its
  /// item's digest, in one statement by the answer's index: SQLite's planner, without
  /// statistics, would rather read all the search's sightings by primary key (53 ms for a
  /// million in `.ci/bench state`).
  /// Without `withContent`, every hash is nil.
  private static func members(
    of search: StoreValue, withContent: Bool, in database: Connection
  ) throws -> [ListingKey: (hash: String?, item: ItemDigest?, seen: Bool)] {
    var members: [ListingKey: (hash: String?, item: ItemDigest?, seen: Bool)] = [:]
    let content =
      withContent
      ? ("l.content_hash", " LEFT JOIN listings l ON l.site = s.site AND l.id = s.id")
      : ("NULL AS content_hash", "")
    try database.run(
      "SELECT s.site, s.id, s.item_digest, s.item_content, \(content.0) FROM sightings s"
        + "\(database.dialect.indexedBy("sightings_answer"))\(content.1) "
        + "WHERE s.search = ? AND s.in_answer", [search]
    ) { row in
      let item = row.optionalText(SightingColumn.itemDigest).map {
        ItemDigest(digest: $0, content: row.optionalText(SightingColumn.itemContent) ?? "")
      }
      let key = ListingKey(site: row.text(SightingColumn.site), id: row.text(SightingColumn.id))
      members[key] = (row.optionalText(ListingColumn.contentHash), item, false)
    }
    return members
  }

  /// A listing's stored content hash (nil: none, or no row).
  private static func storedHash(of key: ListingKey, _ database: Connection) throws -> String? {
    try database.rows(
      "SELECT content_hash FROM listings WHERE site = ? AND id = ?",
      [.text(key.site), .text(key.id)]
    ) { $0.optionalText(ListingColumn.contentHash) }.first ?? nil
  }

  /// A listing new to the answer: written whole when its content hash differs from the stored
  /// one (new, changed, or no hash: an import, an older store), and its sighting written.
  private static func see(
    _ listing: Listing, hash: String, item: ItemDigest?, in record: SearchRecord,
    at now: StoreValue, _ database: Connection
  ) throws {
    if try storedHash(of: listing.key, database) != hash {
      try upsert(listing, hash: hash, at: now, in: database)
    }
    try database.run(
      "INSERT INTO sightings(search, site, id, first_seen, last_seen, repost_of, "
        + "announced_price, in_answer, item_digest, item_content) "
        + "VALUES(?, ?, ?, ?, ?, ?, ?, TRUE, ?, ?) "
        + "ON CONFLICT(search, site, id) DO UPDATE SET last_seen = "
        + "\(LastSeen.later("sightings.last_seen", "excluded.last_seen")), "
        + "in_answer = TRUE, item_digest = excluded.item_digest, "
        + "item_content = excluded.item_content",
      [
        .text(record.search), .text(listing.site), .text(listing.id), now, now,
        .textOrNull(record.reposts[listing.key]), .doubleOrNull(listing.price),
        .textOrNull(item?.digest), .textOrNull(item?.content),
      ])
  }

  /// A sighting's item digest, or none.
  private static func mark(
    _ key: ListingKey, _ item: ItemDigest?, search: StoreValue, _ database: Connection
  ) throws {
    try database.run(
      "UPDATE sightings SET item_digest = ?, item_content = ? "
        + "WHERE search = ? AND site = ? AND id = ?",
      [
        .textOrNull(item?.digest), .textOrNull(item?.content), search, .text(key.site),
        .text(key.id),
      ])
  }

  /// A listing passed over unread that the answer no longer held when it was recorded: back in
  /// it, as its stored fields say (its sighting made again if it was forgotten meanwhile).
  private static func rejoin(
    _ key: ListingKey, search: StoreValue, at now: StoreValue, _ database: Connection
  ) throws {
    try database.run(
      "INSERT INTO sightings(search, site, id, first_seen, last_seen, announced_price, "
        + "in_answer) SELECT ?, site, id, ?, ?, price, TRUE FROM listings "
        + "WHERE site = ? AND id = ? ON CONFLICT(search, site, id) DO UPDATE SET "
        + "last_seen = \(LastSeen.later("sightings.last_seen", "excluded.last_seen")), "
        + "in_answer = TRUE",
      [search, now, now, .text(key.site), .text(key.id)])
  }

  /// A listing of the last answer missing from this one: its sighting last seen when that
  /// answer came, or at its own time if that is later (with no answer kept, which
  /// `state check` reports, its own time stands).
  private static func leave(
    _ key: ListingKey, search: StoreValue, answered: Double?, _ database: Connection
  ) throws {
    try database.run(
      "UPDATE sightings SET last_seen = \(LastSeen.later("last_seen", "?")), in_answer = FALSE "
        + "WHERE search = ? AND site = ? AND id = ?",
      [.doubleOrNull(answered), .doubleOrNull(answered), search, .text(key.site), .text(key.id)])
  }
}

/// The digest of the item a sighting was read from, with the listing's content hash then.
struct ItemDigest: Equatable {
  var digest: String
  var content: String
}

/// What the answer writes of one listing.
enum AnswerWrite {
  /// New to the answer (`record.seen[index]`).
  case see(Int, hash: String, item: ItemDigest?)
  /// In the answer, its fields changed.
  case change(Int, hash: String)
  /// In the answer, read from another item than before (or none): its digest written.
  case item(ItemDigest?)
  /// Passed over unread, but no longer in the answer (``SearchRecord/unchanged``).
  case rejoin
  /// Left the answer.
  case leave
}
