public import ClarissaCore
internal import SiteFormat

/// How a Craigslist search becomes requests: one per city, date-sorted, up to 360 rows.
extension CraigslistSite {
  static let sortIDs = [
    "date": 1, "dateoldest": 2, "dist": 3, "priceasc": 4, "pricedsc": 5, "rel": 6,
  ]

  public func requests(for search: Search, in city: CityRef?) -> [RequestSpec] {
    guard let city, let place = CraigslistPlace(city.name) else { return [] }
    let mode = search.text("mode") ?? "api"
    let category = search.category ?? "sss"
    // A pasted URL's filters go as written; a search's own are built from its keys.
    let filters =
      search.url.map(Self.pastedFilters)
      ?? QueryPairs(
        encoded: URLQuery.encode(filterParameters(search))
      ).pairs
    let nearby =
      search.flag("include_nearby") || search.url?.values("searchNearby").contains("1") == true
    var context = [
      "areaID": String(place.area.areaID), "hostname": place.area.hostname,
      "currency": CraigslistTables.currency(forCountry: place.area.country),
      "category": category, "includeNearby": nearby ? "true" : "false",
    ]
    if let subarea = place.subarea { context["subarea"] = subarea }
    let sort = search.url == nil ? search.text("sort") ?? "date" : "date"
    var query = QueryPairs()
    query.overlay(filters)
    let url: String
    switch mode {
    case "html", "rss":
      query.set("sort", sort)
      if mode == "rss" { query.set("format", "rss") }
      let path = place.subarea.map { "\($0)/\(category)" } ?? category
      url = query.appended(to: "https://\(place.area.hostname).craigslist.org/search/\(path)")
    default:
      if search.flag("include_nearby") { query.set("searchNearby", "1") }
      url = apiURL(place, category: category, sort: sort, filters: query)
    }
    let accept =
      mode == "api"
      ? "application/json" : mode == "rss" ? "application/rss+xml, application/xml" : "text/html"
    return [
      RequestSpec(
        url: url, headers: ["Accept": accept], mode: mode, city: city.name, context: context)
    ]
  }

  private func apiURL(
    _ place: CraigslistPlace, category: String, sort: String, filters: QueryPairs
  ) -> String {
    let sortID = Self.sortIDs[sort] ?? 1
    var query: [(String, String)]
    if let subarea = place.subarea {
      query = [
        ("batch", "0-0-360-\(sortID)-0"), ("searchPath", "subarea/\(subarea)"), ("cat", category),
      ]
    } else {
      query = [("batch", "\(place.area.areaID)-0-360-\(sortID)-0"), ("searchPath", category)]
    }
    query += [("cc", place.area.country.isEmpty ? "US" : place.area.country), ("lang", "en")]
    var pairs = QueryPairs(encoded: URLQuery.encode(query))
    pairs.overlay(filters.pairs)
    return pairs.appended(to: "https://sapi.craigslist.org/web/v8/postings/search/full")
  }

  /// The parameters sapi and the search page share.
  private func filterParameters(_ search: Search) -> [(String, String)] {
    var query: [(String, String)] = []
    if let text = search.query, !text.isEmpty { query.append(("query", text)) }
    if search.searchIn == .title { query.append(("srchType", "T")) }
    if let min = search.price?.min { query.append(("min_price", Self.wholeNumber(min))) }
    if let max = search.price?.max { query.append(("max_price", Self.wholeNumber(max))) }
    if search.hasImage { query.append(("hasPic", "1")) }
    if search.postedToday { query.append(("postedToday", "1")) }
    if search.flag("bundle_duplicates") { query.append(("bundleDuplicates", "1")) }
    if let purveyor = search.text("purveyor"), purveyor != "any" {
      query.append(("purveyor", purveyor))
    }
    if let postal = search.text("postal") {
      query.append(("postal", postal))
      if case .integer(let miles)? = search.parameters["search_distance"] {
        query.append(("search_distance", String(miles)))
      }
    }
    for filter in CraigslistFilter.all {
      if let value = search.parameters[filter.name] { query += filter.pairs(value) }
    }
    return query + CraigslistFilter.factPairs(search)
  }

  private static func wholeNumber(_ value: Double) -> String {
    CheckedNumber.text(value)
  }
}

/// A Craigslist area with an optional subarea, from `sfbay` or `sfbay/eby`.
struct CraigslistPlace {
  let area: CraigslistTables.Area
  let subarea: String?

  init?(_ name: String) {
    let parts = name.split(separator: "/").map(String.init)
    guard let first = parts.first, let area = CraigslistTables.areasByHostname[first] else {
      return nil
    }
    self.area = area
    self.subarea = parts.count > 1 ? parts[1] : nil
  }
}

extension CraigslistSite {
  /// A saved answer read without a city still honours `include_nearby` (with a city, the
  /// request carries it already).
  public func request(
    forSavedResponseIn mode: String, city: String?, parameters: [String: ParameterValue],
    url: String?
  ) -> RequestSpec {
    var spec = firstRequest(
      forSavedResponseIn: mode, city: city, parameters: parameters, url: url)
    let nearby = Search(name: "saved", site: id, parameters: parameters).flag("include_nearby")
    spec.context["includeNearby"] = nearby ? "true" : "false"
    return spec
  }
}
