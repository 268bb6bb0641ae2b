internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// A static page of recent listings: cards with photo, price, place, age and link. One file,
/// no scripts, no external styles (it works offline; photos load when online), readable on a
/// phone. Every listing field is escaped: descriptions are shown as text, never as markup.
enum HTMLPage {
  /// Times are shown in `timeZone`: the machine's (`TZ`), since the page is read where it runs.
  static func render(
    _ recent: [RecentListing], searches: [String], now: Date, timeZone: TimeZone = .current
  ) -> String {
    var body = ""
    for search in searches {
      let entries = recent.filter { $0.search == search }.sorted(by: newestFirst)
      guard !entries.isEmpty else { continue }
      body +=
        "<section><h2>\(escape(search)) <small>\(entries.count) recent</small></h2><div class=\"cards\">\n"
      for entry in entries { body += card(entry.listing, found: entry.found, now: now) }
      body += "</div></section>\n"
    }
    if body.isEmpty { body = "<p class=\"empty\">No new listings yet.</p>\n" }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="clarissa">
      <title>clarissa: new listings</title>
      \(style)
      </head>
      <body>
      <header><h1>New listings</h1><p>Updated <time datetime="\(escape(MarkupText.timestamp(now)))">\(escape(localTime(now, timeZone)))</time> by clarissa</p></header>
      \(body)</body>
      </html>

      """
  }

  /// The page's one style sheet: light and dark, a grid of cards that fits a phone.
  private static let style = """
    <style>
    :root { color-scheme: light dark; --card: #fff; --text: #1d1d1f; --muted: #6e6e73; --accent: #0a7d3e; }
    @media (prefers-color-scheme: dark) { :root { --card: #1c1c1e; --text: #f5f5f7; --muted: #a1a1a6; --accent: #30d158; } }
    body { font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; padding: 1rem; color: var(--text); background: Canvas; }
    header { margin-bottom: 1rem; } h1 { font-size: 1.4rem; margin: 0; } header p { color: var(--muted); margin: .2rem 0 0; }
    h2 { font-size: 1.15rem; margin: 1.5rem 0 .6rem; } h2 small { color: var(--muted); font-weight: normal; font-size: .85rem; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: .8rem; }
    .card { background: var(--card); border-radius: .8rem; overflow: hidden; box-shadow: 0 1px 3px rgba(0,0,0,.15); display: flex; flex-direction: column; }
    .card a { color: inherit; text-decoration: none; display: flex; flex-direction: column; height: 100%; }
    .photo { aspect-ratio: 4 / 3; background: #8884; display: flex; align-items: center; justify-content: center; color: var(--muted); font-size: .85rem; overflow: hidden; }
    .photo img { width: 100%; height: 100%; object-fit: cover; }
    .info { padding: .6rem .75rem .8rem; }
    .price { color: var(--accent); font-weight: 700; font-size: 1.1rem; }
    .event { display: inline-block; font-size: .8rem; font-weight: 600; padding: .05rem .45rem; border-radius: .6rem; background: var(--accent); color: var(--card); margin-bottom: .2rem; }
    .title { font-weight: 600; margin: .15rem 0; overflow-wrap: anywhere; }
    .meta { color: var(--muted); font-size: .85rem; }
    .desc { font-size: .9rem; margin-top: .35rem; white-space: pre-line; display: -webkit-box; -webkit-line-clamp: 4; -webkit-box-orient: vertical; overflow: hidden; }
    </style>
    """

  /// Found later first; among listings found in the same run, posted later first.
  static func newestFirst(_ a: RecentListing, _ b: RecentListing) -> Bool {
    if a.found != b.found { return a.found > b.found }
    return (a.listing.posted ?? .distantPast) > (b.listing.posted ?? .distantPast)
  }

  private static func card(_ listing: Listing, found: Date, now: Date) -> String {
    // No photo, no box: a card without one is just its text, not a big empty placeholder.
    let photo =
      listing.imageURLs.first.map {
        "<div class=\"photo\"><img src=\"\(escape($0))\" alt=\"photo of "
          + "\(escape(listing.title))\" loading=\"lazy\"></div>\n"
      } ?? ""
    let price =
      Money.format(listing).map { "<div class=\"price\">\(escape($0))</div>" } ?? ""
    let event =
      listing.event.flatMap { event in
        event.kind == .new
          ? nil
          : "<div class=\"event\">\(escape(event.kind.words)): "
            + "\(escape(Change.describe(listing) ?? event.kind.words))</div>"
      } ?? ""
    let meta = [
      listing.location ?? listing.area, Age.describe(from: listing.posted ?? found, to: now),
    ]
    .compactMap { $0 }.map(escape).joined(separator: " · ")
    let description =
      listing.description.isEmpty
      ? "" : "<div class=\"desc\">\(escape(String(listing.description.prefix(400))))</div>"
    return """
      <article class="card"><a href="\(escape(listing.url))" rel="noopener noreferrer">
      \(photo)<div class="info">\(event)\(price)<div class="title">\(escape(listing.title))</div><div class="meta">\(meta)</div>\(description)</div>
      </a></article>

      """
  }

  /// "2026-05-03 12:00 PDT": the reader's clock, with the zone said.
  static func localTime(_ date: Date, _ timeZone: TimeZone) -> String {
    DateFormat.pattern("yyyy-MM-dd HH:mm zzz", zone: timeZone).string(from: date)
  }

  static func escape(_ text: String) -> String { MarkupText.escape(text) }
}
