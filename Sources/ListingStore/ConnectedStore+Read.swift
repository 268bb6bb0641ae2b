internal import ClarissaCore
internal import Foundation

/// Reading for the plan, the fetch and the judge: by key, in both stores.
extension ConnectedStore {
  public func searches(_ names: [String]) throws -> [String: SearchMemory] {
    try locked { database in
      var result: [String: SearchMemory] = [:]
      for name in names { result[name] = try Self.memory(of: name, in: database) }
      return result
    }
  }

  /// What the store remembers of one search now (nil: never run, nothing seen).
  static func memory(of name: String, in database: Connection) throws -> SearchMemory? {
    let rows = try database.rows(
      "SELECT last_run, last_attempt, all_sources_known FROM searches WHERE name = ?",
      [.text(name)]
    ) {
      (
        $0.optionalDate(SearchColumn.lastRun), $0.optionalDate(SearchColumn.lastAttempt),
        $0.flag(SearchColumn.allSourcesKnown)
      )
    }
    let listed = try database.integer(
      "SELECT EXISTS(SELECT 1 FROM sightings WHERE search = ?)", [.text(name)])
    guard let row = rows.first else {
      return listed != 0 ? SearchMemory(hasListings: true) : nil
    }
    let sources = try database.rows(
      "SELECT url FROM sources WHERE search = ?", [.text(name)]
    ) { $0.text(SourceColumn.url) }
    return SearchMemory(
      lastRun: row.0, lastAttempt: row.1,
      sources: row.2 ? nil : Set(sources), hasListings: listed != 0)
  }

  public func validators(for urls: [String]) throws -> [String: Validators] {
    try locked { database in
      var result: [String: Validators] = [:]
      for url in Set(urls) {
        try database.run(
          "SELECT etag, last_modified FROM validators WHERE url = ?", [.text(url)]
        ) {
          result[url] = Validators(
            etag: $0.optionalText(ValidatorColumn.etag),
            lastModified: $0.optionalText(ValidatorColumn.lastModified))
        }
      }
      return result
    }
  }

  public func cooldowns() throws -> [String: Cooldown] {
    try locked { database in
      var result: [String: Cooldown] = [:]
      try database.run(
        "SELECT host, until, reason, since, status, answer, urls FROM cooldowns"
      ) { row in
        result[row.text(CooldownColumn.host)] = Cooldown(
          until: row.date(CooldownColumn.until), reason: row.text(CooldownColumn.reason),
          since: row.optionalDate(CooldownColumn.since),
          status: row.optionalInt(CooldownColumn.status),
          answer: row.optionalText(CooldownColumn.answer),
          urls: row.optionalText(CooldownColumn.urls).flatMap(StoreJSON.strings))
      }
      return result
    }
  }

  public func setCooldown(_ cooldown: Cooldown?, host: String) throws {
    try locked { database in
      guard let cooldown else {
        try database.run("DELETE FROM cooldowns WHERE host = ?", [.text(host)])
        return
      }
      try database.run(
        "INSERT INTO cooldowns(host, until, reason, since, status, answer, urls) "
          + "VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(host) DO UPDATE SET until = excluded.until, "
          + "reason = excluded.reason, since = excluded.since, status = excluded.status, "
          + "answer = excluded.answer, urls = excluded.urls",
        [
          .text(host), .time(cooldown.until), .text(cooldown.reason), .time(cooldown.since),
          .intOrNull(cooldown.status), .textOrNull(cooldown.answer),
          .textOrNull(cooldown.urls.map(StoreJSON.text)),
        ])
    }
  }

  public func lookUp(search: String, keys: [ListingKey]) throws -> [ListingKey: Sighting] {
    try locked { database in
      try database.reading {
        try Self.lookUp(search, keys, database, inBulk: keys.count >= Self.bulkLookUp)
      }
    }
  }

  /// From this many keys on, ``lookUp(search:keys:)`` reads the whole last answer at once: a poll
  /// whose unchanged items were passed over asks only for the few it read (``UnchangedItems``),
  /// and reading 20,000 sightings for 100 of them took 13 ms.
  static var bulkLookUp: Int { 256 }

