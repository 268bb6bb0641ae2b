import ClarissaCore
import Foundation
import Geography
import ListingStore
import WebServer

extension WebApp {
  /// `/`: every search with its unviewed count, last and next run, failures and cool-downs.
  func searchesPage() throws -> WebResponse {
    let now = clock()
    let config = self.config
    var rows = ""
    for row in try searchRows() {
      let link = "/listings?search=\(Self.queryValue(row.name))"
      var state: [String] = []
      if !row.configured { state.append("<span class=\"tag\">not in the config</span>") }
      if row.configured && !row.enabled { state.append("<span class=\"tag\">off</span>") }
      let failures =
        row.failures.isEmpty
        ? ""
        : "<ul class=\"failures\">"
          + row.failures.map { "<li>\(Pages.e($0))</li>" }.joined() + "</ul>"
      let cooling = row.cooldowns.map {
        "<li>\(Pages.e($0.host)) cooling down until \(Pages.time($0.until, now: now, future: true)): \(Pages.e($0.reason))</li>"
      }.joined()
      rows += """
        <article class="search\(row.unviewed > 0 ? " has-unviewed" : "")" data-search="\(Pages.e(row.name))">
        <h2><a href="\(Pages.e(link))">\(Pages.e(row.name))</a> \(state.joined(separator: " "))</h2>
        <p class="counts"><a class="unviewed-count" href="\(Pages.e(link))&amp;unviewed=1">\(row.unviewed) unviewed</a>\(row.site.isEmpty ? "" : " · \(Pages.e(row.site))") · <a class="map-link" href="/map?search=\(Pages.e(Self.queryValue(row.name)))">map</a></p>
        <p class="runs">last run \(Pages.time(row.lastRun, now: now))\(row.nextRun.map { " · next \(Pages.time($0, now: now, future: true))" } ?? "")</p>
        \(failures)\(cooling.isEmpty ? "" : "<ul class=\"cooling\">\(cooling)</ul>")
        </article>

        """
    }
    if rows.isEmpty {
      rows = "<p class=\"empty\">No searches yet: add one to \(Pages.e(config.path)).</p>"
    }
    return Pages.layout(
      "Searches", csrf: csrf, problems: config.problems,
      "<h1>Searches</h1>\n\(try digestsLine())<div class=\"searches\">\n\(rows)</div>")
  }

  /// `/listings`: cards, newest first, with the filters and "mark all viewed".
  func listingsPage(_ request: WebRequest) throws -> WebResponse {
    let query = try Self.query(request.query)
    let page = try Self.page(request.query)
    let found = try withContext(listingPage(query, page: page))
    let now = clock()
    let keys = found.listings.map(\.listing.key)
    let prices = try store.prices(of: keys)
    var folded: [String: [ListingKey: Int]] = [:]
    for search in Set(found.listings.map(\.search)) {
      folded[search] = try store.foldedCounts(
        search: search, keys: found.listings.filter { $0.search == search }.map(\.listing.key))
    }
    var cards = ""
    for item in found.listings {
      cards += card(
        item, prices: prices[item.listing.key] ?? [],
        folded: folded[item.search]?[item.listing.key] ?? 0, now: now,
        showSearch: query.searches.count != 1, back: request.target)
    }
    if cards.isEmpty { cards = "<p class=\"empty\">No listings match.</p>" }
    let title =
      Self.markedTitle(query) ?? (query.searches.count == 1 ? query.searches[0] : "All listings")
    let filters = filterForm(query, action: "/listings")
    let current = Self.filterParameters(query)
    let onMap = current.isEmpty ? "/map" : "/map?" + String(current.dropLast())
    var pager = ""
    if page > 1 {
      pager +=
        "<a rel=\"prev\" href=\"/listings?\(Pages.e(current + "page=\(page - 1)"))\">← newer</a>"
    }
    if found.more {
      pager +=
        "<a rel=\"next\" href=\"/listings?\(Pages.e(current + "page=\(page + 1)"))\">older →</a>"
    }
    let markAll = """
      <form method="post" action="/viewed" class="mark-all">\(Pages.csrfField(csrf))<input type="hidden" name="all" value="1">\(Self.hiddenFields(query))<input type="hidden" name="return" value="\(Pages.e(request.target))"><button id="mark-all">Mark all viewed</button></form>
      """
    return Pages.layout(
      title, csrf: csrf, problems: config.problems,
      """
      <h1>\(Pages.e(title))</h1>
      \(filters)
      <div class="toolbar"><span class="page">page \(page) · <a id="on-map" href="\(Pages.e(onMap))">on the map</a></span>\(markAll)</div>
      <div class="cards">
      \(cards)</div>
      <nav class="pager">\(pager)</nav>
      """)
  }

