internal import ClarissaCore
internal import Foundation
internal import Geography
internal import ListingStore
internal import Presentation
internal import WebServer

/// `/listing/SITE/ID`: all the store knows of one listing.
extension WebApp {
  /// The listing's page: its price, actions, photos, facts, description, text changes, prices
  /// seen and the searches that found it.
  func listingPage(_ key: ListingKey) throws -> WebResponse {
    guard let history = try withContext(store.history(key)) else {
      throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store")
    }
    let now = clock()
    let listing = history.listing
    let facts = listingFacts(history, key: key, now: now).map { name, value -> HTML in
      "<dt>\(name)</dt><dd>\(value)</dd>"
    }
    return Pages.layout(
      listing.title, csrf: csrf, problems: config.problems, head: try badgeCount(),
      """
      <article class="listing\(history.viewedAt == nil ? " unviewed" : " viewed")" \
      data-key="\(key.site + ":" + key.id)">
      <h1>\(listing.title)</h1>
      <p class="price big">\(Pages.price(listing.price, listing.currency))</p>
      \(Pages.priceHistory(history.prices))
      \(Pages.priceChart(try PriceChart.read(history, in: store), now: now))
      \(Pages.context(listing))
      <div class="actions">\(actions(history, key: key))</div>
      \(Self.photos(listing))
      <dl class="facts">\(facts)</dl>
      \(Pages.otherFacts(listing.facts))
      \(Self.description(listing))
      \(Pages.textChanges(history, now: now))
      \(Self.pricesSeen(history, now: now))
      <h2>Found by</h2><ul class="sightings">\(Self.sightings(history, key: key, now: now))</ul>
      </article>
      """)
  }

  /// Open on site, Mark viewed (when it is not), and the marks' buttons and note.
  private func actions(_ history: ListingHistory, key: ListingKey) -> HTML {
    var out = Pages.openButton(key, csrf: csrf)
    if history.viewedAt == nil {
      out += """
        <form method="post" action="/viewed" class="mark">\(Pages.csrfField(csrf))\
        <input type="hidden" name="key" value="\(key.site + ":" + key.id)">\
        <input type="hidden" name="return" value="\(Pages.listingPath(key))">\
        <button>Mark viewed</button></form>
        """
    }
    return out + Pages.markControls(key, history.marks, csrf: csrf, back: Pages.listingPath(key))
  }

  /// The listing's photos that are web addresses, in a row (nothing when none is).
  private static func photos(_ listing: Listing) -> HTML {
    let photos = listing.imageURLs.compactMap(WebApp.webURL).map(Pages.image)
    return photos.isEmpty ? .empty : "<div class=\"photos\">\(photos)</div>"
  }

  /// The description under its heading (nothing when it is empty).
  private static func description(_ listing: Listing) -> HTML {
    guard !listing.description.isEmpty else { return .empty }
    return "<h2>Description</h2><div class=\"description\">\(listing.description)</div>"
  }

  /// Each price the listing was seen at, and when (nothing when none was).
  private static func pricesSeen(_ history: ListingHistory, now: Date) -> HTML {
    let prices = history.prices.map { price -> HTML in
      "<li>\(Money.format(price.price, price.currency)) \(Pages.time(price.at, now: now))</li>"
    }
    return prices.isEmpty ? .empty : "<h2>Prices seen</h2><ul class=\"prices\">\(prices)</ul>"
  }

