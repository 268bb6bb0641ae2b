internal import ClarissaCore
internal import Foundation

/// The JSON state file of clarissa before the listing store (format versions 1 and 2), imported
/// into a store once. Every id it had seen becomes a sighting, so nothing in it is notified
/// again; deliveries, refusals, held listings, recent listings, validators and cool-downs carry
/// over.
struct LegacyImport {
  /// Search name -> site id: the JSON kept bare ids; the config says whose they are.
  let sites: [String: String]
  private let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  /// Whether `path` holds a JSON state: an object whose first member is one of the state's
  /// (sorted keys put `cooldowns` first; `version` comes last, megabytes later), where an
  /// export's first line starts with `type`.
  static func isLegacyJSON(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = String(decoding: handle.readData(ofLength: 4096), as: UTF8.self)
    let text = head.drop { $0.isWhitespace }
    guard text.first == "{" else { return false }
    let key = text.dropFirst().drop { $0.isWhitespace }
    guard key.first == "\"" else { return false }
    let name = key.dropFirst().prefix { $0 != "\"" }
    return Self.members.contains(String(name))
  }

  /// The members of a JSON state's object.
  private static let members: Set<String> = [
    "cooldowns", "held", "recent", "searches", "undelivered", "validators", "version",
  ]

  /// The site of each search as its held, refused and recent listings show it: the ids of a
  /// search the config no longer has still get their site when the file shows it.
  private static func listedSites(_ root: [String: Any]) -> [String: String] {
    var sites: [String: String] = [:]
    for section in ["held", "undelivered", "recent"] {
      for entry in root[section] as? [[String: Any]] ?? [] {
        guard let search = entry["search"] as? String,
          let site = (entry["listing"] as? [String: Any])?["site"] as? String
        else { continue }
        sites[search] = sites[search] ?? site
      }
    }
    return sites
  }

