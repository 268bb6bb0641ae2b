public import ClarissaCore
internal import SiteFormat

/// Craigslist: the sapi JSON search (default), the static HTML search page, or legacy RSS.
public struct CraigslistSite: FeedSource {
  /// Creates the adapter.
  public init() {}

  public let id = "craigslist"
  public let displayName = "Craigslist"
  public let status = SiteStatus.active
  public let summary =
    "Craigslist searches by area: the JSON search API (api), the HTML search page (html) or the "
    + "legacy RSS feed (rss, blocked for most clients since 2020)."
  public let cities = CityRule.required
  public let modes = ["api", "html", "rss"]
  /// The countries of its areas (the United States first, then by code); an area of no one
  /// country (`caribbean`) adds none.
  public var countries: [String] { Self.areaCountries }
  private static let areaCountries: [String] = {
    let others = Set(CraigslistTables.areas.map(\.country)).subtracting(["US", ""])
    return ["US"] + others.sorted()
  }()
  public var kind: SiteKind { .marketplace }
  /// Its recorded answers (Fixtures/craigslist/, not the hand-written `synthetic/` ones) and the
  /// listing facts each carries (`SiteSampleTests` reads them).
  public var samples: [SiteSample] {
    [
      ("sfbay-sss-sapi-1.json", ["coordinates"]),
      ("littlerock-rea-sapi-1.json", ["coordinates", "bedrooms", "floor_area"]),
      ("newyork-apa-search-1.html", ["coordinates", "bedrooms", "bathrooms"]),
      ("sfbay-apa-1.xml", ["bedrooms", "floor_area"]),
      ("seattle-act-1.xml", []), ("chicago-jjj-1.xml", []), ("sfbay-ccc-1.xml", []),
    ].map { SiteSample(file: "Fixtures/craigslist/" + $0.0, facts: $0.1) }
  }

  /// Craigslist blocks fast pollers: one request at a time per host, 3-5 s apart, and no
  /// search more often than every 5 minutes.
  public let politeness = Politeness(
    minimumDelay: 3, jitter: 2, concurrencyPerHost: 1, minimumInterval: 300)

  public let parameters: [SiteParameter] = searchParameters + CraigslistFilter.all.map(\.parameter)

  private static let searchParameters: [SiteParameter] = [
    SiteParameter(
      "mode", .choice(["api", "html", "rss"]),
      summary: "how results are read: JSON search API, HTML search page, or legacy RSS",
      example: "api", defaultValue: "api",
      cautions: [
        "rss":
          "Craigslist has answered 403 to RSS clients since about 2020; mode 'rss' is legacy, "
          + "use 'api' unless your network is known to be allowed"
      ], keptWithURL: true),
    SiteParameter(
      "include_nearby", .bool, summary: "keep results that sapi adds from nearby areas",
      example: "false", defaultValue: "false", keptWithURL: true),
    SiteParameter(
      "bundle_duplicates", .bool, summary: "let Craigslist fold reposted duplicates into one",
      example: "true", defaultValue: "false"),
    SiteParameter(
      "purveyor", .choice(["any", "owner", "dealer"]),
      summary: "only listings by owners, or only by dealers", example: "owner",
      defaultValue: "any"),
    SiteParameter(
      "postal", .text, summary: "postal code to measure search_distance from", example: "94110"),
    SiteParameter(
      "search_distance", .integer(1...1000), summary: "miles (or km) around postal",
      example: "10"),
    SiteParameter(
      "sort", .choice(["date", "priceasc", "pricedsc", "rel", "dist"]),
      summary: "result order; a new-listing monitor wants date", example: "date",
      defaultValue: "date"),
  ]

  public func listings(from response: SourceResponse) throws -> ListingBatch {
    try BlockPage.check(response)
    switch response.request.mode {
    case "html": return try SearchPageReader.read(response)
    case "rss": return try RSSReader.read(response)
    default: return try SapiDecoder.decode(response)
    }
  }

