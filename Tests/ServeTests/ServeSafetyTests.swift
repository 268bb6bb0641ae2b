import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import Serve
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
      // The only scripts are the program's own.
      #expect(html.components(separatedBy: "<script").count == 2, "\(page)")
      #expect(fixture.header(response, "Content-Security-Policy")?.contains("script-src 'self'") == true)
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
      ("all=1&search=desks&csrf=\(csrf)", [("origin", "http://evil.test"), ("host", "127.0.0.1:8421")]),
    ]
    for (form, headers) in forged {
      let response = fixture.post("/viewed", form: form, headers: headers)
      #expect(response.status == 403, "\(form) \(headers)")
      #expect(try fixture.store.history(key)?.viewedAt == nil)
    }
    #expect(fixture.post("/open/craigslist/1002", form: "").status == 403)
    #expect(
      fixture.app.handle(
        WebRequest(method: "POST", target: "/api/viewed", body: Array("{\"keys\":[\"craigslist:1002\"]}".utf8))
      ).status == 403)
    #expect(try fixture.store.history(key)?.viewedAt == nil)
    // With the token, from the page itself: done, and back to a page of this server only.
    let done = fixture.post(
      "/viewed", form: "all=1&search=desks&csrf=\(csrf)&return=%2F%2Fevil.test%2F",
      headers: [("sec-fetch-site", "same-origin"), ("origin", "http://127.0.0.1:8421"), ("host", "127.0.0.1:8421")])
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

final class AppHolder: @unchecked Sendable {
  var app: WebApp?
}
