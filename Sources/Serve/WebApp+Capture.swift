internal import ActionKeys
internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// Capture from the person's browser: the bookmarklet's page (`GET /capture`), its POST
/// (`POST /capture`, the page being looked at: its URL and HTML) and the app's share target
/// (`GET /capture/share`, a URL only).
///
/// `POST /capture` comes from another site's page by design (the bookmarklet's form is
/// submitted by the page it runs in), so it cannot be refused for being cross-site as the
/// other POSTs are. Its capture token is the authority, as `/act`'s signed token is: no
/// cookie, access token or form token is asked or used, a wrong token is slowed as a forged
/// `/act` link is, and what it reaches is this one action: a listing page the store knows is
/// starred, a search page is read into the searches that have it. The answer carries no CORS
/// header: the page that sent it cannot read it.
extension WebApp {
  /// A capture's body at most: a search page's HTML as a form. Percent-encoding makes a page
  /// larger: Kleinanzeigen's page of Fixtures/ (251,491 bytes) is 327,305 as a form sends it.
  package static let captureBodyLimit = 5 * 1024 * 1024
  /// Every other request's body at most (the server's own bound before captures).
  package static let otherBodyLimit = 256 * 1024

  /// Whether `request` is the bookmarklet's POST.
  func isCapture(_ request: WebRequest) -> Bool {
    request.method == "POST" && request.segments == ["capture"]
  }

  /// 413 for a body past its path's bound (from `Content-Length` before the body is read, or
  /// from the body read); nil when it fits.
  static func oversized(_ request: WebRequest) -> RequestProblem? {
    let limit =
      request.method == "POST" && request.segments == ["capture"]
      ? captureBodyLimit : otherBodyLimit
    let declared = request.header("content-length").flatMap { Int($0) } ?? 0
    guard declared > limit || request.body.count > limit else { return nil }
    return RequestProblem(413, "the request's body is larger than \(limit / 1024) KiB")
  }

  /// `POST /capture`: `token`, `url`, `html` as a form.
  func capture(_ request: WebRequest) throws -> WebResponse {
    guard let desk = captureDesk else {
      throw RequestProblem(404, "this server takes no captures")
    }
    let form = request.form
    guard let expected = try desk.current() else {
      throw RequestProblem(
        403, "no capture token has been made: open /capture on this server for the bookmarklet")
    }
    guard Self.same(form.first("token") ?? "", expected.text) else {
      if let wait = guesses.wait(request.client) {
        guesses.failed(request.client)
        return Self.tooManyGuesses(wait, json: false)
      }
      guesses.failed(request.client)
      throw RequestProblem(
        403,
        "refused: the capture token is missing or wrong (replaced since?); take the bookmarklet "
          + "again from /capture")
    }
    guard let url = Self.pageURL(form.first("url") ?? "") else {
      throw RequestProblem(400, "url: send the page's address (http: or https:)")
    }
    if let key = try storedListing(at: url) {
      _ = try mark(.star, on: key)
      let title = try store.history(key)?.listing.title ?? key.id
      return Pages.capturedListing(key, title: title)
    }
    guard let handler = desk.handler else {
      return Pages.captured(CaptureReport(page: .unknown), url: url, config: config.path)
    }
    let report = handler.capture(url: url, html: Array((form.first("html") ?? "").utf8))
    return Pages.captured(report, url: url, config: config.path)
  }

  /// `GET /capture`: the bookmarklet, made with the token (made on first need) and this
  /// server's address as the browser reaches it (`serve.url`, else the request's Host).
  func bookmarkletPage(_ request: WebRequest) throws -> WebResponse {
    guard let desk = captureDesk else {
      throw RequestProblem(404, "this server takes no captures")
    }
    let base =
      access.publicAddress?.origin
      ?? "http://" + SafeText.line(String((request.header("host") ?? "127.0.0.1").prefix(200)))
    let token = try desk.issued()
    return Pages.bookmarklet(Self.bookmarklet(base: base, token: token.text), csrf: csrf)
  }

  /// `POST /capture/token`: a new token; the bookmarklets made so far stop working.
  func replaceCaptureToken() throws -> WebResponse {
    guard let desk = captureDesk else {
      throw RequestProblem(404, "this server takes no captures")
    }
    _ = try desk.replaced()
    return .redirect("/capture?replaced=1")
  }

