import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Serve
import Synchronization
import Testing
import WebServer

/// Hostile listings, forged requests, strangers: what `clarissa serve` must never let through.
@Suite struct ServeSafetyTests {
  /// Titles, descriptions, places, links and photos written by an attacker.
  static let hostile: [Listing] = [
    ServeFixture.listing(
      "1001", title: "<script>alert('title')</script>Desk",
      url: "javascript:alert('url')",
      description: "\"><img src=x onerror=alert('description')>",
      images: ["javascript:alert('photo')"], location: "' onmouseover='alert(1)"),
    ServeFixture.listing(
      "1002", title: "Chair\" autofocus onfocus=\"alert(2)",
      url: "https://example.test/\"><script>alert(3)</script>",
      description: "<a href=\"javascript:alert(4)\">click</a>",
      images: ["https://img.example.test/a.jpg\" onerror=\"alert(5)"]),
  ]

  @Test func everyTextFromASiteIsEscapedOnEveryPage() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.hostile])
    let pages = [
      "/", "/listings", "/listings?search=desks", "/listing/craigslist/1001",
      "/listing/craigslist/1002", "/listings?q=%3Cscript%3E",
    ]
    for page in pages {
      let response = fixture.get(page)
      #expect(response.status == 200, "\(page)")
      let html = fixture.text(response)
      for forbidden in [
        "<script>alert", "<img src=x", "onerror=\"alert", "onfocus=\"alert",
        "href=\"javascript:", "src=\"javascript:", "' onmouseover='", "<a href=\"javascript",
      ] {
        #expect(!html.contains(forbidden), "\(page) holds \(forbidden)")
      }
      // The only scripts are the program's own: app.js, and the app's push.js and panes.js.
      let scripts = html.components(separatedBy: "<script").dropFirst()
      #expect(scripts.count == 3, "\(page)")
      #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/assets/") }, "\(page)")
      #expect(
        fixture.header(response, "Content-Security-Policy")?.contains("script-src 'self'") == true)
    }
    let listing = fixture.text(fixture.get("/listing/craigslist/1001"))
    #expect(listing.contains("&lt;script&gt;alert(&apos;title&apos;)&lt;/script&gt;Desk"))
    #expect(listing.contains("&quot;&gt;&lt;img src=x onerror=alert(&apos;description&apos;)&gt;"))
  }

  @Test func openingAListingNeverLeadsToAScript() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.hostile])
    let csrf = fixture.csrf()
    let response = fixture.post("/open/craigslist/1001", form: "csrf=\(csrf)")
    #expect(response.status == 303)
    #expect(fixture.header(response, "Location") == "/listing/craigslist/1001")
    // It was opened all the same: it is viewed.
    #expect(try fixture.store.history(ListingKey(site: "craigslist", id: "1001"))?.viewedAt != nil)
  }

  @Test func aPostWithoutThePagesTokenChangesNothing() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.hostile])
    let key = ListingKey(site: "craigslist", id: "1002")
    let csrf = fixture.csrf()
    let forged: [(String, [(name: String, value: String)])] = [
      ("all=1&search=desks", []),
      ("all=1&search=desks&csrf=0000", []),
      ("all=1&search=desks&csrf=\(csrf)", [("sec-fetch-site", "cross-site")]),
      (
        "all=1&search=desks&csrf=\(csrf)",
        [("origin", "http://evil.test"), ("host", "127.0.0.1:8421")]
      ),
    ]
    for (form, headers) in forged {
      let response = fixture.post("/viewed", form: form, headers: headers)
      #expect(response.status == 403, "\(form) \(headers)")
      #expect(try fixture.store.history(key)?.viewedAt == nil)
    }
    #expect(fixture.post("/open/craigslist/1002", form: "").status == 403)
    #expect(
      fixture.app.handle(
        WebRequest(
          method: "POST", target: "/api/viewed",
          body: Array("{\"keys\":[\"craigslist:1002\"]}".utf8))
      ).status == 403)
    #expect(try fixture.store.history(key)?.viewedAt == nil)
    // With the token, from the page itself: done, and back to a page of this server only.
    let done = fixture.post(
      "/viewed", form: "all=1&search=desks&csrf=\(csrf)&return=%2F%2Fevil.test%2F",
      headers: [
        ("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8421"),
        ("host", "127.0.0.1:8421"),
      ])
    #expect(done.status == 303)
    #expect(fixture.header(done, "Location") == "/")
    #expect(try fixture.store.history(key)?.viewedAt != nil)
  }

  @Test func aTokenIsAskedOfEveryRequestButHealth() throws {
    let token = "s3cret-token-0123456789"
    let fixture = try ServeFixture(token: token, listings: ["desks": Self.hostile])
    #expect(fixture.get("/").status == 401)
    #expect(fixture.text(fixture.get("/")).contains("action=\"/login\""))
    #expect(fixture.get("/api/listings").status == 401)
    #expect(fixture.get("/metrics").status == 401)
    #expect(fixture.get("/?token=wrong-token-0123456789").status == 401)
    #expect(fixture.get("/healthz").status == 200)
    let signIn = fixture.get("/listings?search=desks&token=\(token)")
    #expect(signIn.status == 303)
    #expect(fixture.header(signIn, "Location") == "/listings?search=desks")
    let cookie = try #require(fixture.header(signIn, "Set-Cookie"))
    #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
    let value = String(cookie.split(separator: ";")[0])
    #expect(fixture.get("/", headers: [("cookie", value)]).status == 200)
    #expect(fixture.get("/metrics", headers: [("authorization", "Bearer \(token)")]).status == 200)
    // A program with the token needs no page token to change something.
    let marked = fixture.app.handle(
      WebRequest(
        method: "POST", target: "/api/viewed",
        headers: [("authorization", "Bearer \(token)")],
        body: Array("{\"keys\":[\"craigslist:1001\"]}".utf8)))
    #expect(marked.status == 200)
    #expect(fixture.text(marked).contains("\"marked\" : 1"))
    let login = fixture.post("/login", form: "token=\(token)")
    #expect(login.status == 303)
  }

  @Test func onLoopbackOnlyRequestsNamingThisServerAreAnswered() throws {
    let fixture = try ServeFixture(listings: ["desks": Self.hostile])
    let box = AppHolder()
    let server = try HTTPServer(address: "127.0.0.1:0") { box.app!.handle($0) }
    defer { server.stop() }
    #expect(server.isLoopback)
    box.app = WebApp(
      store: fixture.store, config: fixture.app.config,
      access: WebApp.Access(
        token: nil, hosts: WebApp.Access.loopbackHosts(port: server.port, bound: server.host)))
    server.start()
    let port = server.port
    let rebound = try RawHTTP.exchange(
      port: port, "GET / HTTP/1.1\r\nHost: attacker.example:\(port)\r\nConnection: close\r\n\r\n")
    #expect(rebound.hasPrefix("HTTP/1.1 421"))
    for host in ["127.0.0.1:\(port)", "localhost:\(port)"] {
      let answer = try RawHTTP.exchange(
        port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
      #expect(answer.hasPrefix("HTTP/1.1 200"), "\(host)")
    }
  }
}

