internal import ActionKeys
internal import ClarissaCore
internal import Foundation
internal import Geography
internal import ListingStore
internal import Synchronization
internal import WebServer

extension WebApp {
  /// The map's areas of `searches` (every search's when empty) as JSON and its tag, made once
  /// per config; nil when they have none.
  func areas(of searches: [String]) throws -> (tag: String, json: [UInt8])? {
    let key = searches.sorted()
    if let known = state.withLock({ $0.areaAnswers[key] }) { return known }
    let areas = config.areas(of: searches)
    var answer: (tag: String, json: [UInt8])?
    if !areas.isEmpty {
      let json = MapAreas.json(areas)
      answer = (Secret.hex(Array(SHA256.hash(json).prefix(12))), json)
    }
    state.withLock { state in
      if state.areaAnswers.count >= Self.areaAnswerLimit { state.areaAnswers = [:] }
      state.areaAnswers[key] = .some(answer)
    }
    return answer
  }

  /// The most markers the map shows: the newest listings first.
  static let mapLimit = 10_000

  /// `/api/map`: the markers of what the filters find, newest first, at most ``mapLimit``.
  func mapData(_ query: ListingQuery) throws -> MapData {
    var asked = query
    asked.limit = Self.mapLimit + 1
    asked.offset = 0
    var found = try store.mapped(asked)
    // A listing seen by several searches is one row a search: `limit + 1` rows may hold fewer
    // listings, and are then all of them only when fewer rows came.
    let rows = found.reduce(0) { $0 + $1.searches.count }
    let more = rows > Self.mapLimit
    if found.count > Self.mapLimit { found = Array(found.prefix(Self.mapLimit)) }
    let served = config
    try attachTravelTimes(&found, served)
    // Each listing's distances from its searches' places (one list when all share them).
    var placesBySearches: [[String]: [NamedPlace]] = [:]
    var limitsBySearches: [[String]: [CommuteLimit]] = [:]
    let signals = try store.signals(of: found.map(\.listing.key))
    let markers = found.compactMap { item -> MapData.Marker? in
      if placesBySearches[item.searches] == nil {
        placesBySearches[item.searches] = served.places(of: item.searches)
        limitsBySearches[item.searches] = served.commute(of: item.searches)
      }
      var marker = Self.marker(item, places: placesBySearches[item.searches] ?? [])
      marker?.signals = (signals[item.listing.key] ?? []).map { SafeText.line($0.text) }
      marker?.commute = Self.commute(item.listing, limits: limitsBySearches[item.searches] ?? [])
      return marker
    }
    var data = MapData(
      markers: markers, limit: Self.mapLimit, more: more,
      places: served.places(of: query.searches).map {
        MapData.Place(name: $0.name, lat: $0.coordinates.latitude, lon: $0.coordinates.longitude)
      },
      areasAt: try areas(of: query.searches).map { answer in
        "/api/map/areas?"
          + query.searches.map { "search=\(Self.queryValue($0))&" }.joined() + "v=\(answer.tag)"
      })
    data.near = served.near(of: query.searches).map {
      MapData.Circle(
        name: $0.place.name, lat: $0.place.coordinates.latitude,
        lon: $0.place.coordinates.longitude, radius: $0.radius.metres,
        words: $0.radius.words(in: $0.place.unit))
    }
    data.limits = served.commute(of: query.searches).map {
      MapData.Limit(place: $0.place.name, by: $0.mode, max: $0.maxMinutes)
    }
    return data
  }

  /// Each listing's travel times (``travelTimes``) for its searches' `commute:` limits, the
  /// listings that share searches filled together.
  private func attachTravelTimes(_ found: inout [MappedListing], _ served: ServedConfig) throws {
    var groups: [[String]: [Int]] = [:]
    for index in found.indices { groups[found[index].searches, default: []].append(index) }
    for (searches, indices) in groups {
      let limits = served.commute(of: searches)
      guard !limits.isEmpty else { continue }
      var listings = indices.map { found[$0].listing }
      try travelTimes.attach(&listings, limits, served.routing)
      for (index, listing) in zip(indices, listings) {
        found[index].listing.commute = listing.commute
      }
    }
  }

  /// A marker's travel times, each with the `max` of its place and mode among `limits`, and
  /// whether the listing is farther than that limit's straight-line bound (no engine was asked:
  /// it cannot make it, so it is coloured beyond, not unknown).
  private static func commute(_ listing: Listing, limits: [CommuteLimit]) -> [MapData.Commute] {
    listing.commute.map { time in
      let limit = limits.first { $0.place.name == time.place && $0.mode == time.by }
      let beyond =
        time.minutes == nil
        && listing.coordinates.map { here in limit?.isBeyondReach(here) ?? false } ?? false
      return MapData.Commute(
        place: SafeText.line(time.place), by: time.by, minutes: time.shownMinutes,
        max: limit?.maxMinutes, words: SafeText.line(time.words), beyondReach: beyond)
    }
  }

