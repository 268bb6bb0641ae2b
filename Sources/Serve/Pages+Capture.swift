internal import ClarissaCore
internal import ListingStore
internal import WebServer

/// The capture's pages: the bookmarklet, a capture's answer, the share target's.
extension Pages {
  /// `GET /capture`: the bookmarklet to drag to the bookmarks bar (or copy into a bookmark's
  /// address on a phone), and the button that replaces its token.
  static func bookmarklet(_ script: String, csrf: String) -> WebResponse {
    layout(
      "Capture", csrf: csrf,
      """
      <h1>Capture from your browser</h1>
      <p>On a walled site (one that answers clarissa "blocked"), open the search in your own \
      browser and press this bookmarklet: it sends the page you are looking at, its address and \
      its HTML, to this server, which reads it with the site's definition for every search of \
      yours that has that page (its <code>url:</code>), and announces what is new as a run \
      would. On a listing's page it stars the listing.</p>
      <p><a id="bookmarklet" class="bookmarklet" href="\(script)">Send to clarissa</a></p>
      <h2>Install it</h2>
      <ul>
      <li>Desktop: drag the link above to the bookmarks bar.</li>
      <li>Phone: bookmark any page, edit the bookmark, and paste this as its address; then \
      type its name in the address bar on the site's page and choose the bookmark.</li>
      </ul>
      <textarea id="bookmarklet-code" readonly rows="6" cols="60">\(script)</textarea>
      <p class="note">The link carries a capture token of its own: it can send pages to this \
      server and do nothing else. Keep it to yourself all the same. A site whose \
      Content-Security-Policy restricts <code>form-action</code> stops the bookmarklet's form \
      (nothing happens); the site's page is then read only by runs.</p>
      <form method="post" action="/capture/token">
      <input type="hidden" name="csrf" value="\(csrf)">
      <button id="capture-replace">Replace the token</button> \
      (every bookmarklet made before stops working)</form>
      """)
  }

  /// The answer to a capture of a listing's page: starred.
  static func capturedListing(_ key: ListingKey, title: String) -> WebResponse {
    layout(
      "Starred", csrf: nil,
      """
      <h1 id="capture-starred">Starred: \(title)</h1>
      <p><a id="capture-listing" href="\(listingPath(key))">The listing</a></p>
      """)
  }

  /// The answer to a capture of any other page: what it is, and for a search's page what the
  /// run made of it.
  static func captured(_ report: CaptureReport, url: String, config: String) -> WebResponse {
    var body: HTML = "<h1 id=\"capture-title\">\(headline(report.page))</h1>\n"
    body += "<p class=\"note\">\(SafeText.line(String(url.prefix(300))))</p>\n"
    body += explanation(report.page, url: url, config: config, shared: false)
    if let problem = report.problem {
      body += "<p id=\"capture-problem\" class=\"problems\">\(SafeText.line(problem))</p>\n"
    }
    if !report.searches.isEmpty {
      let rows: [HTML] = report.searches.map { counts in
        let failures: [HTML] = counts.failures.map { "<li>\(SafeText.line($0))</li>" }
        return """
          <tr data-search="\(counts.search)"><td><a href="/listings?search=\(WebApp.queryValue(counts.search))">\
          \(counts.search)</a></td><td class="read">\(counts.read)</td>\
          <td class="new">\(counts.new)</td><td class="known">\(counts.known)</td>\
          <td class="primed">\(counts.primed)</td><td class="filtered">\(counts.filtered)</td>\
          <td class="announced">\(counts.announced)</td>\
          <td>\(failures.isEmpty ? HTML.empty : "<ul>\(failures)</ul>")</td></tr>
          """
      }
      body += """
        <table id="capture-counts"><thead><tr><th>Search</th><th>Read</th><th>New</th>\
        <th>Known</th><th>First reading</th><th>Filtered out</th><th>Announced</th>\
        <th>Problems</th></tr></thead><tbody>\(rows)</tbody></table>
        <p class="note">"First reading": a search's first answer is recorded without \
        announcements, as a run primes a new search; the next capture announces what is new.</p>
        """
    }
    return layout("Captured", csrf: nil, body)
  }

  /// The share target's answer for a listing the store has: a form that stars it.
  static func shareListing(_ key: ListingKey, title: String, csrf: String) -> WebResponse {
    layout(
      "Star?", csrf: csrf,
      """
      <h1>\(title)</h1>
      <form method="post" action="/mark" id="share-star">
      <input type="hidden" name="csrf" value="\(csrf)">
      <input type="hidden" name="key" value="\(key.site):\(key.id)">
      <input type="hidden" name="mark" value="star">
      <input type="hidden" name="return" value="\(listingPath(key))">
      <button>Star</button></form>
      <p><a href="\(listingPath(key))">The listing</a></p>
      """)
  }

  /// The share target's answer for anything else: what the address is, and what to do with it.
  static func shared(_ page: CapturedPage?, url: String?, csrf: String, config: String)
    -> WebResponse
  {
    guard let page, let url else {
      return layout(
        "Shared", csrf: csrf,
        """
        <h1 id="share-title">Nothing to take</h1>
        <p>The share carried no web address.</p>
        """)
    }
    return layout(
      "Shared", csrf: csrf,
      """
      <h1 id="share-title">\(headline(page))</h1>
      <p class="note">\(SafeText.line(String(url.prefix(300))))</p>
      \(explanation(page, url: url, config: config, shared: true))
      """)
  }

  private static func headline(_ page: CapturedPage) -> String {
    switch page {
    case .search(let site, let searches, _):
      "\(site) search page of \(searches.map { "'\($0)'" }.joined(separator: ", "))"
    case .newSearch(let site): "A \(site) search page no search has"
    case .refused(let site, _): "A page of \(site) that is no search page"
    case .unknown: "Not a page clarissa knows"
    }
  }

  private static func explanation(_ page: CapturedPage, url: String, config: String, shared: Bool)
    -> HTML
  {
    switch page {
    case .search(let site, _, let readsPage):
      if !readsPage {
        return """
          <p id="capture-api">\(site) is read through its API, not from its pages: a page \
          from the browser cannot be read for it. Runs read the search as usual.</p>
          """
      }
      guard shared else { return .empty }
      return """
        <p id="share-search">A share gives the address only, not the page: nothing was read. \
        To have this page read now, open it in the browser and press the bookmarklet \
        (<a href="/capture">Capture</a>); or leave it to the next run, which reads the search \
        if the site lets clarissa in.</p>
        """
    case .newSearch:
      return """
        <p id="capture-add">None of the searches in \(config) has this page, so nothing was \
        read. To have clarissa watch it, add a search with its address, then capture it again:</p>
        <pre>  - name: my-search
            url: \(SafeText.line(String(url.prefix(2000))))</pre>
        """
    case .refused(_, let reason):
      return "<p id=\"capture-refused\">\(SafeText.line(reason)).</p>"
    case .unknown:
      return """
        <p id="capture-unknown">It is not a listing clarissa has, nor a search page of a site it \
        reads (clarissa sites lists them; a site of your own is a definition in sites/, \
        docs/adding-a-site.md).</p>
        """
    }
  }
}
