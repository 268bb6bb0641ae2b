import ClarissaCore
import Foundation
import ListingStore
import Presentation
import WebServer

/// The pages: plain HTML with one style sheet and one small script, both served from here.
/// Every text that came from a site goes through ``e(_:)``; links and photos only ever point at
/// `http:`/`https:` addresses.
enum Pages {
  static func e(_ text: String) -> String { MarkupText.escape(text) }

  /// A page: `head` adds to its `<head>` (the map's style sheets and scripts).
  static func layout(
    _ title: String, csrf: String?, problems: String = "", head: String = "", _ body: String
  ) -> WebResponse {
    let banner =
      problems.isEmpty
      ? ""
      : "<section class=\"problems\" id=\"problems\"><h2>The config has problems</h2><pre>\(e(problems))</pre></section>\n"
    let html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      \(csrf.map { "<meta name=\"csrf\" content=\"\(e($0))\">" } ?? "")
      <title>\(e(title)) · clarissa</title>
      <link rel="stylesheet" href="/assets/style.css">
      <script src="/assets/app.js" defer></script>
      \(head)
      </head>
      <body>
      <header class="top"><a class="brand" href="/">clarissa</a><nav><a href="/">Searches</a><a href="/listings">All listings</a><a href="/listings?unviewed=1">Unviewed</a><a href="/starred">Starred</a><a href="/hidden">Hidden</a><a href="/map">Map</a></nav></header>
      <main>
      \(banner)\(body)
      </main>
      </body>
      </html>

      """
    return WebResponse(
      headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
      body: Array(html.utf8))
  }

  static func problem(status: Int, message: String) -> WebResponse {
    layout(
      WebResponse.reasonPhrase(status), csrf: nil,
      "<h1>\(status) \(e(WebResponse.reasonPhrase(status)))</h1><p class=\"message\">\(e(message))</p><p><a href=\"/\">Back to the searches</a></p>"
    )
  }

  static func signIn(wrong: Bool) -> WebResponse {
    layout(
      "Sign in", csrf: nil,
      """
      <h1>Sign in</h1>
      \(wrong ? "<p class=\"message\">That token is not the one this server was started with.</p>" : "<p>This server asks for the token it was started with (<code>--token</code> or <code>--token-file</code>).</p>")
      <form method="post" action="/login" class="signin"><label>Token <input type="password" name="token" autocomplete="current-password" required></label><button>Sign in</button></form>
      """)
  }

  /// `<form>` fields that send the CSRF token back.
  static func csrfField(_ csrf: String) -> String {
    "<input type=\"hidden\" name=\"csrf\" value=\"\(e(csrf))\">"
  }

  static func time(_ date: Date?, now: Date, future: Bool = false) -> String {
    guard let date else { return "never" }
    let stamp = MarkupText.timestamp(date)
    let words: String
    if future {
      let seconds = date.timeIntervalSince(now)
      words = seconds <= 0 ? "due now" : "in " + ReportClock.span(seconds)
    } else {
      words = Age.describe(from: date, to: now)
    }
    return "<time datetime=\"\(e(stamp))\" title=\"\(e(stamp))\">\(e(words))</time>"
  }

  static func price(_ value: Double?, _ currency: String?) -> String {
    value.map { Money.format($0, currency) } ?? ""
  }

  /// "$120 → $90 → $95": the prices a listing was seen at, the drops marked.
  static func priceHistory(_ prices: [ListingHistory.Price]) -> String {
    guard prices.count > 1 else { return "" }
    var parts: [String] = []
    for (index, entry) in prices.enumerated() {
      let text = e(Money.format(entry.price, entry.currency))
      if index > 0, entry.price < prices[index - 1].price {
        parts.append("<span class=\"drop\">\(text)</span>")
      } else if index > 0, entry.price > prices[index - 1].price {
        parts.append("<span class=\"rise\">\(text)</span>")
      } else {
        parts.append(text)
      }
    }
    return "<div class=\"history\">" + parts.joined(separator: " → ") + "</div>"
  }

  static func photo(_ listing: Listing) -> String {
    guard let url = listing.imageURLs.lazy.compactMap(WebApp.webURL).first else {
      return "<div class=\"photo none\">no photo</div>"
    }
    return
      "<div class=\"photo\"><img src=\"\(e(url))\" alt=\"\" loading=\"lazy\" referrerpolicy=\"no-referrer\"></div>"
  }

  static func listingPath(_ key: ListingKey) -> String {
    "/listing/\(WebApp.segment(key.site))/\(WebApp.segment(key.id))"
  }

  /// The button that opens the listing on its site and marks it viewed (a form: it changes
  /// state, so it is a POST with the page's token).
  static func openButton(_ key: ListingKey, csrf: String, label: String = "Open on site ↗")
    -> String
  {
    "<form method=\"post\" action=\"/open/\(e(WebApp.segment(key.site)))/\(e(WebApp.segment(key.id)))\" target=\"_blank\" class=\"open\">\(csrfField(csrf))<button class=\"open-button\">\(e(label))</button></form>"
  }

  /// An OpenStreetMap link to the coordinates.
  static func mapLink(_ coordinates: Coordinates) -> String {
    let lat = String(format: "%.5f", coordinates.latitude)
    let lon = String(format: "%.5f", coordinates.longitude)
    return
      "<a class=\"map\" href=\"https://www.openstreetmap.org/?mlat=\(lat)&amp;mlon=\(lon)#map=16/\(lat)/\(lon)\" rel=\"noopener noreferrer\" target=\"_blank\">\(lat), \(lon) on OpenStreetMap</a>"
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