  /// Areas and their subareas, filtered by hostname or description.
  public func knownCities(matching filter: String?) -> [KnownCity] {
    let needle = filter?.lowercased()
    var result: [KnownCity] = []
    for area in CraigslistTables.areas.sorted(by: { $0.hostname < $1.hostname }) {
      let place = [area.name, area.country].filter { !$0.isEmpty }.joined(separator: ", ")
      let entries =
        [KnownCity(name: area.hostname, description: place, timeZone: area.timeZone)]
        + area.subareas.map {
          KnownCity(
            name: "\(area.hostname)/\($0.abbreviation)", description: "\($0.name) (\(area.name))",
            timeZone: area.timeZone)
        }
      result += entries.filter { entry in
        needle.map {
          entry.name.lowercased().contains($0) || entry.description.lowercased().contains($0)
        } ?? true
      }
    }
    return result
  }

  /// The area's centre (a subarea is placed at its area's).
  public func coordinates(of city: CityRef) -> Coordinates? {
    let host = city.name.split(separator: "/").first.map(String.init) ?? city.name
    return CraigslistTables.areasByHostname[host].map {
      Coordinates(latitude: $0.latitude, longitude: $0.longitude)
    }
  }

  public func checkCity(_ name: String) -> NameCheck {
    // An area alone needs only the list of hostnames, not the tables read whole.
    if CraigslistTables.hostnames.contains(name) { return .valid }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= 2, let area = CraigslistTables.areasByHostname[parts[0]] else {
      if parts.count == 1, let meant = Self.place(meant: name) { return .means(meant) }
      var seen = Set<String>()
      let suggestions = (Self.places(spelledLike: name) + suggestPlace(for: parts)).filter {
        seen.insert($0).inserted
      }
      return .unknown(suggestions: suggestions)
    }
    guard parts.count == 2 else { return .valid }
    let codes = area.subareas.map(\.abbreviation)
    if codes.contains(parts[1]) { return .valid }
    let reason =
      codes.isEmpty
      ? "area '\(area.hostname)' has no subareas"
      : "subareas of '\(area.hostname)': \(codes.joined(separator: ", "))"
    let close = Suggestions.closest(to: parts[1], in: codes).map { "\(area.hostname)/\($0)" }
    return .unknown(suggestions: close, reason: reason)
  }

  /// For an unknown area: keep a subarea that exists in the suggested area (`seatle/est` ->
  /// `seattle/est`); else the area (or subarea) whose human name is what was typed
  /// (`san francisco` -> `sfbay/sfc`, then `sfbay`); else the closest hostnames by spelling.
  private func suggestPlace(for parts: [String]) -> [String] {
    let areas = suggestArea(for: parts[0])
    guard parts.count == 2 else { return areas }
    let kept = areas.filter { hostname in
      CraigslistTables.areasByHostname[hostname]?.subareas.contains {
        $0.abbreviation == parts[1]
      } ?? false
    }
    return kept.map { "\($0)/\(parts[1])" } + areas.filter { !kept.contains($0) }
  }

  private func suggestArea(for name: String) -> [String] {
    let lowered = name.lowercased()
    if let byName = CraigslistTables.areas.first(where: {
      $0.name.lowercased() == lowered || $0.abbreviation == lowered
    }) {
      return [byName.hostname]
    }
    // A place name: subareas first (san francisco is sfbay's 'sfc'), then areas whose name
    // starts with or contains the words typed.
    var named: [String] = []
    if lowered.count >= 4 {
      for area in CraigslistTables.areas {
        for subarea in area.subareas where subarea.name.lowercased().contains(lowered) {
          named += ["\(area.hostname)/\(subarea.abbreviation)", area.hostname]
        }
      }
      named += CraigslistTables.areas.filter { $0.name.lowercased().hasPrefix(lowered) }
        .map(\.hostname)
      named += CraigslistTables.areas.filter { $0.name.lowercased().contains(lowered) }
        .map(\.hostname)
    }
    let spelled = Suggestions.closest(
      to: name, in: CraigslistTables.areas.map(\.hostname), limit: named.isEmpty ? 1 : 0)
    var seen = Set<String>()
    return (named + spelled).filter { seen.insert($0).inserted }
  }
}