  /// Reads the file and writes it into `database`, in one transaction.
  func run(_ file: String, into database: SQLiteDatabase) throws {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw StoreProblem(message: "cannot read the JSON state '\(file)'")
    }
    let parsed = try? JSONSerialization.jsonObject(with: data)
    guard let root = parsed as? [String: Any], let version = root["version"] as? Int else {
      throw StoreProblem(
        message: "'\(file)' is not a clarissa JSON state (no version); nothing was imported")
    }
    guard version <= 2 else {
      throw StoreProblem(
        message: "'\(file)' is a JSON state of version \(version); this clarissa imports "
          + "versions 1 and 2. Nothing was imported")
    }
    let known = sites.merging(Self.listedSites(root)) { configured, _ in configured }
    try database.transaction {
      for (name, value) in root["searches"] as? [String: Any] ?? [:] {
        try search(name, value as? [String: Any] ?? [:], site: known[name] ?? "unknown", database)
      }
      try entries(root, database)
      try hosts(root, database)
    }
  }

  private func search(
    _ name: String, _ object: [String: Any], site: String, _ database: SQLiteDatabase
  ) throws {
    let sources = object["sources"] as? [String]
    try database.run(
      "INSERT OR REPLACE INTO searches(name, last_run, last_attempt, all_sources_known) "
        + "VALUES(?, ?, ?, ?)",
      [
        .text(name), .time(date(object["lastRun"])), .time(date(object["lastAttempt"])),
        .int(sources == nil ? 1 : 0),
      ])
    for url in sources ?? [] {
      try database.run(
        "INSERT OR IGNORE INTO sources(search, url) VALUES(?, ?)", [.text(name), .text(url)])
    }
    for (id, entry) in object["seen"] as? [String: Any] ?? [:] {
      // Version 2: [first, last, [delivered to], [pending]]; version 1: an object.
      let fields = entry as? [Any]
      let record = entry as? [String: Any]
      let first = date(fields?.first ?? record?["firstSeen"]) ?? Date()
      let last = date(fields.flatMap { $0.count > 1 ? $0[1] : nil } ?? record?["lastSeen"]) ?? first
      let delivered =
        (fields.flatMap { $0.count > 2 ? $0[2] : nil } ?? record?["deliveredTo"]) as? [String] ?? []
      try sighting(ListingKey(site: site, id: id), name, first, last, database)
      for channel in delivered {
        try database.run(
          "INSERT OR IGNORE INTO deliveries(search, site, id, channel, state, owed_at, at) "
            + "VALUES(?, ?, ?, ?, 'delivered', ?, ?)",
          [.text(name), .text(site), .text(id), .text(channel), .time(first), .time(last)])
      }
    }
  }

  /// A sighting, and the listing's row (fields unknown: the JSON kept only ids).
  private func sighting(
    _ key: ListingKey, _ search: String, _ first: Date, _ last: Date, _ database: SQLiteDatabase
  ) throws {
    try database.run(
      "INSERT OR IGNORE INTO listings(site, id, url, title, description, first_seen, last_seen) "
        + "VALUES(?, ?, '', '', '', ?, ?)",
      [.text(key.site), .text(key.id), .time(first), .time(last)])
    try database.run(
      "INSERT INTO sightings(search, site, id, first_seen, last_seen) VALUES(?, ?, ?, ?, ?) "
        + "ON CONFLICT DO UPDATE SET \(ListingStore.laterLastSeen)",
      [.text(search), .text(key.site), .text(key.id), .time(first), .time(last)])
  }

  /// Held, refused and recent listings, with their whole fields.
  private func entries(_ root: [String: Any], _ database: SQLiteDatabase) throws {
    for entry in root["held"] as? [[String: Any]] ?? [] {
      guard let search = entry["search"] as? String, let listing = listing(entry["listing"]) else {
        continue
      }
      let at = date(entry["heldAt"]) ?? Date()
      try stored(listing, search, at, database)
      try database.run(
        "INSERT OR IGNORE INTO held(search, site, id, held_at) VALUES(?, ?, ?, ?)",
        [.text(search), .text(listing.site), .text(listing.id), .time(at)])
    }
    for entry in root["undelivered"] as? [[String: Any]] ?? [] {
      guard let search = entry["search"] as? String, let listing = listing(entry["listing"]) else {
        continue
      }
      try stored(listing, search, nil, database)
      for channel in entry["channels"] as? [String] ?? [] {
        try database.run(
          // OR IGNORE: importing again never undoes a delivery made since.
          "INSERT OR IGNORE INTO deliveries(search, site, id, channel, state, owed_at, at, "
            + "attempts, last_error) VALUES(?, ?, ?, ?, 'failed', ?, ?, ?, ?)",
          [
            .text(search), .text(listing.site), .text(listing.id), .text(channel),
            .time(Date()), .time(Date()), .int(entry["attempts"] as? Int ?? 1),
            .textOrNull(entry["lastError"] as? String),
          ])
      }
    }
    for entry in root["recent"] as? [[String: Any]] ?? [] {
      guard let search = entry["search"] as? String, let listing = listing(entry["listing"]) else {
        continue
      }
      let found = date(entry["found"]) ?? Date()
      try stored(listing, search, found, database)
      try database.run(
        "INSERT OR IGNORE INTO recent(search, site, id, found) VALUES(?, ?, ?, ?)",
        [.text(search), .text(listing.site), .text(listing.id), .time(found)])
    }
  }

  /// The listing's fields, and its sighting by `search` (which the JSON had among its ids); a
  /// listing with no time of its own (a refusal) keeps the sighting its id had.
  private func stored(_ listing: Listing, _ search: String, _ at: Date?, _ database: SQLiteDatabase)
    throws
  {
    let key: [SQLiteDatabase.Value] = [.text(listing.site), .text(listing.id)]
    let known = try database.integer(
      "SELECT count(*) FROM sightings WHERE search = ? AND site = ? AND id = ?",
      [.text(search)] + key)
    if let at {
      try sighting(listing.key, search, at, at, database)
    } else if known == 0 {
      try sighting(listing.key, search, Date(), Date(), database)
    }
    try database.run(
      "UPDATE listings SET \(ListingColumns.assignments), fingerprint = ?, content_hash = NULL "
        + "WHERE site = ? AND id = ?",
      ListingFields.values(listing) + key)
    try ListingFields.storeImages(listing, in: database)
  }

  /// Validators and cool-downs.
  private func hosts(_ root: [String: Any], _ database: SQLiteDatabase) throws {
    for (url, value) in root["validators"] as? [String: [String: Any]] ?? [:] {
      try database.run(
        "INSERT OR REPLACE INTO validators(url, etag, last_modified) VALUES(?, ?, ?)",
        [
          .text(url), .textOrNull(value["etag"] as? String),
          .textOrNull(value["lastModified"] as? String),
        ])
    }
    for (host, value) in root["cooldowns"] as? [String: [String: Any]] ?? [:] {
      guard let until = date(value["until"]) else { continue }
      try database.run(
        "INSERT OR REPLACE INTO cooldowns(host, until, reason, since, status, answer, urls) "
          + "VALUES(?, ?, ?, ?, ?, ?, ?)",
        [
          .text(host), .time(until), .text(value["reason"] as? String ?? "refused"),
          .time(date(value["since"])), .intOrNull(value["status"] as? Int),
          .textOrNull(value["answer"] as? String),
          .textOrNull((value["urls"] as? [String]).map(StoreJSON.text)),
        ])
    }
  }

  private func date(_ value: Any?) -> Date? {
    (value as? String).flatMap(DateFormat.internet.date(from:))
  }

  private func listing(_ value: Any?) -> Listing? {
    guard let value, let data = try? JSONSerialization.data(withJSONObject: value) else {
      return nil
    }
    return try? decoder.decode(Listing.self, from: data)
  }
}

extension ListingStore {
  /// Imports a JSON state of an earlier version (formats 1 and 2); `sites` maps each search to
  /// its site id. Importing again changes nothing.
  public func importLegacy(jsonFile: String, sites: [String: String]) throws {
    try locked { database in try LegacyImport(sites: sites).run(jsonFile, into: database) }
  }
}
