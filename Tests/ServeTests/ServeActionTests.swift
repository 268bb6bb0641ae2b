import ActionKeys
import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

/// `/act/TOKEN`, what the notifications' buttons call: the signed token is the only
/// authorization; GET only asks, POST marks; forged, cut, expired and cross-listing tokens are
/// refused; a replay changes nothing.
@Suite struct ServeActionTests {
  static let key = ActionKey(bytes: Array(100..<132))
  static let listings = [
    ServeFixture.listing("7001", title: "Walnut desk"),
    ServeFixture.listing("7002", title: "Oak shelf"),
  ]

  static func fixture(token: String? = "s3cret-access-token-0123456789") throws -> ServeFixture {
    try ServeFixture(
      token: token, actionKey: key, publicURL: "https://flats.example.net/",
      listings: ["desks": listings])
  }

  static func post(
    _ fixture: ServeFixture, _ token: String, _ headers: [(name: String, value: String)] = [],
    client: String? = nil
  ) -> WebResponse {
    fixture.app.handle(
      WebRequest(method: "POST", target: "/act/\(token)", headers: headers, client: client))
  }

  /// A token for `id` made as the channels make them, valid a week from the fixture's time.
  static func token(
    _ fixture: ServeFixture, _ action: ListingAction, id: String = "7001",
    lifetime: Double = 604_800,
    key: ActionKey = key
  ) throws -> String {
    let links = ActionLinks(base: "https://flats.example.net/", key: key, lifetime: lifetime)
    let url = try #require(links.url(action, site: "craigslist", id: id, now: fixture.now))
    #expect(url.hasPrefix("https://flats.example.net/act/"))
    return String(url.dropFirst("https://flats.example.net/act/".count))
  }

  static func marks(_ fixture: ServeFixture, _ id: String = "7001") throws -> ListingMarks? {
    try fixture.store.marks(of: [ListingKey(site: "craigslist", id: id)])[
      ListingKey(site: "craigslist", id: id)]
  }

  @Test func aGetOnlyAsksAndAPostStarsWithoutSessionOrAccessToken() throws {
    let fixture = try Self.fixture()
    let token = try Self.token(fixture, .star)
    let page = fixture.get("/act/\(token)")
    #expect(page.status == 200)
    let html = fixture.text(page)
    #expect(html.contains("Star: Walnut desk"))
    #expect(html.contains("<form method=\"post\" action=\"/act/\(token)\""))
    #expect(try Self.marks(fixture) == nil, "a GET (a link preview) changes nothing")
    let done = fixture.app.handle(WebRequest(method: "POST", target: "/act/\(token)"))
    #expect(done.status == 200)
    #expect(fixture.text(done).contains("Starred: Walnut desk"))
    #expect(try Self.marks(fixture)?.starred == true)
    #expect(try Self.marks(fixture, "7002") == nil, "only its own listing")
  }

  @Test func viewedAndHideLandInTheStore() throws {
    let fixture = try Self.fixture()
    let key = ListingKey(site: "craigslist", id: "7001")
    #expect(try fixture.store.history(key)?.viewedAt == nil)
    let viewed = try Self.token(fixture, .viewed)
    #expect(fixture.app.handle(WebRequest(method: "POST", target: "/act/\(viewed)")).status == 200)
    #expect(try fixture.store.history(key)?.viewedAt != nil)
    let hide = try Self.token(fixture, .hide)
    #expect(fixture.app.handle(WebRequest(method: "POST", target: "/act/\(hide)")).status == 200)
    #expect(try Self.marks(fixture)?.hidden == true)
  }

