public import ClarissaCore
public import Foundation

/// A listing as `clarissa listings` shows it: what a search found, and what became of it.
public struct FoundListing: Sendable, Codable, Equatable {
  /// The search that saw it.
  public var search: String
  /// The listing as last seen.
  public var listing: Listing
  /// When the search first and last saw it.
  public var firstSeen: Date
  /// When the search last saw it.
  public var lastSeen: Date
  /// `new`, or `repost` (of `repostOf`).
  public var event: String
  /// The listing it repeats, for a repost.
  public var repostOf: String?
  /// Channels that took it.
  public var deliveredTo: [String]
  /// When a person marked it viewed (opened it); nil while unviewed.
  public var viewedAt: Date?
  /// The listings on other sites that are the same flat (``SameFlat``), when asked for and any.
  public var alsoOn: [AlsoOn]? = nil
  /// The marks a person set on it (starred, hidden, a note); nil when none.
  public var marks: ListingMarks? = nil
}

/// What `clarissa listings` asks for.
public struct ListingQuery: Sendable {
  /// Only these searches (all when empty).
  public var searches: [String] = []
  /// First seen at or after.
  public var since: Date?
  /// `new`, `repost`.
  public var events: Set<String> = []
  /// Price bounds.
  public var minPrice: Double?
  /// Price bounds.
  public var maxPrice: Double?
  /// Words that must all appear in the title or the description (any case).
  public var words: [String] = []
  /// Only listings nobody has viewed.
  public var unviewed = false
  /// Only these sites (all when empty).
  public var sites: [String] = []
  /// At most this many, newest first.
  public var limit = 50
  /// After skipping this many (a page further on).
  public var offset = 0
  /// Which listings by their marks: by default the hidden ones are left out.
  public var marked: MarkFilter = .notHidden

  /// Creates a query.
  public init() {}
}

extension ConnectedStore {
  /// The listings the searches found, newest first (one join; the filters in SQL).
  public func listings(_ query: ListingQuery) throws -> [FoundListing] {
    // The planner has no statistics, and left to itself reads a search's whole history to sort
    // it (1 s for a million): the plan is chosen here. Newest first comes from an index on the
    // first sighting; "unviewed only" starts from the unviewed listings when the store's counts
    // say they are few (when nearly everything is viewed, the newest-first walk would pass a
    // search's whole history before finding them). CROSS JOIN keeps the tables in this order.
    // (PostgreSQL keeps statistics and plans for itself.)
    var byUnviewed = false
    if query.unviewed {
      let counts = try unviewedCounts()
      let unviewed =
        query.searches.isEmpty
        ? counts.values.reduce(0, +) : query.searches.reduce(0) { $0 + (counts[$1] ?? 0) }
      if unviewed == 0 { return [] }
      byUnviewed = unviewed <= Self.fewUnviewed
    }
    return try locked { database in
      let dialect = database.dialect
      let from = Self.joined(from: byUnviewed ? "listings_unviewed" : nil, query, dialect)
      let (conditions, values) = Self.conditions(query, dialect)
      let sql = """
        SELECT s.search, s.first_seen, \(LastSeen.sighting("s")) AS last_seen, s.repost_of,
          l.viewed_at,
          \(Self.markColumns),
          (SELECT \(dialect.joinedBySeparator("c.channel")) FROM (SELECT DISTINCT channel
            FROM deliveries d WHERE d.search = s.search AND d.site = s.site AND d.id = s.id
              AND d.state = 'delivered' ORDER BY d.channel) c) AS delivered_to,
          \(ListingColumns.selected)
        FROM \(from)
        WHERE \(conditions)
        ORDER BY \(Self.markOrder(query))s.first_seen DESC, l.posted DESC, s.search, s.id
        LIMIT ? OFFSET ?
        """
      return try database.rows(sql, values + [.int(query.limit), .int(query.offset)]) { row in
        let repost = row.optionalText(SightingColumn.repostOf)
        return FoundListing(
          search: row.text(SightingColumn.search), listing: ListingColumns.listing(row),
          firstSeen: row.date(SightingColumn.firstSeen),
          lastSeen: row.date(SightingColumn.lastSeen),
          event: repost == nil ? "new" : "repost", repostOf: repost,
          deliveredTo: row.optionalText(SightingColumn.deliveredTo).map {
            $0.split(separator: "\u{1F}").map(String.init)
          } ?? [], viewedAt: row.optionalDate(ListingColumn.viewedAt),
          marks: Self.marks(row))
      }
    }
  }
}