/// The findings of the attacker review: open redirects, a query too large, token guessing.
@Suite struct ServeReviewTests {
  static let token = "s3cret-token-0123456789"

  @Test func aReturnValueLeadsOnlyToAPathOfThisServer() throws {
    let fixture = try ServeFixture(listings: ["desks": ServeSafetyTests.hostile])
    let csrf = fixture.csrf()
    let headers: [(name: String, value: String)] = [
      ("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8421"),
      ("host", "127.0.0.1:8421"),
    ]
    let hostile = [
      "/%0A/evil.example", "%2F%0A%2Fevil.example", "/%0D/evil.example", "/%09/evil.example",
      "%2F%2Fevil.example", "/%5Cevil.example", "/%255Cevil.example", "/%250A/evil.example",
      "https://evil.example/", "evil.example", "/%00/evil.example", "/a%5Cb",
    ]
    for value in hostile {
      let done = fixture.post(
        "/viewed", form: "key=craigslist:1001&csrf=\(csrf)&return=\(value)", headers: headers)
      #expect(done.status == 303, "\(value)")
      #expect(fixture.header(done, "Location") == "/", "\(value)")
    }
    let fine = fixture.post(
      "/viewed", form: "key=craigslist:1001&csrf=\(csrf)&return=%2Flistings%3Fsearch%3Ddesks",
      headers: headers)
    #expect(fixture.header(fine, "Location") == "/listings?search=desks")
  }

