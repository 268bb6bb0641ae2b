internal import ClarissaCore
internal import Foundation
internal import Geography
internal import ListingStore
internal import WebServer

/// The searches (`/`) and the listings as cards (`/listings`, `/starred`, `/hidden`).
extension WebApp {
  /// `/`: every search with its unviewed count, last and next run, failures and cool-downs.
  func searchesPage() throws -> WebResponse {
    let now = clock()
    let config = self.config
    var rows = try searchRows().map { Self.searchCard($0, now: now) }.joined()
    if rows.isEmpty {
      rows = "<p class=\"empty\">No searches yet: add one to \(config.path).</p>"
    }
    let digests = try digestsLine()
    return Pages.layout(
      "Searches", csrf: csrf, problems: config.problems, head: try badgeCount(),
      "<h1>Searches</h1>\n\(Self.deviceControls)\(digests)<div class=\"searches\">\n\(rows)</div>")
  }

  /// One search on `/`: its name and state, counts, runs, failures and cool-downs.
  private static func searchCard(_ row: SearchRow, now: Date) -> HTML {
    let link = "/listings?search=\(queryValue(row.name))"
    var state: [HTML] = []
    if !row.configured { state.append("<span class=\"tag\">not in the config</span>") }
    if row.configured && !row.enabled { state.append("<span class=\"tag\">off</span>") }
    let site: HTML = row.site.isEmpty ? .empty : " · \(row.site)"
    let next: HTML =
      row.nextRun.map { (date: Date) -> HTML in
        " · next \(Pages.time(date, now: now, future: true))"
      } ?? .empty
    return """
      <article class="search\(row.unviewed > 0 ? " has-unviewed" : "")" data-search="\(row.name)">
      <h2><a href="\(link)">\(row.name)</a> \(state, separator: " ")</h2>
      <p class="counts"><a class="unviewed-count" href="\(link)&amp;unviewed=1">\
      \(row.unviewed) unviewed</a>\(site) · \
      <a class="map-link" href="/map?search=\(queryValue(row.name))">map</a></p>
      <p class="runs">last run \(Pages.time(row.lastRun, now: now))\(next)</p>
      \(troubles(row, now: now))
      </article>

      """
  }

  /// A search's failures and its hosts' cool-downs, as lists (nothing when it has none).
  private static func troubles(_ row: SearchRow, now: Date) -> HTML {
    var out = HTML.empty
    if !row.failures.isEmpty {
      out += "<ul class=\"failures\">\(row.failures.map { "<li>\($0)</li>" as HTML })</ul>"
    }
    let cooling = row.cooldowns.map { cooling -> HTML in
      let until = Pages.time(cooling.until, now: now, future: true)
      return "<li>\(cooling.host) cooling down until \(until): \(cooling.reason)</li>"
    }
    if !cooling.isEmpty { out += "<ul class=\"cooling\">\(cooling)</ul>" }
    return out
  }

  /// `/listings`: cards, newest first, with the filters and "mark all viewed".
  func listingsPage(_ request: WebRequest) throws -> WebResponse {
    let query = try Self.query(request.query)
    let page = try Self.page(request.query)
    let found = try withContext(listingPage(query, page: page))
    var cards = try self.cards(found, showSearch: query.searches.count != 1, back: request.target)
    if cards.isEmpty { cards = "<p class=\"empty\">No listings match.</p>" }
    let title =
      Self.markedTitle(query) ?? (query.searches.count == 1 ? query.searches[0] : "All listings")
    let current = Self.filterParameters(query)
    let onMap = current.isEmpty ? "/map" : "/map?" + String(current.dropLast())
    return Pages.layout(
      title, csrf: csrf, problems: config.problems, head: try badgeCount(),
      """
      <h1>\(title)</h1>
      \(filterForm(query, action: "/listings"))
      <div class="toolbar"><span class="page">page \(page) · \
      <a id="on-map" href="\(onMap)">on the map</a></span>\
      \(markAllForm(query, back: request.target))</div>
      <div class="cards">
      \(cards)</div>
      <nav class="pager">\(Self.pager(current, page: page, more: found.more))</nav>
      """)
  }

  /// "Mark all viewed": a POST marking what the query finds, then back to `back`.
  private func markAllForm(_ query: ListingQuery, back: String) -> HTML {
    """
    <form method="post" action="/viewed" class="mark-all">\(Pages.csrfField(csrf))\
    <input type="hidden" name="all" value="1">\(Self.hiddenFields(query))\
    <input type="hidden" name="return" value="\(back)">\
    <button id="mark-all">Mark all viewed</button></form>
    """
  }

