public import ClarissaCore
internal import SiteFormat

/// A Craigslist search pasted from the browser: `https://sfbay.craigslist.org/search/bia?max_price=800`,
/// with a subarea (`/search/eby/bia`), the pre-2023 form (`/d/bicycles/search/bia`), or the
/// www forms the site redirects to (`www.craigslist.org/search/area/sfbay?cat=bia`,
/// `/search/subarea/mnh?cat=apa`). The area and category become the search's `cities` and
/// `category`; the query's filters go to the site as written (sapi and the search page share
/// them, CRAIGSLIST.md), with the site's date order in place of a pasted `sort`.
extension CraigslistSite {
  /// Query names a pasted URL carries that clarissa sets itself (or that only page the browser).
  static let pastedNamesReplaced: Set<String> = ["sort", "s", "format", "cat", "lang", "cc"]

  public func readSearchURL(_ url: SearchURL) -> SearchURLReading? {
    guard url.host == "craigslist.org" || url.host.hasSuffix(".craigslist.org") else {
      return nil
    }
    let hostname = String(url.host.dropLast(".craigslist.org".count))
    let parts = url.path.split(separator: "/").map(String.init)
    let search = parts.starts(with: ["d"]) && parts.count > 2 ? Array(parts.dropFirst(2)) : parts
    guard search.first == "search", (2...3).contains(search.count) else {
      return .refused(
        "it is not a Craigslist search page; paste the address of a search, such as "
          + "https://sfbay.craigslist.org/search/bia?max_price=800")
    }
    let place: String
    let category: String
    if hostname.isEmpty || hostname == "www" {
      guard search.count == 3, let found = wwwPlace(kind: search[1], name: search[2]) else {
        return .refused(
          "'\(url.path)' names no Craigslist area; paste a search on the area's own site "
            + "(https://sfbay.craigslist.org/search/...)")
      }
      if case .refused = found { return found }
      guard case .search(let city, _) = found, let city else { return found }
      place = city
      category = url.values("cat").first ?? "sss"
    } else {
      place = search.count == 3 ? "\(hostname)/\(search[1])" : hostname
      category = search[search.count - 1]
    }
    return check(place: place, category: category)
  }

  /// `www.craigslist.org/search/area/sfbay` or `/search/subarea/mnh` (the area whose subarea it is).
  private func wwwPlace(kind: String, name: String) -> SearchURLReading? {
    switch kind {
    case "area": return .search(city: name, category: nil)
    case "subarea":
      let owners = CraigslistTables.areas.filter {
        $0.subareas.contains { $0.abbreviation == name }
      }
      guard owners.count == 1, let area = owners.first else {
        let named = owners.map { "\($0.hostname)/\(name)" }.sorted()
        return .refused(
          named.isEmpty
            ? "no Craigslist area has a subarea '\(name)'"
            : "subarea '\(name)' is in several areas (\(named.joined(separator: ", "))); paste "
              + "the search from the area's own site")
      }
      return .search(city: "\(area.hostname)/\(name)", category: nil)
    default: return nil
    }
  }

  private func check(place: String, category: String) -> SearchURLReading {
    if case .unknown(let suggestions, let reason) = checkCity(place) {
      let hint = suggestions.first.map { "; did you mean '\($0)'?" } ?? ""
      return .refused("unknown Craigslist area '\(place)'\(reason.map { " (\($0))" } ?? "")\(hint)")
    }
    if case .unknown(let suggestions, _) = checkCategory(category) {
      let hint = suggestions.first.map { "; did you mean '\($0)'?" } ?? ""
      return .refused("unknown Craigslist category '\(category)'\(hint)")
    }
    return .search(city: place, category: category)
  }

  /// The pasted query's filters, without what clarissa sets itself.
  static func pastedFilters(_ url: SearchURL) -> [SearchURL.Pair] {
    url.query.filter { !pastedNamesReplaced.contains($0.name) && !$0.written.isEmpty }
  }

  public var searchURLExamples: [SearchURLExample] {
    let sapi = "https://sapi.craigslist.org/web/v8/postings/search/full?"
    return [
      SearchURLExample(
        url: "https://sfbay.craigslist.org/search/bia?max_price=800",
        request: sapi + "batch=1-0-360-1-0&searchPath=bia&cc=US&lang=en&max_price=800"),
      SearchURLExample(
        url:
          "https://sfbay.craigslist.org/search/eby/apa?min_bedrooms=2&sort=priceasc#search=1~gallery~0~0",
        request: sapi
          + "batch=0-0-360-1-0&searchPath=subarea/eby&cat=apa&cc=US&lang=en&min_bedrooms=2"),
      SearchURLExample(
        url: "https://www.craigslist.org/search/subarea/mnh?cat=apa",
        request: sapi + "batch=0-0-360-1-0&searchPath=subarea/mnh&cat=apa&cc=US&lang=en"),
      SearchURLExample(
        url:
          "https://seattle.craigslist.org/d/for-sale/search/sss?query=aeron%20chair&searchNearby=1",
        request: sapi
          + "batch=2-0-360-1-0&searchPath=sss&cc=US&lang=en&query=aeron%20chair&searchNearby=1"),
    ]
  }
}