  @Test func signingInByTheAddressNeverLeadsToAnotherServer() throws {
    let fixture = try ServeFixture(token: Self.token, listings: ["desks": ServeSafetyTests.hostile])
    for target in ["//evil.example/", "/%0A/evil.example", "/\\evil.example/", "//evil.example"] {
      let signIn = fixture.get("\(target)?token=\(Self.token)")
      #expect(signIn.status == 303, "\(target)")
      #expect(fixture.header(signIn, "Location") == "/", "\(target)")
    }
    let fine = fixture.get("/listings?search=desks&token=\(Self.token)")
    #expect(fixture.header(fine, "Location") == "/listings?search=desks")
  }

  @Test func tooManySearchWordsAreAnswered400NotAFailure() throws {
    let fixture = try ServeFixture(listings: ["desks": ServeSafetyTests.hostile])
    let words = (0..<994).map { "w\($0)" }.joined(separator: "+")
    for target in ["/listings?q=\(words)", "/api/listings?q=\(words)"] {
      let response = fixture.get(target)
      #expect(response.status == 400, "\(target.prefix(20))")
      #expect(fixture.text(response).contains("at most 32 words"))
    }
    let long = fixture.get("/api/listings?q=\(String(repeating: "a", count: 101))")
    #expect(long.status == 400)
    #expect(
      fixture.get("/api/listings?q=\((0..<32).map { "w\($0)" }.joined(separator: "+"))").status
        == 200)
  }

  @Test func wrongTokensFromOneAddressAreSlowed() throws {
    let fixture = try ServeFixture(token: Self.token, listings: ["desks": ServeSafetyTests.hostile])
    func ask(_ token: String, from client: String) -> WebResponse {
      fixture.app.handle(
        WebRequest(
          method: "GET", target: "/api/searches", headers: [("authorization", "Bearer \(token)")],
          client: client))
    }
    for attempt in 0..<5 {
      #expect(ask("wrong-token-0123456789\(attempt)", from: "192.0.2.7").status == 401)
    }
    let slowed = ask("wrong-token-01234567895", from: "192.0.2.7")
    #expect(slowed.status == 429)
    let wait = try #require(fixture.header(slowed, "Retry-After").flatMap { Int($0) })
    #expect(wait > 0 && wait <= 60)
    // The right token is let in all the same: behind a tunnel every phone has the tunnel's
    // address, and 5 forged tokens a minute must not lock them out.
    #expect(ask(Self.token, from: "192.0.2.7").status == 200)
    #expect(
      fixture.app.handle(
        WebRequest(method: "GET", target: "/?token=\(Self.token)", client: "192.0.2.7")
      )
      .status == 303)
    #expect(
      fixture.app.handle(
        WebRequest(method: "GET", target: "/?token=wrong-token-0123456789", client: "192.0.2.7")
      )
      .status == 429)
    // Another address is not slowed; an IPv6 address counts by its /64.
    #expect(ask("wrong-token-01234567899", from: "192.0.2.8").status == 401)
    for attempt in 0..<5 {
      #expect(
        ask("wrong-token-0123456789\(attempt)", from: "2001:db8:1:2::\(attempt)").status == 401)
    }
    #expect(ask("wrong-token-01234567899", from: "2001:db8:1:2:ffff::1").status == 429)
    #expect(ask(Self.token, from: "2001:db8:1:2:ffff::1").status == 200)
    #expect(ask("wrong-token-01234567899", from: "2001:db8:1:3::1").status == 401)
    // Health needs no token and is never slowed.
    #expect(
      fixture.app.handle(WebRequest(method: "GET", target: "/healthz", client: "192.0.2.7")).status
        == 200)
  }
}