extension ConnectedStore {
  /// Up to this many unviewed listings are found from their own index, then sorted.
  static var fewUnviewed: Int { 20_000 }

  /// `sightings s JOIN listings l` in the order that makes the plan: from the listings of the
  /// partial index `listings` names (when it holds few: they are all read, then sorted), else
  /// newest first along the sightings' index of first sighting (the search's, when it names
  /// searches), stopping at the limit.
  static func joined(from listings: String?, _ query: ListingQuery, _ dialect: SQLDialect)
    -> String
  {
    let join = dialect.orderedJoin
    if let marked = query.marked.index {
      // Starred or hidden: from the marks' own index (they are few), then their sightings.
      return "marks m\(dialect.indexedBy(marked)) \(join) listings l "
        + "ON l.site = m.site AND l.id = m.id \(join) sightings s ON s.site = l.site AND s.id = l.id"
    }
    if let listings {
      return "listings l\(dialect.indexedBy(listings)) \(join) sightings s "
        + "ON s.site = l.site AND s.id = l.id" + markJoin
    }
    return "sightings s"
      + dialect.indexedBy(
        query.searches.isEmpty ? "sightings_first_seen" : "sightings_search_first_seen")
      + " \(join) listings l ON l.site = s.site AND l.id = s.id" + markJoin
  }

  /// The query's conditions on `sightings s JOIN listings l`, and their values.
  static func conditions(_ query: ListingQuery, _ dialect: SQLDialect) -> (String, [StoreValue]) {
    var conditions = ["TRUE"]
    var values: [StoreValue] = []
    func oneOf(_ column: String, _ list: [String]) {
      guard !list.isEmpty else { return }
      conditions.append("\(column) IN (" + list.map { _ in "?" }.joined(separator: ", ") + ")")
      values += list.map { .text($0) }
    }
    oneOf("s.search", query.searches)
    oneOf("s.site", query.sites)
    if let since = query.since {
      conditions.append("s.first_seen >= ?")
      values.append(.time(since))
    }
    if query.events == ["new"] { conditions.append("s.repost_of IS NULL") }
    if query.events == ["repost"] { conditions.append("s.repost_of IS NOT NULL") }
    if let min = query.minPrice {
      conditions.append("l.price >= ?")
      values.append(.double(min))
    }
    if let max = query.maxPrice {
      conditions.append("l.price <= ?")
      values.append(.double(max))
    }
    if query.unviewed { conditions.append("l.viewed_at IS NULL") }
    if let marked = query.marked.condition { conditions.append(marked) }
    for word in query.words {
      conditions.append(
        "(\(dialect.contains("lower(l.title)", "?")) OR \(dialect.contains("lower(l.description)", "?")))"
      )
      values += [.text(word.lowercased()), .text(word.lowercased())]
    }
    return (conditions.joined(separator: " AND "), values)
  }

  /// Marks every listing the query finds (whatever its limit) viewed at `now`: "mark all
  /// viewed". Returns how many were newly marked.
  @discardableResult
  public func markViewed(matching query: ListingQuery, at now: Date) throws -> Int {
    var unviewed = query
    unviewed.unviewed = true
    return try locked { database in
      let (conditions, values) = Self.conditions(unviewed, database.dialect)
      return try database.transaction {
        try database.run(
          "UPDATE listings SET viewed_at = ? WHERE viewed_at IS NULL AND (site, id) IN "
            + "(SELECT s.site, s.id FROM sightings s JOIN listings l ON l.site = s.site "
            + "AND l.id = s.id\(Self.markJoin) WHERE \(conditions))", [.time(now)] + values)
        return database.changes
      }
    }
  }

  /// Marks listings viewed (a person opened them) at `now`; those viewed before keep their time.
  /// Returns how many were newly marked.
  @discardableResult
  public func markViewed(_ keys: [ListingKey], at now: Date) throws -> Int {
    try locked { database in
      try database.transaction {
        var marked = 0
        for key in keys { marked += try Self.markViewed(key, at: now, in: database) }
        return marked
      }
    }
  }

  /// Marks one listing viewed inside the caller's transaction; 1 when it was not before.
  @discardableResult
  static func markViewed(_ key: ListingKey, at now: Date, in database: Connection) throws -> Int {
    try database.run(
      "UPDATE listings SET viewed_at = ? WHERE site = ? AND id = ? AND viewed_at IS NULL",
      [.time(now), .text(key.site), .text(key.id)])
    return database.changes
  }
}