  /// `GET /capture/share?title=&text=&url=`: the share target. A share carries an address, not
  /// the page: a listing the store has is offered to star (a form that POSTs, never a GET
  /// that changes it), and a search page is answered with what can be done instead.
  func sharedPage(_ request: WebRequest) throws -> WebResponse {
    let query = request.query
    let given = [query.first("url"), query.first("text"), query.first("title")].compactMap { $0 }
    guard let url = given.lazy.compactMap(Self.firstWebAddress).first else {
      return Pages.shared(nil, url: nil, csrf: csrf, config: config.path)
    }
    if let key = try storedListing(at: url) {
      let title = try store.history(key)?.listing.title ?? key.id
      return Pages.shareListing(key, title: title, csrf: csrf)
    }
    let page = captureDesk?.handler?.recognise(url) ?? .unknown
    return Pages.shared(page, url: url, csrf: csrf, config: config.path)
  }

  /// The listing the store has at `url`: the ids its path could hold (its segments, without an
  /// extension, and their runs of digits), each looked up by key, kept when the listing's own
  /// address is `url` (scheme, `www.`, query and fragment aside).
  func storedListing(at url: String) throws -> ListingKey? {
    guard let parts = URLComponents(string: url), let path = parts.percentEncodedPath.nilIfEmpty
    else { return nil }
    var candidates: [String] = []
    for segment in path.split(separator: "/").reversed() {
      let name = String(segment)
      let bare = name.split(separator: ".").first.map(String.init) ?? name
      let digits = bare.split(whereSeparator: { !$0.isNumber }).map(String.init).filter {
        $0.count >= 4
      }
      for candidate in [name, bare] + digits where !candidates.contains(candidate) {
        candidates.append(candidate)
      }
    }
    let wanted = Self.listingAddress(url)
    for id in candidates.prefix(12) where id.count <= 200 {
      for key in try store.keys(matching: id).prefix(8) {
        if let listing = try store.history(key)?.listing, Self.listingAddress(listing.url) == wanted
        {
          return key
        }
      }
    }
    return nil
  }

  /// An address as listings are compared by: host without `www.`, path without a last `/`.
  static func listingAddress(_ url: String) -> String? {
    guard let parts = URLComponents(string: url), var host = parts.host?.lowercased() else {
      return nil
    }
    if host.hasPrefix("www.") { host.removeFirst(4) }
    var path = parts.percentEncodedPath
    if path.hasSuffix("/") { path.removeLast() }
    return host + path
  }

  /// `text` when it is an `http:`/`https:` address of at most 4 KiB.
  static func pageURL(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.utf8.count <= 4096, let url = webURL(trimmed) else { return nil }
    return url
  }

  /// The first `http:`/`https:` address in `text` (a share's text often holds the link after
  /// words).
  static func firstWebAddress(_ text: String) -> String? {
    text.split(whereSeparator: { $0.isWhitespace }).lazy.compactMap { word in
      pageURL(String(word))
    }.first
  }

  /// The bookmarklet: a `javascript:` URL that puts the page's address and HTML in a form and
  /// POSTs it to `base`/capture in a new window. A form in a new window, not `fetch`: a
  /// navigation is no CORS request (a `fetch` from the site's page to this server would be, and
  /// with `mode: 'no-cors'` it could not send a form this big as a simple request, nor show
  /// the answer), and Chromium's Private Network Access checks guard a public page's
  /// requests to loopback and private addresses, not its windows' navigations.
  static func bookmarklet(base: String, token: String) -> String {
    let target = jsString(base + "/capture")
    return
      "javascript:(function(){var f=document.createElement('form');f.method='post';"
      + "f.action=\(target);f.target='_blank';f.acceptCharset='utf-8';"
      + "function a(n,v){var i=document.createElement('textarea');i.name=n;i.value=v;"
      + "f.appendChild(i);}a('token',\(jsString(token)));a('url',location.href);"
      + "a('html',document.documentElement.outerHTML);f.style.display='none';"
      + "document.body.appendChild(f);f.submit();f.remove();})()"
  }

  /// `text` as a JavaScript string literal in single quotes: only letters, digits and
  /// `:/.-_` kept as they are, everything else `\uXXXX`.
  static func jsString(_ text: String) -> String {
    var out = "'"
    for unit in text.utf16 {
      let scalar = Unicode.Scalar(unit)
      if let scalar, scalar.isASCII,
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || ":/.-_".unicodeScalars
            .contains(scalar)
      {
        out.unicodeScalars.append(scalar)
      } else {
        out += String(format: "\\u%04x", unit)
      }
    }
    return out + "'"
  }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