/// Behind a tunnel (cloudflared, tailscale serve, a reverse proxy on this machine) to a loopback
/// `serve`: serve.url's Host is answered, and a token is asked whatever the Host says.
@Suite struct ServeTunnelTests {
  static let token = "s3cret-token-0123456789"

  static func fixture(token: String? = token) throws -> ServeFixture {
    try ServeFixture(
      token: token, hosts: WebApp.Access.loopbackHosts(port: 8421, bound: "127.0.0.1"),
      publicURL: "https://flats.example.net", listings: ["desks": ServeSafetyTests.hostile])
  }

  @Test func serveURLsHostIsAnsweredAndATokenAskedWhateverTheHost() throws {
    let fixture = try Self.fixture()
    let cookie = ("cookie", "clarissa_token=\(Self.token)")
    for host in ["flats.example.net", "flats.example.net:443", "127.0.0.1:8421"] {
      #expect(fixture.get("/", headers: [("host", host)]).status == 401, "\(host)")
      #expect(fixture.get("/api/listings", headers: [("host", host)]).status == 401, "\(host)")
      #expect(fixture.get("/", headers: [("host", host), cookie]).status == 200, "\(host)")
    }
    #expect(fixture.get("/", headers: [("host", "evil.example"), cookie]).status == 421)
    #expect(fixture.get("/healthz", headers: [("host", "flats.example.net")]).status == 200)
    // The page's forms come back from serve.url's origin with the Host the tunnel hands on.
    let session = fixture.text(
      fixture.get("/api/session", headers: [("host", "flats.example.net"), cookie]))
    let csrf = try #require(
      try JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: String])["csrf"]
    let done = fixture.post(
      "/viewed", form: "key=craigslist:1001&csrf=\(csrf ?? "")",
      headers: [
        ("host", "127.0.0.1:8421"), ("origin", "https://flats.example.net"),
        ("sec-fetch-site", "same-origin"), cookie,
      ])
    #expect(done.status == 303)
    #expect(try fixture.store.history(ListingKey(site: "craigslist", id: "1001"))?.viewedAt != nil)
  }

  /// Without a token, a public serve.url leaves nothing open (serve refuses to start so; the
  /// app refuses all the same).
  @Test func aPublicServeURLWithoutATokenOpensNothing() throws {
    let fixture = try Self.fixture(token: nil)
    #expect(fixture.get("/", headers: [("host", "127.0.0.1:8421")]).status == 403)
    #expect(fixture.get("/api/listings", headers: [("host", "127.0.0.1:8421")]).status == 403)
    #expect(
      WebApp.Access(token: nil, hosts: [], publicURL: "https://flats.example.net").tokenAlways)
    #expect(!WebApp.Access(token: nil, hosts: [], publicURL: "http://127.0.0.1:8421").tokenAlways)
    #expect(!WebApp.Access(token: nil, hosts: [], publicURL: "http://[::1]:8421/").tokenAlways)
    #expect(!WebApp.Access(token: nil, hosts: []).tokenAlways)
    // A loopback serve.url leaves a loopback server as it was.
    let local = try ServeFixture(
      hosts: WebApp.Access.loopbackHosts(port: 8421, bound: "127.0.0.1"),
      publicURL: "http://127.0.0.1:8421", listings: ["desks": ServeSafetyTests.hostile])
    #expect(local.get("/", headers: [("host", "127.0.0.1:8421")]).status == 200)
  }

  @Test func publicAddressesAreReadAsABrowserWritesThem() throws {
    let cases: [(String, String?, Set<String>)] = [
      (
        "https://Flats.Example.net/", "https://flats.example.net",
        ["flats.example.net", "flats.example.net:443"]
      ),
      ("http://192.168.1.5:8421", "http://192.168.1.5:8421", ["192.168.1.5:8421"]),
      ("http://[::1]:8421", "http://[::1]:8421", ["[::1]:8421"]),
      ("https://x.example:443/sub", "https://x.example", ["x.example", "x.example:443"]),
      ("ftp://x.example", nil, []),
      ("not a url", nil, []),
    ]
    for (url, origin, hosts) in cases {
      let address = PublicAddress(url)
      #expect(address?.origin == origin, "\(url)")
      #expect((address?.hosts ?? []) == hosts, "\(url)")
    }
  }

  /// A request with a body is screened on its head: without the token its body is not read.
  @Test func aBodyIsNotReadWithoutTheToken() throws {
    let fixture = try Self.fixture()
    let refused = try #require(
      fixture.app.screen(
        WebRequest(
          method: "POST", target: "/api/viewed",
          headers: [("host", "127.0.0.1:8421"), ("content-length", "262144")])))
    #expect(refused.status == 401)
    let rebound = fixture.app.screen(
      WebRequest(method: "POST", target: "/viewed", headers: [("host", "evil.example")]))
    #expect(rebound?.status == 421)
    #expect(
      fixture.app.screen(
        WebRequest(
          method: "POST", target: "/viewed",
          headers: [("host", "flats.example.net"), ("cookie", "clarissa_token=\(Self.token)")]))
        == nil)
    #expect(
      fixture.app.screen(
        WebRequest(method: "POST", target: "/act/x", headers: [("host", "flats.example.net")]))
        == nil)
  }
}

