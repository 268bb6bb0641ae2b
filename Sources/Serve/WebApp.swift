package import ActionKeys
internal import ClarissaCore
package import Foundation
package import ListingStore
internal import Presentation
internal import Synchronization
package import WebServer

/// The web interface and its API over the listing store: the pages, `/api/`, `/healthz` and
/// `/metrics`, with the guards every request passes first (the Host header on a loopback
/// address, the access token, a CSRF token on every POST).
package final class WebApp: Sendable {
  /// How requests are admitted.
  package struct Access: Sendable {
    /// The token every request must carry (a cookie, `Authorization: Bearer`, or once
    /// `?token=`); nil: none asked (loopback only).
    package var token: String?
    /// Host header values accepted (`127.0.0.1:8421`, `localhost:8421`); empty: any (an
    /// address that is not loopback, where the token guards instead).
    package var hosts: Set<String>
    /// The key the notifications' action links are signed with; nil: `/act` answers 404.
    package var actionKey: ActionKey?
    /// `serve.url`, the address a phone reaches the server at (a tunnel, a reverse proxy):
    /// its Host is accepted and its origin is this server's own.
    package let publicAddress: PublicAddress?
    /// The file the `/act` tokens used are kept in (beside the key); nil: in memory only.
    package var usedActionsFile: String?

    /// Creates the rules; `publicURL` is `serve.url` (nil, or not an `http:`/`https:`
    /// address: none).
    package init(
      token: String?, hosts: Set<String>, actionKey: ActionKey? = nil, publicURL: String? = nil,
      usedActionsFile: String? = nil
    ) {
      self.token = token
      self.actionKey = actionKey
      self.usedActionsFile = usedActionsFile
      publicAddress = publicURL.flatMap(PublicAddress.init)
      // A tunnel hands on the Host its client sent (the public name): not a rebinding.
      self.hosts = hosts.isEmpty ? hosts : hosts.union(publicAddress?.hosts ?? [])
    }

    /// Whether a request must carry the token whatever its Host: `serve.url` names a host
    /// that is not loopback, so a tunnel or a proxy on this machine may hand on strangers'
    /// requests with a loopback Host.
    package var tokenAlways: Bool { publicAddress.map { !$0.isLoopback } ?? false }

    /// The Host values a browser sends to a loopback server on `port`.
    package static func loopbackHosts(port: UInt16, bound: String) -> Set<String> {
      var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
      names.insert(bound.contains(":") ? "[\(bound)]" : bound)
      return Set(names.flatMap { port == 80 ? [$0, "\($0):80"] : ["\($0):\(port)"] })
    }
  }

  let store: any BrowsableStore
  let access: Access
  /// Counters for `/metrics`; `watch --http` adds each round.
  package let metrics: Metrics
  /// The token each page's forms carry back (random, per process).
  let csrf: String
  let clock: @Sendable () -> Date
  /// Wrong tokens counted by client address.
  let guesses: GuessThrottle
  /// The `/act` tokens already used.
  let usedActions: UsedActions
  /// Each search's market for the cards' deal context, kept between pages.
  let markets = DealMarketCache()
  /// The config served, and the map areas' answers made for it.
  let state: Mutex<State>
  /// Answers kept at most (the searches asked come from the request).
  static let areaAnswerLimit = 64
  /// Where the map gets Leaflet and its tiles.
  let map: MapSettings
  /// Listings per page.
  static let pageSize = 48
  /// Each listing's travel times for its searches' `commute:` limits.
  let travelTimes: TravelTimes
  /// The bookmarklet's token and what reads captured pages; nil: `/capture` answers 404.
  let captureDesk: CaptureDesk?
  /// The search editor the command handed (``searchEditing``); nil: `/searches` answers 404.
  let editorSlot = Mutex<(any SearchEditing)?>(nil)

  /// What a reload changes.
  struct State {
    var served: ServedConfig
    /// `/api/map/areas`' answers by the searches asked (sorted; every search's: none), made
    /// once per config.
    var areaAnswers: [[String]: (tag: String, json: [UInt8])?] = [:]
  }

  /// An app over `store` showing `config`, its map made with `map`, travel times from
  /// `travelTimes`.
  package init(
    store: any BrowsableStore, config: ServedConfig, access: Access, metrics: Metrics = Metrics(),
    map: MapSettings = MapSettings(), travelTimes: TravelTimes = .none,
    capture: CaptureDesk? = nil, clock: @escaping @Sendable () -> Date = { Date() }
  ) {
    captureDesk = capture
    self.map = map
    self.travelTimes = travelTimes
    self.guesses = GuessThrottle()
    usedActions = UsedActions(file: access.usedActionsFile, now: clock())
    self.store = store
    state = Mutex(State(served: config))
    self.access = access
    self.metrics = metrics
    self.clock = clock
    csrf = Self.randomToken()
  }

  /// The config the pages show (a reload replaces it).
  package var config: ServedConfig {
    get { state.withLock { $0.served } }
    set {
      state.withLock {
        $0.served = newValue
        $0.areaAnswers = [:]
      }
    }
  }

  /// Answers one request.
  package func handle(_ request: WebRequest) -> WebResponse {
    var response: WebResponse
    do {
      response = try guarded(request)
    } catch let problem as RequestProblem {
      response = problem.response(json: Self.wantsJSON(request))
    } catch {
      response = RequestProblem(500, "the store could not be read: \(error)").response(
        json: Self.wantsJSON(request))
    }
    metrics.served(response.status)
    // A page may set its own (the map's Referrer-Policy); the others come from here.
    let own = Set(response.headers.map { $0.name.lowercased() })
    response.headers += Self.securityHeaders.filter { !own.contains($0.name.lowercased()) }
    return response
  }

  private static let securityHeaders: [(name: String, value: String)] = [
    // Scripts and styles only from here; photos (and the map's tiles) from anywhere: they load
    // when online.
    (
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src * data:; "
        + "connect-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'; "
        + "base-uri 'none'; manifest-src 'self'; worker-src 'self'"
    ),
    ("X-Content-Type-Options", "nosniff"),
    // Nothing of these pages is told to the sites; and not `no-referrer`, with which a browser
    // sends `Origin: null` on this server's own forms.
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
  ]

  // MARK: - Guards

  /// What a request carrying a body is answered before its body is read (the server's
  /// screen): the Host refused, the token missing or wrong. Nil: its body is read, and the
  /// request handled. Quick, reads no store: it runs on an event loop.
  package func screen(_ request: WebRequest) -> WebResponse? {
    var response: WebResponse
    do {
      try checkHost(request)
      let path = request.segments
      if let oversized = Self.oversized(request) { throw oversized }
      // The sign-in's token is in its body, and so is a capture's.
      if path == ["healthz"] || path.first == "act" || path == ["login"] || isCapture(request) {
        return nil
      }
      guard let refusal = try tokenRefusal(request, path) else { return nil }
      response = refusal
    } catch let problem as RequestProblem {
      response = problem.response(json: Self.wantsJSON(request))
    } catch {
      return nil
    }
    metrics.served(response.status)
    response.headers += Self.securityHeaders
    return response
  }

  /// DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its own
  /// name as Host. On a loopback address only this server's names are answered.
  private func checkHost(_ request: WebRequest) throws {
    guard !access.hosts.isEmpty else { return }
    let host = request.header("host")?.lowercased() ?? ""
    guard access.hosts.contains(host) else {
      let names = access.hosts.sorted().map { "http://\($0)/" }.joined(separator: ", ")
      let asked = SafeText.line(String(host.prefix(200)))
      throw RequestProblem(421, "this server answers only to \(names), not to Host '\(asked)'")
    }
  }

  private func guarded(_ request: WebRequest) throws -> WebResponse {
    try checkHost(request)
    let path = request.segments
    if path == ["healthz"] { return try health() }
    // A notification's button: its signed token is the authorization.
    if path.first == "act" { return try act(request, path) }
    if let oversized = Self.oversized(request) { throw oversized }
    // The bookmarklet's POST: its capture token is the authorization.
    if isCapture(request) { return try capture(request) }
    if Self.isPublicAppFile(request, path) { return Self.publicAppFile(path) }
    if let refusal = try tokenRefusal(request, path) { return refusal }
    if request.method != "GET" { try checkForgery(request) }
    return try route(request, path)
  }

  /// The answer to a request that lacks the token (see ``checkToken(_:_:_:)``); nil: it carries
  /// it, or none is asked.
  private func tokenRefusal(_ request: WebRequest, _ path: [String]) throws -> WebResponse? {
    if let token = access.token { return checkToken(request, token, path) }
    guard !access.tokenAlways else {
      // Never reached from `serve`, which refuses to start so; a guard all the same.
      throw RequestProblem(
        403, "serve.url names a host that is not this machine: set a token (docs/serve.md)")
    }
    return nil
  }

  /// The sign-in, or the refusal of a request without the token; nil: it carries it. The right
  /// token is always let in; a wrong one counts against the client's address, and from an
  /// address past ``GuessThrottle/allowed`` wrong ones is answered 429 (behind a tunnel every
  /// phone has the tunnel's address: a guesser there must not lock them out).
  private func checkToken(_ request: WebRequest, _ token: String, _ path: [String]) -> WebResponse?
  {
    let isLogin = request.method == "POST" && path == ["login"]
    let offered =
      isLogin
      ? request.form.first("token") ?? ""
      : request.method == "GET" ? request.query.first("token") : nil
    let bearer = request.header("authorization").flatMap(Self.bearer)
    let presented = bearer ?? request.cookie(Self.tokenCookie)
    if let offered {
      if Self.same(offered, token) {
        return signedIn(token, then: isLogin ? "/" : Self.local(Self.withoutToken(request)))
      }
      return wrongToken(request) ?? signIn(wrong: true)
    }
    if let presented, Self.same(presented, token) { return nil }
    if presented != nil, let slowed = wrongToken(request) { return slowed }
    return Self.wantsJSON(request) || path == ["metrics"]
      ? RequestProblem(401, "send the token: Authorization: Bearer TOKEN").response(json: true)
      : signIn(wrong: false)
  }

  /// Counts a wrong token from the request's address: 429 once the address is past its bound.
  private func wrongToken(_ request: WebRequest) -> WebResponse? {
    let wait = guesses.wait(request.client)
    guesses.failed(request.client)
    return wait.map { Self.tooManyGuesses($0, json: Self.wantsJSON(request)) }
  }

  /// A POST from a page of this server (its form's token, same origin) or from a program
  /// holding the access token in `Authorization`.
  private func checkForgery(_ request: WebRequest) throws {
    if let token = access.token, let bearer = request.header("authorization").flatMap(Self.bearer),
      Self.same(bearer, token)
    {
      return
    }
    try refuseOtherSites(request)
    let offered =
      request.header("x-csrf-token") ?? request.form.first("csrf") ?? ""
    guard Self.same(offered, csrf) else {
      throw RequestProblem(
        403,
        "refused: the form's token is missing or stale (the server restarted?); reload the page "
          + "and try again. Programs: send X-CSRF-Token from GET /api/session")
    }
  }

  /// Refuses (403) a request the browser marks as sent by another site's page
  /// (`Sec-Fetch-Site` other than `same-origin` and `none`), or whose `Origin` is not this
  /// server's: `serve.url`'s, or the `Host`'s.
  func refuseOtherSites(_ request: WebRequest) throws {
    if let site = request.header("sec-fetch-site")?.lowercased(), site != "same-origin",
      site != "none"
    {
      throw RequestProblem(
        403, "refused: a request from another site (\(SafeText.line(String(site.prefix(40)))))")
    }
    guard let origin = request.header("origin") else { return }
    let asked = origin.lowercased()
    if let own = access.publicAddress?.origin, asked == own { return }
    if let host = request.header("host")?.lowercased(),
      asked == "http://\(host)" || asked == "https://\(host)"
    {
      return
    }
    throw RequestProblem(
      403,
      "refused: a request from another origin (\(SafeText.line(String(origin.prefix(200))))); "
        + "a button of a notification works from the app, or its link opened in a browser")
  }

  // MARK: - Routes

  private func route(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    if request.method == "GET", let file = Self.appFile(path) { return file }
    switch (request.method, path) {
    case ("GET", []): return try searchesPage()
    case ("GET", ["listings"]): return try listingsPage(request)
    case ("GET", ["map"]): return try mapPage(request)
    case ("GET", let path) where path.count == 3 && path[0] == "listing":
      return try listingPage(ListingKey(site: path[1], id: path[2]))
    case ("POST", let path) where path.count == 3 && path[0] == "open":
      return try open(ListingKey(site: path[1], id: path[2]))
    case ("POST", ["viewed"]): return try markViewed(form: request)
    case ("POST", ["mark"]): return try setMark(form: request)
    case ("GET", ["starred"]): return try markedPage(request, .starred)
    case ("GET", ["hidden"]): return try markedPage(request, .hidden)
    case ("GET", ["capture"]): return try bookmarkletPage(request)
    case ("GET", ["capture", "share"]): return try sharedPage(request)
    case ("POST", ["capture", "token"]): return try replaceCaptureToken()
    case ("GET", ["metrics"]): return try metricsText()
    case ("GET", ["assets", "style.css"]): return Self.asset(Assets.style, type: "text/css")
    case ("GET", ["assets", "app.js"]): return Self.asset(Assets.script, type: "text/javascript")
    case ("GET", ["assets", "map.js"]):
      return Self.asset(Assets.mapScript, type: "text/javascript")
    case ("GET", let path) where path.count >= 3 && path[0] == "assets" && path[1] == "leaflet":
      return LeafletFiles.response(
        path.dropFirst(2).joined(separator: "/"), folder: map.leafletFolder)
    case (_, let path) where path.first == "api": return try api(request, Array(path.dropFirst()))
    case (_, let path) where path.first == "searches":
      return try editor(request, Array(path.dropFirst()))
    case (let method, let path) where method != "GET" && method != "POST" || knownPath(path):
      throw RequestProblem(405, "\(method) is not allowed here")
    default:
      throw RequestProblem(404, "nothing at \(request.path)")
    }
  }

  private func knownPath(_ path: [String]) -> Bool {
    path.isEmpty
      || ["listings", "map", "viewed", "metrics", "mark", "starred", "hidden", "capture"].contains(
        path.first ?? "")
      || (["listing", "open"].contains(path.first ?? "") && path.count == 3)
  }

  /// Opens a listing on its site, marking it viewed first.
  private func open(_ key: ListingKey) throws -> WebResponse {
    guard let history = try store.history(key) else {
      throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store")
    }
    try store.markViewed([key], at: clock())
    guard let url = Self.webURL(history.listing.url) else {
      // Never a redirect to `javascript:` or anything but a web page.
      return .redirect("/listing/\(Self.segment(key.site))/\(Self.segment(key.id))")
    }
    return .redirect(url)
  }

  /// "Mark viewed" and "mark all viewed": keys given, or everything a filter finds.
  private func markViewed(form request: WebRequest) throws -> WebResponse {
    let form = request.form
    let keys = form.all("key").compactMap(Self.key)
    if !keys.isEmpty {
      try store.markViewed(keys, at: clock())
    } else if form.first("all") != nil {
      try store.markViewed(matching: try Self.query(form), at: clock())
    }
    return .redirect(Self.local(form.first("return") ?? "/"))
  }

  // MARK: - Sign-in

  static let tokenCookie = "clarissa_token"

  private func signedIn(_ token: String, then location: String) -> WebResponse {
    var response = WebResponse.redirect(location)
    response.headers.append(
      ("Set-Cookie", "\(Self.tokenCookie)=\(token); Path=/; HttpOnly; SameSite=Strict"))
    return response
  }

  private func signIn(wrong: Bool) -> WebResponse {
    var response = Pages.signIn(wrong: wrong)
    response.status = 401
    return response
  }
}