  /// The facts list: name, and its value as markup; the distances from the searches' places,
  /// then the travel times the listing carries (``Listing/commute``).
  func listingFacts(_ history: ListingHistory, key: ListingKey, now: Date)
    -> [(String, HTML)]
  {
    var listing = history.listing
    let limits = config.commute(of: history.searches.map(\.search))
    if !limits.isEmpty {
      var one = [listing]
      // A store that cannot be read here leaves the times out; the page still shows.
      try? travelTimes.attach(&one, limits, config.routing)
      listing = one[0]
    }
    var facts: [(String, HTML)] = [
      ("site", "\(listing.site)"), ("id", "\(listing.id)"),
      ("first seen", Pages.time(history.firstSeen, now: now)),
      ("last seen", Pages.time(history.lastSeen, now: now)),
    ]
    if let posted = listing.posted { facts.append(("posted", Pages.time(posted, now: now))) }
    if let place = listing.location ?? listing.area { facts.append(("place", "\(place)")) }
    if let coordinates = listing.coordinates {
      let onMap = "/map?focus=\(Self.queryValue(key.site + ":" + key.id))"
      let link: HTML = "<a id=\"on-map\" href=\"\(onMap)\">on the map</a>"
      facts.append(("map", "\(link) · \(Pages.mapLink(coordinates))"))
    }
    facts += Pages.describedFacts(listing)
    let places = config.places(of: history.searches.map(\.search))
    if let distances = ListingFacts.distances(listing, from: places) {
      facts.append(("distance", "\(distances)"))
    }
    if let times = ListingFacts.travelTimes(listing) { facts.append(("travel time", "\(times)")) }
    if let category = listing.category { facts.append(("category", "\(category)")) }
    return facts + Self.stateFacts(history, now: now)
  }

  /// The facts of what the store and the person made of it: viewed, the marks, its link, the
  /// same listing on other sites.
  private static func stateFacts(_ history: ListingHistory, now: Date) -> [(String, HTML)] {
    var facts: [(String, HTML)] = [
      (
        "viewed",
        history.viewedAt.map { (at: Date) -> HTML in "viewed \(Pages.time(at, now: now))" }
          ?? "<span class=\"badge unviewed-badge\">not viewed</span>"
      )
    ]
    facts += Pages.markFacts(history.marks, now: now)
    if let url = WebApp.webURL(history.listing.url) {
      facts.append(("link", "<span class=\"url\">\(url)</span>"))
    }
    if let others = history.alsoOn, !others.isEmpty {
      facts.append(("also on", alsoOnLinks(others)))
    }
    return facts
  }

  /// The listings on other sites that are the same flat: each one's page here and, when it is
  /// a web address, its page on its site.
  static func alsoOnLinks(_ others: [AlsoOn]) -> HTML {
    others.map { other -> HTML in
      let here: HTML = """
        <a class="also-on" href="\(Pages.listingPath(other.key))">\(other.site) \(other.id)</a>
        """
      guard let url = other.url.flatMap(WebApp.webURL) else { return here }
      return "\(here) (<a href=\"\(url)\" rel=\"noopener noreferrer\">on \(other.site)</a>)"
    }.joined(separator: ", ")
  }

  /// Each search that found the listing: when, as a repost of which, its other posts, and its
  /// deliveries.
  private static func sightings(_ history: ListingHistory, key: ListingKey, now: Date) -> HTML {
    history.searches.map { sighting -> HTML in
      let search = sighting.search
      var line: HTML = """
        <li><a href="/listings?search=\(queryValue(search))">\(search)</a>: first seen \
        \(Pages.time(sighting.firstSeen, now: now)), last \(Pages.time(sighting.lastSeen, now: now))
        """
      if let original = sighting.repostOf {
        line += "; repost of \(postLink(ListingKey(site: key.site, id: original)))"
      }
      if !sighting.alsoPostedAs.isEmpty {
        let posts = sighting.alsoPostedAs.map { postLink(ListingKey(site: key.site, id: $0)) }
        line += "; also posted as \(posts, separator: ", ")"
      }
      let deliveries = sighting.deliveries.map { delivery -> HTML in
        let event = delivery.event.replacingOccurrences(of: "_", with: " ")
        return "\(delivery.channel) (\(event): \(delivery.state))"
      }
      if !deliveries.isEmpty { line += "; \(deliveries, separator: ", ")" }
      return line + "</li>"
    }.joined()
  }

  /// A link to another post's page here, named by its id.
  private static func postLink(_ key: ListingKey) -> HTML {
    "<a href=\"\(Pages.listingPath(key))\">\(key.id)</a>"
  }
}