  /// `/api/map/areas?search=...`: the searches' `within:` areas, simplified (``MapAreas``),
  /// tagged (`ETag`, `304` to `If-None-Match`); asked with the tag `/api/map` names (`v=`),
  /// the browser keeps them a year, so a map loaded again asks nothing.
  func mapAreas(_ request: WebRequest) throws -> WebResponse {
    guard let answer = try areas(of: request.query.all("search")) else {
      return Self.json(bytes: MapAreas.json([]))
    }
    let tag = "\"\(answer.tag)\""
    let caching =
      request.query.first("v") == answer.tag
      ? "private, max-age=31536000, immutable" : "private, no-cache"
    let known = request.header("if-none-match")?.split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces) == tag
    }
    if known == true {
      return WebResponse(status: 304, headers: [("ETag", tag), ("Cache-Control", caching)])
    }
    return WebResponse(
      headers: [("Content-Type", "application/json"), ("ETag", tag), ("Cache-Control", caching)],
      body: answer.json)
  }

  private static func marker(_ item: MappedListing, places: [NamedPlace]) -> MapData.Marker? {
    let listing = item.listing
    guard let place = listing.coordinates else { return nil }
    var drop: Int?
    if let before = item.previousPrice, let now = listing.price, now < before {
      drop = CheckedNumber.percent(from: before, to: now)
    }
    return MapData.Marker(
      key: listing.site + ":" + listing.id, searches: item.searches, lat: place.latitude,
      lon: place.longitude, title: listing.title,
      price: Money.format(listing), drop: drop,
      facts: ListingFacts.summary(listing),
      distances: ListingFacts.distances(listing, from: places),
      place: ListingFacts.place(listing) ?? listing.location,
      photo: listing.imageURLs.lazy.compactMap(webURL).first,
      state: drop != nil ? "drop" : item.viewedAt == nil ? "unviewed" : "viewed",
      page: Pages.listingPath(listing.key), url: webURL(listing.url))
  }

  /// `/map`: the filters, the map (its data from `/api/map` with the same query), a legend and
  /// the link to the same listings as a list; or, without Leaflet, which packages to install.
  func mapPage(_ request: WebRequest) throws -> WebResponse {
    let query = try Self.query(request.query)
    let settings = map
    let parameters = String(Self.filterParameters(query).dropLast())
    let suffix = parameters.isEmpty ? "" : "?" + parameters
    let name = query.searches.count == 1 ? query.searches[0] : "all listings"
    let missing = LeafletFiles.missing(in: settings.leafletFolder)
    let focus = request.query.first("focus").flatMap(Self.key)
    // The compact bar over the map: on a phone the filters fold under "Filters" (map.js).
    var body: HTML = """
      <div class="map-bar"><h1>Map: \(name)</h1>
      <details class="map-filters" id="map-filters" open><summary>Filters</summary>
      \(filterForm(query, action: "/map"))</details>
      <p class="map-links"><a id="as-list" href="\("/listings" + suffix)">as a list</a></p></div>

      """
    body +=
      missing.isEmpty
      ? Self.mapHolder(settings, api: "/api/map" + suffix, focus: focus)
      : Self.leafletMissing(settings, missing: missing)
    var response = Pages.layout(
      "Map: \(name)", csrf: csrf, problems: config.problems,
      head: missing.isEmpty ? Self.mapHead : .empty, body)
    // The tile server is told the origin of this page (OpenStreetMap's policy asks for a
    // Referer); the listings' photos and links in the popups still send none.
    response.headers.append(("Referrer-Policy", "strict-origin-when-cross-origin"))
    return response
  }

  /// What the map page loads: Leaflet's style sheets and scripts, then its own script.
  static let mapHead: HTML =
    LeafletFiles.needed.map { name -> HTML in
      name.hasSuffix(".css")
        ? "<link rel=\"stylesheet\" href=\"/assets/leaflet/\(name)\">"
        : "<script src=\"/assets/leaflet/\(name)\" defer></script>"
    }.joined(separator: "\n") + "\n<script src=\"/assets/map.js\" defer></script>"

  /// The map's element (its data from `api`, its tiles and their attribution from `settings`,
  /// the listing `focus` opened), its legend (the script puts the travel times' in its place
  /// when the searches have `commute:` limits), and the list beside it (under it on a phone,
  /// a tap on the handle away), sorted by the script. The attribution is markup for Leaflet:
  /// here it is an attribute's text.
  private static func mapHolder(_ settings: MapSettings, api: String, focus: ListingKey?) -> HTML {
    let focused: HTML =
      focus.map { (key: ListingKey) -> HTML in " data-focus=\"\(key.site + ":" + key.id)\"" }
      ?? .empty
    return """
      <div class="map-view" id="map-view">
      <div class="map-frame">
      <p class="map-note" id="map-note">Loading the listings…</p>
      <div id="map" class="map" data-api="\(api)" data-tiles="\(settings.tiles)" \
      data-attribution="\(settings.attributionHTML.markup)"\(focused)></div>
      <a class="list-handle" id="list-handle" href="#map-side">List ↓</a>
      </div>
      <aside class="map-side" id="map-side">
      <ul class="legend" id="map-legend"><li><span class="pin pin-unviewed"></span>unviewed</li>\
      <li><span class="pin pin-viewed"></span>viewed</li>\
      <li><span class="pin pin-drop"></span>price drop</li>\
      <li>Listings without coordinates are only in the list.</li></ul>
      <label class="map-sort">Sort <select id="map-sort"><option value="newest">newest first</option>\
      <option value="travel">travel time</option></select></label>
      <ol class="map-list" id="map-list"></ol>
      <p class="map-list-note" id="map-list-note"></p>
      </aside>
      </div>
      """
  }

  /// Which packages to install, and which of Leaflet's files the folder lacks.
  private static func leafletMissing(_ settings: MapSettings, missing: [String]) -> HTML {
    """
    <section class="problems" id="map-missing"><h2>The map needs Leaflet</h2>
    <p>Install Debian's packages: <code>apt-get install \(MapSettings.packages)</code>, or start \
    clarissa with <code>--leaflet FOLDER</code> naming a folder that holds Leaflet 1.7 and \
    Leaflet.markercluster 1.5.</p>
    <p>\(settings.leafletFolder) lacks \(missing.joined(separator: ", ")).</p></section>
    """
  }
}