  /// The links to the newer and the older page; `current` is the query's parameters.
  private static func pager(_ current: String, page: Int, more: Bool) -> HTML {
    var pager = HTML.empty
    if page > 1 {
      pager += "<a rel=\"prev\" href=\"/listings?\(current + "page=\(page - 1)")\">← newer</a>"
    }
    if more {
      pager += "<a rel=\"next\" href=\"/listings?\(current + "page=\(page + 1)")\">older →</a>"
    }
    return pager
  }

  /// The cards of `found`, with each listing's prices seen and the reposts it folds.
  private func cards(_ found: ListingPage, showSearch: Bool, back: String) throws -> HTML {
    let now = clock()
    let served = config
    var found = found
    try travelTimes.attach(&found.listings, routing: served.routing) {
      served.commute(of: [$0])
    }
    let units = Dictionary(
      served.searches.map { ($0.name, $0.areaUnit) }, uniquingKeysWith: { first, _ in first })
    let keys = found.listings.map(\.listing.key)
    let prices = try store.prices(of: keys)
    var folded: [String: [ListingKey: Int]] = [:]
    for search in Set(found.listings.map(\.search)) {
      folded[search] = try store.foldedCounts(
        search: search, keys: found.listings.filter { $0.search == search }.map(\.listing.key))
    }
    return found.listings.map { item in
      card(
        item, places: served.places(of: [item.search]), unit: units[item.search] ?? nil,
        prices: prices[item.listing.key] ?? [],
        folded: folded[item.search]?[item.listing.key] ?? 0, now: now, showSearch: showSearch,
        back: back)
    }.joined()
  }

  /// A card: the photo, the price and its history, the facts (rooms, floor area in `unit`),
  /// the distances from `places` and the travel times, the title, where and when.
  private func card(
    _ item: FoundListing, places: [NamedPlace], unit: AreaUnit?, prices: [ListingHistory.Price],
    folded: Int, now: Date,
    showSearch: Bool, back: String
  ) -> HTML {
    let listing = item.listing
    let viewed = item.viewedAt != nil
    let meta = [
      listing.location ?? listing.area,
      Age.describe(from: listing.posted ?? item.firstSeen, to: now),
      listing.site, showSearch ? item.search : nil,
    ].compactMap { $0 }.joined(separator: " · ")
    let badges = Self.badges(item, prices: prices, folded: folded)
    var facts = HTML.empty
    if let summary = ListingFacts.summary(listing, unit: unit) {
      facts += "<div class=\"card-facts\">\(summary)</div>"
    }
    if let distances = ListingFacts.distances(listing, from: places) {
      facts += "<div class=\"card-distances\">\(distances)</div>"
    }
    if let commute = listing.commuteWords {
      facts += "<div class=\"card-commute\">\(SafeText.line(commute))</div>"
    }
    return """
      <article class="card\(viewed ? " viewed" : " unviewed")" \
      data-key="\(listing.site + ":" + listing.id)">
      <a class="card-link" href="\(Pages.listingPath(listing.key))">\(Pages.photo(listing))
      <div class="info"><div class="marks">\(badges, separator: " ")</div>\
      <div class="price">\(Pages.price(listing.price, listing.currency))</div>\
      \(Pages.priceHistory(prices))\(facts)<div class="title">\(listing.title)</div>\
      <div class="meta">\(meta)</div>\(Pages.context(listing))</div></a>
      \(Pages.openButton(listing.key, csrf: csrf))
      \(Pages.markControls(listing.key, item.marks, csrf: csrf, back: Self.local(back)))
      </article>

      """
  }

  /// A card's badges: unviewed, the marks, a repost, the reposts folded, a price drop.
  private static func badges(_ item: FoundListing, prices: [ListingHistory.Price], folded: Int)
    -> [HTML]
  {
    var badges: [HTML] = []
    if item.viewedAt == nil {
      badges.append("<span class=\"badge unviewed-badge\">unviewed</span>")
    }
    badges += Pages.markBadges(item.marks)
    if let original = item.repostOf {
      badges.append("<span class=\"badge repost\">repost of \(original)</span>")
    }
    if folded > 0 {
      badges.append(
        "<span class=\"badge repost\">\(folded) other post\(folded == 1 ? "" : "s")</span>")
    }
    if let last = prices.last, prices.count > 1, let before = prices.dropLast().last,
      last.price < before.price
    {
      let percent = CheckedNumber.percent(from: before.price, to: last.price) ?? 0
      badges.append("<span class=\"badge drop\">price drop \(percent)%</span>")
    }
    return badges
  }
}