  /// ``lookUp(search:keys:)`` in one read transaction: its database locks taken once, not per
  /// listing (1.7 ms for 360 known listings in `.ci/bench state` when taken per listing).
  /// `inBulk`: the sightings of the search's last answer are read in one statement (by the
  /// answer's index: as many rows as that answer had, however large the store), and only the keys
  /// new to the answer one by one; otherwise every key is read alone. Both give the same
  /// sightings (`StoreLookUpTests`).
  static func lookUp(
    _ search: String, _ keys: [ListingKey], _ database: Connection, inBulk: Bool
  ) throws -> [ListingKey: Sighting] {
    let sql = database.dialect
    var result: [ListingKey: Sighting] = [:]
    if inBulk {
      try database.run(
        "SELECT s.site, s.id, \(sightingColumns(sql)) FROM sightings s"
          + "\(sql.indexedBy("sightings_answer")) WHERE s.search = ? AND s.in_answer",
        [.text(search)]
      ) {
        result[ListingKey(site: $0.text(SightingColumn.site), id: $0.text(SightingColumn.id))] =
          sighting($0)
      }
    }
    let answer = result.count
    var found = 0
    var others: [ListingKey: Sighting] = [:]
    let byKey =
      "SELECT \(sightingColumns(sql)) FROM sightings s WHERE s.search = ? AND s.site = ? AND s.id = ?"
    for key in keys {
      if result.index(forKey: key) != nil {
        found += 1
        continue
      }
      try database.run(byKey, [.text(search), .text(key.site), .text(key.id)]) {
        others[key] = sighting($0)
      }
    }
    // The answer's rows are the result as read when the keys asked for each once (a poll of the
    // listings of the last answer: no second dictionary of them); otherwise only those asked.
    if found != answer || Set(keys).count != keys.count {
      let asked = Set(keys)
      result = result.filter { asked.contains($0.key) }
    }
    result.merge(others) { known, _ in known }
    return result
  }

  /// What a lookup reads of a sighting (`s`, a row of `sightings`): first seen, last seen, the
  /// channels that accepted it (in the order they did; asked only of a sighting with a delivery,
  /// which spares most rows a sort), whether it is held, the price last announced.
  private static func sightingColumns(_ sql: SQLDialect) -> String {
    """
    s.first_seen, \(LastSeen.sighting("s")) AS last_seen,
      CASE WHEN EXISTS(SELECT 1 FROM deliveries d WHERE d.search = s.search AND d.site = s.site
        AND d.id = s.id AND d.state = 'delivered') THEN
      (SELECT \(sql.joinedBySeparator("c.channel")) FROM
        (SELECT channel FROM deliveries d
         WHERE d.search = s.search AND d.site = s.site AND d.id = s.id AND d.state = 'delivered'
         GROUP BY channel ORDER BY min(d.at), min(d.\(sql.rowid))) c) END AS delivered_to,
      EXISTS(SELECT 1 FROM held h WHERE h.search = s.search AND h.site = s.site AND h.id = s.id)
        AS held,
      s.announced_price
    """
  }

  /// The sighting of ``sightingColumns(_:)``, read by their names.
  private static func sighting(_ row: Connection.Row) -> Sighting {
    Sighting(
      firstSeen: row.date(SightingColumn.firstSeen), lastSeen: row.date(SightingColumn.lastSeen),
      deliveredTo: row.optionalText(SightingColumn.deliveredTo).map {
        $0.split(separator: "\u{1F}").map(String.init)
      } ?? [],
      held: row.flag(SightingColumn.held),
      announcedPrice: row.optionalDouble(SightingColumn.announcedPrice))
  }

  public func unviewedCounts() throws -> [String: Int] {
    try locked { database in
      var counts: [String: Int] = [:]
      try database.run("SELECT search, count FROM unviewed") {
        counts[$0.text(UnviewedColumn.search)] = $0.int(UnviewedColumn.count)
      }
      return counts
    }
  }

  // MARK: - For `state info`

  static func searchInfo(_ database: Connection) throws -> [StoreInfo.Search] {
    var searches: [String: StoreInfo.Search] = [:]
    try database.run("SELECT name, last_run, last_attempt FROM searches") { row in
      let name = row.text(SearchColumn.name)
      searches[name] = StoreInfo.Search(
        name: name, listings: 0, lastRun: row.optionalDate(SearchColumn.lastRun),
        lastAttempt: row.optionalDate(SearchColumn.lastAttempt))
    }
    try database.run("SELECT search, count(*) AS count FROM sightings GROUP BY search") { row in
      let name = row.text(SightingColumn.search)
      searches[name, default: StoreInfo.Search(name: name, listings: 0)]
        .listings = row.int(ComputedColumn.count)
    }
    return searches.values.sorted { $0.name < $1.name }
  }

  static func channelInfo(_ database: Connection) throws -> [StoreInfo.Channel] {
    var channels: [String: StoreInfo.Channel] = [:]
    try database.run(
      "SELECT channel, state, count(*) AS count FROM deliveries GROUP BY channel, state"
    ) { row in
      let name = row.text(DeliveryColumn.channel)
      var channel =
        channels[name] ?? StoreInfo.Channel(name: name, delivered: 0, owed: 0, failed: 0)
      let count = row.int(ComputedColumn.count)
      switch row.text(DeliveryColumn.state) {
      case "delivered": channel.delivered = count
      case "owed": channel.owed = count
      default: channel.failed += count
      }
      channels[name] = channel
    }
    return channels.values.sorted { $0.name < $1.name }
  }
}