  private func card(
    _ item: FoundListing, prices: [ListingHistory.Price], folded: Int, now: Date,
    showSearch: Bool, back: String
  ) -> String {
    let listing = item.listing
    let viewed = item.viewedAt != nil
    var marks: [String] = []
    if !viewed { marks.append("<span class=\"badge unviewed-badge\">unviewed</span>") }
    marks += Pages.markBadges(item.marks)
    if let original = item.repostOf {
      marks.append("<span class=\"badge repost\">repost of \(Pages.e(original))</span>")
    }
    if folded > 0 {
      marks.append(
        "<span class=\"badge repost\">\(folded) other post\(folded == 1 ? "" : "s")</span>")
    }
    if let last = prices.last, prices.count > 1, let before = prices.dropLast().last,
      last.price < before.price
    {
      let percent = CheckedNumber.percent(from: before.price, to: last.price) ?? 0
      marks.append("<span class=\"badge drop\">price drop \(percent)%</span>")
    }
    let meta = [
      listing.location ?? listing.area,
      Age.describe(from: listing.posted ?? item.firstSeen, to: now),
      listing.site, showSearch ? item.search : nil,
    ].compactMap { $0 }.map(Pages.e).joined(separator: " · ")
    return """
      <article class="card\(viewed ? " viewed" : " unviewed")" data-key="\(Pages.e(listing.site + ":" + listing.id))">
      <a class="card-link" href="\(Pages.e(Pages.listingPath(listing.key)))">\(Pages.photo(listing))
      <div class="info"><div class="marks">\(marks.joined(separator: " "))</div><div class="price">\(Pages.e(Pages.price(listing.price, listing.currency)))</div>\(Pages.priceHistory(prices))<div class="title">\(Pages.e(listing.title))</div><div class="meta">\(meta)</div>\(Pages.context(listing))</div></a>
      \(Pages.openButton(listing.key, csrf: csrf))
      \(Pages.markControls(listing.key, item.marks, csrf: csrf, back: Self.local(back)))
      </article>

      """
  }

  /// The filter form of `/listings` or `/map` (`action`); its values are the query's.
  func filterForm(_ query: ListingQuery, action: String) -> String {
    let searches = config.searches.map(\.name)
    let sites = Array(Set(config.searches.map(\.site))).sorted()
    func options(_ values: [String], _ chosen: [String], all: String) -> String {
      "<option value=\"\">\(all)</option>"
        + values.map {
          "<option value=\"\(Pages.e($0))\"\(chosen.contains($0) ? " selected" : "")>\(Pages.e($0))</option>"
        }.joined()
    }
    func number(_ value: Double?) -> String {
      value.map(CheckedNumber.text) ?? ""
    }
    return """
      <form method="get" action="\(action)" class="filters" id="filters">
      <label>Search <select name="search">\(options(searches, query.searches, all: "all searches"))</select></label>
      <label>Site <select name="site">\(options(sites, query.sites, all: "all sites"))</select></label>
      <label>Lowest price <input type="number" name="min" placeholder="min" step="any" value="\(Pages.e(number(query.minPrice)))"></label>
      <label>Highest price <input type="number" name="max" placeholder="max" step="any" value="\(Pages.e(number(query.maxPrice)))"></label>
      <label>Text <input type="search" name="q" value="\(Pages.e(query.words.joined(separator: " ")))" placeholder="words in title or description"></label>
      <label class="check"><input type="checkbox" name="unviewed" value="1"\(query.unviewed ? " checked" : "")> unviewed only</label>
      \(Self.markedParameter(query).map { "<input type=\"hidden\" name=\"\($0.name)\" value=\"1\">" } ?? "")
      <button>Filter</button>
      </form>
      """
  }

