internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// One search as the list of searches and `/api/searches` show it.
struct SearchRow: Encodable {
  struct Cooling: Encodable {
    var host: String
    var until: Date
    var reason: String
  }

  var name: String
  var site: String
  var enabled: Bool
  /// Whether the config names it (a search removed from the config keeps its listings).
  var configured: Bool
  var intervalSeconds: Double
  var unviewed: Int
  var lastRun: Date?
  var lastAttempt: Date?
  var nextRun: Date?
  var failures: [String]
  var cooldowns: [Cooling]
}

/// A page of listings: `/api/listings`.
struct ListingPage: Encodable {
  var listings: [FoundListing]
  var page: Int
  var pageSize: Int
  /// Whether a next page has listings.
  var more: Bool
}

extension WebApp {
  func api(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    switch (request.method, path) {
    case ("GET", ["session"]): return Self.json(["csrf": csrf])
    case ("GET", ["searches"]): return Self.encoded(try searchRows())
    case ("GET", ["listings"]):
      return Self.encoded(
        try listingPage(try Self.query(request.query), page: try Self.page(request.query)))
    case ("GET", let path) where path.count == 3 && path[0] == "listings":
      let key = ListingKey(site: path[1], id: path[2])
      guard let history = try store.history(key) else {
        throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store")
      }
      return Self.encoded(history)
    case ("GET", ["map"]):
      return Self.json(bytes: try mapData(try Self.query(request.query)).json)
    case ("GET", ["map", "areas"]): return try mapAreas(request)
    case ("POST", ["viewed"]):
      return Self.json(["marked": try markViewed(api: request)])
    case (_, let path) where path.count == 4 && path[0] == "listings":
      return try markAPI(request, path)
    case (_, let path) where path.first == "push":
      return try pushAPI(request, Array(path.dropFirst()))
    case (let method, let path)
    where ["session", "searches", "listings", "map", "viewed"].contains(path.first ?? ""):
      throw RequestProblem(405, "\(method) is not allowed on /api/\(path.joined(separator: "/"))")
    default:
      throw RequestProblem(404, "no API at \(request.path); see docs/serve.md")
    }
  }

  /// `{"keys": ["site:id", ...]}` marks those; `?all=1` with filters marks what they find.
  private func markViewed(api request: WebRequest) throws -> Int {
    if request.query.first("all") != nil {
      return try store.markViewed(matching: try Self.query(request.query), at: clock())
    }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
      let keys = object["keys"] as? [String]
    else {
      throw RequestProblem(
        400, "send {\"keys\": [\"SITE:ID\", ...]} as JSON, or ?all=1 with filters")
    }
    let parsed = keys.compactMap(Self.key)
    guard parsed.count == keys.count else {
      throw RequestProblem(400, "every key is SITE:ID (as 'clarissa listings --json' shows them)")
    }
    return try store.markViewed(parsed, at: clock())
  }

  /// The searches of the config, then any the store has that the config no longer names.
  func searchRows() throws -> [SearchRow] {
    let standings = try store.standings()
    let cooldowns = try store.cooldowns()
    let now = clock()
    var rows: [SearchRow] = config.searches.map { search in
      let standing = standings[search.name]
      let memory = SearchMemory(lastRun: standing?.lastRun, lastAttempt: standing?.lastAttempt)
      return SearchRow(
        name: search.name, site: search.site, enabled: search.enabled, configured: true,
        intervalSeconds: search.interval, unviewed: standing?.unviewed ?? 0,
        lastRun: standing?.lastRun, lastAttempt: standing?.lastAttempt,
        nextRun: search.enabled ? (memory.nextDue(interval: search.interval) ?? now) : nil,
        failures: standing?.failures ?? [],
        cooldowns: search.hosts.compactMap { host in
          guard let cooling = cooldowns[host], cooling.until > now else { return nil }
          return SearchRow.Cooling(host: host, until: cooling.until, reason: cooling.reason)
        })
    }
    let named = Set(rows.map(\.name))
    for standing in standings.values.sorted(by: { $0.name < $1.name })
    where !named.contains(standing.name) && standing.unviewed > 0 {
      rows.append(
        SearchRow(
          name: standing.name, site: "", enabled: false, configured: false, intervalSeconds: 0,
          unviewed: standing.unviewed, lastRun: standing.lastRun,
          lastAttempt: standing.lastAttempt, nextRun: nil, failures: standing.failures,
          cooldowns: []))
    }
    return rows
  }

  func listingPage(_ query: ListingQuery, page: Int) throws -> ListingPage {
    var asked = query
    asked.limit = Self.pageSize + 1
    asked.offset = (page - 1) * Self.pageSize
    let found = try store.listings(asked)
    return ListingPage(
      listings: Array(found.prefix(Self.pageSize)), page: page, pageSize: Self.pageSize,
      more: found.count > Self.pageSize)
  }

  /// The filters of a request: `search`, `site` (each repeatable), `min`, `max`, `q`,
  /// `unviewed`, and the marks (``marked(_:)``).
  static func query(_ fields: WebFields) throws -> ListingQuery {
    var query = ListingQuery()
    query.searches = fields.all("search").filter { !$0.isEmpty }
    query.sites = fields.all("site").filter { !$0.isEmpty }
    query.minPrice = try number(fields, "min")
    query.maxPrice = try number(fields, "max")
    query.words = (fields.first("q") ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
    // Each word is a condition of the store's query: SQLite refuses an expression deeper than
    // 1,000 (some 990 words answered 500), and long ones cost a scan each.
    guard query.words.count <= Self.maxWords,
      query.words.allSatisfy({ $0.count <= Self.maxWordLength })
    else {
      throw RequestProblem(
        400,
        "q: at most \(Self.maxWords) words of at most \(Self.maxWordLength) characters each")
    }
    guard query.searches.count <= Self.maxChoices, query.sites.count <= Self.maxChoices else {
      throw RequestProblem(400, "at most \(Self.maxChoices) values of search and of site")
    }
    if let unviewed = fields.first("unviewed") {
      query.unviewed = ["1", "true", "on", "yes"].contains(unviewed.lowercased())
    }
    query.marked = try marked(fields)
    return query
  }

  /// Words `q` may hold, and their length; searches and sites a filter may name.
  static let maxWords = 32
  static let maxWordLength = 100
  static let maxChoices = 200

  static func page(_ fields: WebFields) throws -> Int {
    guard let text = fields.first("page"), !text.isEmpty else { return 1 }
    guard let page = Int(text), page >= 1, page <= 100_000 else {
      throw RequestProblem(400, "page: '\(text)' is not a page number (1, 2, ...)")
    }
    return page
  }

  private static func number(_ fields: WebFields, _ name: String) throws -> Double? {
    guard let text = fields.first(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty
    else { return nil }
    guard let value = Double(text), value.isFinite else {
      throw RequestProblem(400, "\(name): '\(text)' is not a number")
    }
    return value
  }
}