  @Test func aReplayIsAcceptedAndChangesNothing() throws {
    let fixture = try Self.fixture()
    let token = try Self.token(fixture, .star)
    #expect(fixture.app.handle(WebRequest(method: "POST", target: "/act/\(token)")).status == 200)
    let first = try #require(try Self.marks(fixture)?.starredAt)
    let again = fixture.app.handle(WebRequest(method: "POST", target: "/act/\(token)"))
    #expect(again.status == 200)
    #expect(try Self.marks(fixture)?.starredAt == first, "starred once, its time kept")
    #expect(
      try fixture.store.apply(.star, to: ListingKey(site: "craigslist", id: "7001"), at: Date())
        == 0)
  }

  @Test func forgedCutExpiredAndCrossListingTokensAreRefused() throws {
    let fixture = try Self.fixture()
    let good = try Self.token(fixture, .star)
    let other = try Self.token(fixture, .star, id: "7002")
    // The fixture's clock is 10 minutes after `now`: a 5-minute token has expired.
    let cases: [(String, Int)] = [
      (try Self.token(fixture, .star, key: ActionKey(bytes: Array(0..<32))), 403),
      (String(good.prefix(good.count - 3)) + (good.hasSuffix("AAA") ? "BBB" : "AAA"), 403),
      (String(other.prefix(other.count - 16)) + String(good.suffix(16)), 403),
      (String(good.prefix(20)), 400),
      ("not-a-token", 400),
      ("%00", 400),
      (try Self.token(fixture, .star, lifetime: 300), 410),
    ]
    for (index, (token, status)) in cases.enumerated() {
      for method in ["GET", "POST"] {
        // Each from its own address: wrong tokens from one are slowed down (tested below).
        let response = fixture.app.handle(
          WebRequest(
            method: method, target: "/act/\(token)", client: "192.0.2.\(index * 2 + method.count)"))
        #expect(response.status == status, "\(method) /act/\(token)")
      }
    }
    #expect(try Self.marks(fixture) == nil)
    #expect(try Self.marks(fixture, "7002") == nil)
    let expired = fixture.text(
      fixture.get("/act/\(try Self.token(fixture, .star, lifetime: 300))"))
    #expect(expired.contains("expired"))
  }

  @Test func guessingIsSlowedDown() throws {
    let fixture = try Self.fixture()
    let forged = try Self.token(fixture, .star, key: ActionKey(bytes: Array(0..<32)))
    var statuses: [Int] = []
    for _ in 0..<30 {
      statuses.append(
        fixture.app.handle(
          WebRequest(method: "POST", target: "/act/\(forged)", client: "198.51.100.7")
        ).status)
    }
    #expect(statuses.first == 403)
    #expect(statuses.last == 429)
  }

  /// A page of another site must not press a button for the person (the token may be in a
  /// link it saw): the browser says where a request comes from, and only this server's own
  /// pages, or no page at all (the ntfy app), are obeyed.
  @Test func aPostFromAnotherSiteIsRefusedAndTheConfirmationPageStillShown() throws {
    let fixture = try Self.fixture()
    let token = try Self.token(fixture, .star)
    let foreign: [[(name: String, value: String)]] = [
      [("sec-fetch-site", "cross-site")],
      [("sec-fetch-site", "same-site")],
      [("origin", "https://evil.example"), ("host", "flats.example.net")],
      [("origin", "null"), ("host", "127.0.0.1:8421")],
      [("origin", "https://flats.example.net.evil.example")],
    ]
    for headers in foreign {
      let refused = Self.post(fixture, token, headers)
      #expect(refused.status == 403, "\(headers)")
      #expect(fixture.text(refused).contains("refused: a request from another"), "\(headers)")
      #expect(try Self.marks(fixture) == nil, "\(headers)")
    }
    // The confirmation page is shown whoever links to it: it changes nothing.
    let asked = fixture.app.handle(
      WebRequest(
        method: "GET", target: "/act/\(token)", headers: [("sec-fetch-site", "cross-site")]))
    #expect(asked.status == 200)
    // Its own button, from serve.url's origin (a tunnel that hands on a loopback Host), or
    // from the Host's own origin.
    let pressed = Self.post(
      fixture, token,
      [
        ("sec-fetch-site", "same-origin"), ("origin", "https://flats.example.net"),
        ("host", "127.0.0.1:8421"),
      ])
    #expect(pressed.status == 200)
    #expect(try Self.marks(fixture)?.starred == true)
    let viewed = try Self.token(fixture, .viewed)
    #expect(
      Self.post(
        fixture, viewed, [("origin", "http://192.168.1.5:8421"), ("host", "192.168.1.5:8421")]
      )
      .status == 200)
  }

  /// A Star pressed again (a replayed request, the notification's button a second time) after
  /// the person unstarred the listing does not star it again.
  @Test func aTokenUsedOnceDoesNothingAfterTheMarkWasUndone() throws {
    let fixture = try Self.fixture()
    let key = ListingKey(site: "craigslist", id: "7001")
    for (action, undo) in [(ListingAction.star, ListingMark.unstar), (.hide, .unhide)] {
      let token = try Self.token(fixture, action)
      let done = Self.post(fixture, token)
      #expect(done.status == 200)
      #expect(try fixture.store.marks(of: [key])[key] != nil, "\(action)")
      try fixture.store.setMark(undo, on: [key], at: fixture.now)
      #expect(try Self.marks(fixture) == nil)
      let again = Self.post(fixture, token)
      #expect(again.status == 200)
      #expect(fixture.text(again).contains("Already done"), "\(action)")
      #expect(try Self.marks(fixture) == nil, "\(action): not applied again")
      // Its page says so, with no button.
      let page = fixture.text(fixture.get("/act/\(token)"))
      #expect(page.contains("Already done") && !page.contains("<form"), "\(action)")
    }
    // Another button of the same listing still works once.
    #expect(Self.post(fixture, try Self.token(fixture, .star, lifetime: 3600)).status == 200)
    #expect(try Self.marks(fixture)?.starred == true)
  }

  /// The tokens used are kept beside the key: a button used before a restart does nothing
  /// after it. Lines that are not the class's own (cut, huge numbers) and expired tokens are
  /// left out when the file is read again.
  @Test func theTokensUsedOutliveARestart() throws {
    let fixture = try Self.fixture()
    let file = fixture.folder.appendingPathComponent("clarissa-actions.used").path
    let now = fixture.now.addingTimeInterval(600)
    func restarted() -> WebApp {
      WebApp(
        store: fixture.store, config: fixture.app.config,
        access: WebApp.Access(
          token: nil, hosts: [], actionKey: Self.key, usedActionsFile: file),
        clock: { now })
    }
    let token = try Self.token(fixture, .star)
    let post = WebRequest(method: "POST", target: "/act/\(token)")
    #expect(restarted().handle(post).status == 200)
    try fixture.store.setMark(.unstar, on: [ListingKey(site: "craigslist", id: "7001")], at: now)
    let expired = Int(now.timeIntervalSince1970) - 10
    let handle = try #require(FileHandle(forWritingAtPath: file))
    try handle.seekToEnd()
    try handle.write(
      contentsOf: Data("cut line\n1e300 5 abc\n\(expired) 1 oldToken\n-\n9 9 9 9\n".utf8))
    try handle.close()
    let again = restarted().handle(post)
    #expect(fixture.text(again).contains("Already done"))
    #expect(try Self.marks(fixture) == nil, "not starred again after the restart")
    let kept = try String(contentsOfFile: file, encoding: .utf8)
    #expect(kept.hasSuffix(" \(token)\n") && kept.split(separator: "\n").count == 1, "\(kept)")
    let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    #expect(mode == 0o600, "\(String(mode ?? 0, radix: 8))")
  }

  /// Forged tokens from an address slow that address's forged tokens only: behind a tunnel
  /// every phone has the tunnel's address, and a real button must still work.
  @Test func aRealButtonWorksFromAnAddressThatSentForgedOnes() throws {
    let fixture = try Self.fixture()
    let forged = try Self.token(fixture, .star, key: ActionKey(bytes: Array(0..<32)))
    for _ in 0..<10 { _ = Self.post(fixture, forged, client: "127.0.0.1") }
    #expect(Self.post(fixture, forged, client: "127.0.0.1").status == 429)
    #expect(Self.post(fixture, try Self.token(fixture, .star), client: "127.0.0.1").status == 200)
    #expect(try Self.marks(fixture)?.starred == true)
  }

  @Test func aListingNoLongerStoredAndAServerWithoutKeyAnswer404() throws {
    let fixture = try Self.fixture()
    let gone = try Self.token(fixture, .star, id: "9999")
    #expect(fixture.app.handle(WebRequest(method: "POST", target: "/act/\(gone)")).status == 404)
    let keyless = try ServeFixture(listings: ["desks": Self.listings])
    #expect(keyless.get("/act/\(try Self.token(fixture, .star))").status == 404)
    #expect(fixture.app.handle(WebRequest(method: "PUT", target: "/act/x")).status == 405)
  }
}