  /// The query as parameters (ending with `&` when not empty), for the pager's links.
  static func filterParameters(_ query: ListingQuery) -> String {
    var parts: [String] = []
    parts += query.searches.map { "search=\(queryValue($0))" }
    parts += query.sites.map { "site=\(queryValue($0))" }
    if let min = query.minPrice { parts.append("min=\(min)") }
    if let max = query.maxPrice { parts.append("max=\(max)") }
    if !query.words.isEmpty { parts.append("q=\(queryValue(query.words.joined(separator: " ")))") }
    if query.unviewed { parts.append("unviewed=1") }
    if let marked = markedParameter(query) { parts.append("\(marked.name)=\(marked.value)") }
    return parts.map { $0 + "&" }.joined()
  }

  /// The query as hidden fields of a form.
  static func hiddenFields(_ query: ListingQuery) -> String {
    var fields: [(String, String)] = []
    fields += query.searches.map { ("search", $0) }
    fields += query.sites.map { ("site", $0) }
    if let min = query.minPrice { fields.append(("min", String(min))) }
    if let max = query.maxPrice { fields.append(("max", String(max))) }
    if !query.words.isEmpty { fields.append(("q", query.words.joined(separator: " "))) }
    if query.unviewed { fields.append(("unviewed", "1")) }
    if let marked = markedParameter(query) { fields.append(marked) }
    return fields.map {
      "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(Pages.e($0.1))\">"
    }.joined()
  }

  /// The listings on other sites that are the same flat: each one's page here and, when it is
  /// a web address, its page on its site.
  static func alsoOnLinks(_ others: [AlsoOn]) -> String {
    others.map { other in
      let here =
        "<a class=\"also-on\" href=\"\(Pages.e(Pages.listingPath(other.key)))\">"
        + "\(Pages.e(other.site)) \(Pages.e(other.id))</a>"
      guard let url = other.url.flatMap(WebApp.webURL) else { return here }
      return here
        + " (<a href=\"\(Pages.e(url))\" rel=\"noopener noreferrer\">on \(Pages.e(other.site))</a>)"
    }.joined(separator: ", ")
  }

