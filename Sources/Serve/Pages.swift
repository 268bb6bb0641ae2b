internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation
internal import WebServer

/// The pages: plain HTML with one style sheet and one small script, both served from here
/// (`Sources/Serve/Assets/`). They are made of ``HTML``, which escapes every text interpolated
/// into it (what came from a site, the config or a request); links and photos only ever point
/// at `http:`/`https:` addresses.
enum Pages {
  /// A page: `head` adds to its `<head>` (the map's style sheets and scripts).
  static func layout(
    _ title: String, csrf: String?, problems: String = "", head: HTML = .empty, _ body: HTML
  ) -> WebResponse {
    let html: HTML = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      \(csrf.map { "<meta name=\"csrf\" content=\"\($0)\">" } ?? HTML.empty)
      <title>\(title) · clarissa</title>
      <link rel="stylesheet" href="/assets/style.css">
      <script src="/assets/app.js" defer></script>
      \(appHead)
      \(head)
      </head>
      <body>
      \(topBar)
      <main>
      \(banner(problems))\(body)
      </main>
      </body>
      </html>

      """
    return WebResponse(
      headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
      body: html.bytes)
  }

  /// What makes every page part of the installable app: the manifest, the theme's colour, the
  /// icon iOS puts on a home screen, the layouts, the worker's and the panes' scripts.
  static let appHead: HTML = """
    <link rel="manifest" href="/manifest.webmanifest">
    <meta name="theme-color" content="#0a7d3e">
    <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">
    <link rel="stylesheet" href="/assets/layouts.css">
    <script src="/assets/push.js" defer></script>
    <script src="/assets/panes.js" defer></script>
    """

  /// The bar at the top of every page: the name and the links to the lists.
  static let topBar: HTML = """
    <header class="top"><a class="brand" href="/">clarissa</a><nav><a href="/">Searches</a>\
    <a href="/listings">All listings</a><a href="/listings?unviewed=1">Unviewed</a>\
    <a href="/starred">Starred</a><a href="/hidden">Hidden</a><a href="/map">Map</a>\
    <a href="/searches">Edit searches</a><a href="/capture">Capture</a></nav></header>
    """

  /// The config's problems above a page, or nothing when it has none.
  static func banner(_ problems: String) -> HTML {
    guard !problems.isEmpty else { return .empty }
    return """
      <section class="problems" id="problems"><h2>The config has problems</h2>\
      <pre>\(problems)</pre></section>

      """
  }

  static func problem(status: Int, message: String) -> WebResponse {
    let reason = WebResponse.reasonPhrase(status)
    return layout(
      reason, csrf: nil,
      """
      <h1>\(status) \(reason)</h1><p class="message">\(message)</p>\
      <p><a href="/">Back to the searches</a></p>
      """)
  }

  static func signIn(wrong: Bool) -> WebResponse {
    let said: HTML =
      wrong
      ? "<p class=\"message\">That token is not the one this server was started with.</p>"
      : """
      <p>This server asks for the token it was started with \
      (<code>--token</code> or <code>--token-file</code>).</p>
      """
    return layout(
      "Sign in", csrf: nil,
      """
      <h1>Sign in</h1>
      \(said)
      <form method="post" action="/login" class="signin"><label>Token \
      <input type="password" name="token" autocomplete="current-password" required></label>\
      <button>Sign in</button></form>
      """)
  }

  /// `<form>` fields that send the CSRF token back.
  static func csrfField(_ csrf: String) -> HTML {
    "<input type=\"hidden\" name=\"csrf\" value=\"\(csrf)\">"
  }

  static func time(_ date: Date?, now: Date, future: Bool = false) -> HTML {
    guard let date else { return "never" }
    let stamp = MarkupText.timestamp(date)
    let words: String
    if future {
      let seconds = date.timeIntervalSince(now)
      words = seconds <= 0 ? "due now" : "in " + ReportClock.span(seconds)
    } else {
      words = Age.describe(from: date, to: now)
    }
    return "<time datetime=\"\(stamp)\" title=\"\(stamp)\">\(words)</time>"
  }

  static func price(_ value: Double?, _ currency: String?) -> String {
    value.map { Money.format($0, currency) } ?? ""
  }

  /// "$120 → $90 → $95": the prices a listing was seen at, the drops marked.
  static func priceHistory(_ prices: [ListingHistory.Price]) -> HTML {
    guard prices.count > 1 else { return .empty }
    var parts: [HTML] = []
    for (index, entry) in prices.enumerated() {
      let text = Money.format(entry.price, entry.currency)
      if index > 0, entry.price < prices[index - 1].price {
        parts.append("<span class=\"drop\">\(text)</span>")
      } else if index > 0, entry.price > prices[index - 1].price {
        parts.append("<span class=\"rise\">\(text)</span>")
      } else {
        parts.append("\(text)")
      }
    }
    return "<div class=\"history\">\(parts, separator: " → ")</div>"
  }

  static func photo(_ listing: Listing) -> HTML {
    guard let url = listing.imageURLs.lazy.compactMap(WebApp.webURL).first else {
      return "<div class=\"photo none\">no photo</div>"
    }
    return "<div class=\"photo\">\(image(url))</div>"
  }

  /// A photo from a site: loaded late, and told nothing of this page.
  static func image(_ url: String) -> HTML {
    "<img src=\"\(url)\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\">"
  }

  static func listingPath(_ key: ListingKey) -> String {
    "/listing/\(WebApp.segment(key.site))/\(WebApp.segment(key.id))"
  }

  /// The button that opens the listing on its site and marks it viewed (a form: it changes
  /// state, so it is a POST with the page's token).
  static func openButton(_ key: ListingKey, csrf: String, label: String = "Open on site ↗")
    -> HTML
  {
    let action = "/open/\(WebApp.segment(key.site))/\(WebApp.segment(key.id))"
    return """
      <form method="post" action="\(action)" target="_blank" class="open">\(csrfField(csrf))\
      <button class="open-button">\(label)</button></form>
      """
  }

  /// An OpenStreetMap link to the coordinates.
  static func mapLink(_ coordinates: Coordinates) -> HTML {
    let lat = String(format: "%.5f", coordinates.latitude)
    let lon = String(format: "%.5f", coordinates.longitude)
    return """
      <a class="map" href="https://www.openstreetmap.org/?mlat=\(lat)&amp;mlon=\(lon)\
      #map=16/\(lat)/\(lon)" rel="noopener noreferrer" target="_blank">\
      \(lat), \(lon) on OpenStreetMap</a>
      """
  }
}

extension WebResponse {
  static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 400: "Bad request"
    case 401: "Sign in"
    case 403: "Refused"
    case 404: "Not found"
    case 405: "Not allowed"
    case 421: "Wrong host"
    default: "Problem"
    }
  }
}