/// The app's screen on the real server: a body is asked for (`100 Continue`) only with the
/// token; without it the answer is final at once and the body never read.
@Suite struct ServeScreenTests {
  @Test func aBodyIsAskedForOnlyWithTheToken() throws {
    let token = "s3cret-token-0123456789"
    let fixture = try ServeFixture(token: token, listings: ["desks": ServeSafetyTests.hostile])
    let app = fixture.app
    let server = try HTTPServer(address: "127.0.0.1:0", screen: { app.screen($0) }) {
      app.handle($0)
    }
    server.start()
    defer { server.stop() }
    let body = "{\"keys\":[\"craigslist:1001\"]}"
    let head =
      "POST /api/viewed HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Expect: 100-continue\r\n"
    var stranger = try #require(LoopbackClient(port: server.port, timeout: 5))
    stranger.send(head + "\r\n")
    let refused = stranger.readToEnd()
    #expect(refused.hasPrefix("HTTP/1.1 401"), "\(refused)")
    #expect(!refused.contains("100 Continue"))
    stranger.close()
    var owner = try #require(LoopbackClient(port: server.port, timeout: 5))
    owner.send(head + "Authorization: Bearer \(token)\r\n\r\n")
    #expect(owner.readHead() == "HTTP/1.1 100 Continue")
    owner.send(body)
    #expect(owner.readHead()?.hasPrefix("HTTP/1.1 200") == true)
    owner.close()
    #expect(try fixture.store.history(ListingKey(site: "craigslist", id: "1001"))?.viewedAt != nil)
  }
}

/// The app a test's server hands its requests to, set once the server is bound.
final class AppHolder: Sendable {
  private let made = Mutex<WebApp?>(nil)

  var app: WebApp? {
    get { made.withLock { $0 } }
    set { made.withLock { $0 = newValue } }
  }
}
