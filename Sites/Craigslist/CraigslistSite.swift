import ClarissaCore

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

  /// Craigslist blocks fast pollers: one request at a time per host, 3-5 s apart, and no
  /// search more often than every 5 minutes.
  public let politeness = Politeness(
    minimumDelay: 3, jitter: 2, concurrencyPerHost: 1, minimumInterval: 300)

  public let parameters: [SiteParameter] = [
    SiteParameter(
      "mode", .choice(["api", "html", "rss"]),
      summary: "how results are read: JSON search API, HTML search page, or legacy RSS",
      example: "api", defaultValue: "api",
      cautions: [
        "rss":
          "Craigslist has answered 403 to RSS clients since about 2020; mode 'rss' is legacy, "
          + "use 'api' unless your network is known to be allowed"
      ]),
    SiteParameter(
      "include_nearby", .bool, summary: "keep results that sapi adds from nearby areas",
      example: "false", defaultValue: "false"),
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
        [KnownCity(name: area.hostname, description: place)]
        + area.subareas.map {
          KnownCity(
            name: "\(area.hostname)/\($0.abbreviation)", description: "\($0.name) (\(area.name))")
        }
      result += entries.filter { entry in
        needle.map {
          entry.name.lowercased().contains($0) || entry.description.lowercased().contains($0)
        } ?? true
      }
    }
    return result
  }

  public func checkCity(_ name: String) -> NameCheck {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= 2, let area = CraigslistTables.areasByHostname[parts[0]] else {
      return .unknown(suggestions: suggestArea(for: parts[0]))
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

  public func checkCategory(_ name: String) -> NameCheck {
    if CraigslistTables.categoriesByCode[name] != nil || CraigslistTables.searchCodes[name] != nil {
      return .valid
    }
    let known = Array(CraigslistTables.categoriesByCode.keys) + CraigslistTables.searchCodes.keys
    let suggestions = Suggestions.closest(to: name, in: known) + categoryNamed(name)
    // Craigslist has more search-only codes than any table lists: a three-letter code that is
    // not known is probably one of them, so it is sent anyway, with a warning.
    let looksLikeCode = name.count == 3 && name.allSatisfy { $0.isASCII && $0.isLowercase }
    guard looksLikeCode else { return .unknown(suggestions: suggestions) }
    return .doubtful(
      suggestions: suggestions,
      reason: "not in Craigslist's category table or the known search codes")
  }

  /// The code whose human name contains what was typed ("furniture" -> fua).
  private func categoryNamed(_ name: String) -> [String] {
    let lowered = name.lowercased()
    guard lowered.count >= 3 else { return [] }
    let aggregate = CraigslistTables.searchCodes.sorted { $0.key < $1.key }
      .first { $0.value.lowercased().contains(lowered) }?.key
    let posting = CraigslistTables.categories.first { $0.name.lowercased().contains(lowered) }
    return [aggregate ?? posting?.abbreviation].compactMap { $0 }
  }

  /// Closest hostnames by spelling, or the area whose human name is what was typed.
  private func suggestArea(for name: String) -> [String] {
    let lowered = name.lowercased()
    if let byName = CraigslistTables.areas.first(where: {
      $0.name.lowercased() == lowered || $0.abbreviation == lowered
    }) {
      return [byName.hostname]
    }
    return Suggestions.closest(to: name, in: CraigslistTables.areas.map(\.hostname))
  }
}