  /// `/listing/SITE/ID`: all the store knows of one listing.
  func listingPage(_ key: ListingKey) throws -> WebResponse {
    guard let history = try withContext(store.history(key)) else {
      throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store")
    }
    let now = clock()
    let listing = history.listing
    let photos = listing.imageURLs.compactMap(WebApp.webURL).map {
      "<img src=\"\(Pages.e($0))\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\">"
    }.joined()
    var facts: [(String, String)] = [
      ("site", Pages.e(listing.site)), ("id", Pages.e(listing.id)),
      ("first seen", Pages.time(history.firstSeen, now: now)),
      ("last seen", Pages.time(history.lastSeen, now: now)),
    ]
    if let posted = listing.posted { facts.append(("posted", Pages.time(posted, now: now))) }
    if let place = listing.location ?? listing.area { facts.append(("place", Pages.e(place))) }
    if let coordinates = listing.coordinates {
      let onMap = "/map?focus=\(Self.queryValue(key.site + ":" + key.id))"
      facts.append(
        (
          "map",
          "<a id=\"on-map\" href=\"\(Pages.e(onMap))\">on the map</a> · "
            + Pages.mapLink(coordinates)
        ))
    }
    facts += Pages.describedFacts(listing)
    let places = config.places(of: history.searches.map(\.search))
    if let distances = ListingFacts.distances(listing, from: places) {
      facts.append(("distance", Pages.e(distances)))
    }
    if let category = listing.category { facts.append(("category", Pages.e(category))) }
    facts.append(
      (
        "viewed",
        history.viewedAt.map { "viewed " + Pages.time($0, now: now) }
          ?? "<span class=\"badge unviewed-badge\">not viewed</span>"
      ))
    facts += Pages.markFacts(history.marks, now: now)
    if let url = WebApp.webURL(listing.url) {
      facts.append(("link", "<span class=\"url\">\(Pages.e(url))</span>"))
    }
    if let others = history.alsoOn, !others.isEmpty {
      facts.append(("also on", Self.alsoOnLinks(others)))
    }
    let prices = history.prices.map {
      "<li>\(Pages.e(Money.format($0.price, $0.currency))) \(Pages.time($0.at, now: now))</li>"
    }.joined()
    let searches = history.searches.map { sighting in
      var line =
        "<li><a href=\"/listings?search=\(Pages.e(Self.queryValue(sighting.search)))\">\(Pages.e(sighting.search))</a>: first seen \(Pages.time(sighting.firstSeen, now: now)), last \(Pages.time(sighting.lastSeen, now: now))"
      if let original = sighting.repostOf {
        line +=
          "; repost of <a href=\"\(Pages.e(Pages.listingPath(ListingKey(site: key.site, id: original))))\">\(Pages.e(original))</a>"
      }
      if !sighting.alsoPostedAs.isEmpty {
        line +=
          "; also posted as "
          + sighting.alsoPostedAs.map {
            "<a href=\"\(Pages.e(Pages.listingPath(ListingKey(site: key.site, id: $0))))\">\(Pages.e($0))</a>"
          }.joined(separator: ", ")
      }
      let deliveries = sighting.deliveries.map {
        "\(Pages.e($0.channel)) (\(Pages.e($0.event.replacingOccurrences(of: "_", with: " "))): \(Pages.e($0.state)))"
      }
      if !deliveries.isEmpty { line += "; " + deliveries.joined(separator: ", ") }
      return line + "</li>"
    }.joined()
    let markViewed =
      history.viewedAt == nil
      ? "<form method=\"post\" action=\"/viewed\" class=\"mark\">\(Pages.csrfField(csrf))<input type=\"hidden\" name=\"key\" value=\"\(Pages.e(key.site + ":" + key.id))\"><input type=\"hidden\" name=\"return\" value=\"\(Pages.e(Pages.listingPath(key)))\"><button>Mark viewed</button></form>"
      : ""
    return Pages.layout(
      listing.title, csrf: csrf, problems: config.problems,
      """
      <article class="listing\(history.viewedAt == nil ? " unviewed" : " viewed")" data-key="\(Pages.e(key.site + ":" + key.id))">
      <h1>\(Pages.e(listing.title))</h1>
      <p class="price big">\(Pages.e(Pages.price(listing.price, listing.currency)))</p>
      \(Pages.priceHistory(history.prices))
      \(Pages.context(listing))
      <div class="actions">\(Pages.openButton(key, csrf: csrf))\(markViewed)\(Pages.markControls(key, history.marks, csrf: csrf, back: Pages.listingPath(key)))</div>
      \(photos.isEmpty ? "" : "<div class=\"photos\">\(photos)</div>")
      <dl class="facts">\(facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined())</dl>
      \(Pages.otherFacts(listing.facts))
      \(listing.description.isEmpty ? "" : "<h2>Description</h2><div class=\"description\">\(Pages.e(listing.description))</div>")
      \(Pages.textChanges(history, now: now))
      \(prices.isEmpty ? "" : "<h2>Prices seen</h2><ul class=\"prices\">\(prices)</ul>")
      <h2>Found by</h2><ul class=\"sightings\">\(searches)</ul>
      </article>
      """)
  }
}
