import ActionKeys
import ClarissaCore
import Foundation
import ListingStore
import Testing
import WebServer

@testable import Serve

/// The capture's guards and pages without a searches' reader (ClarissaCommandsTests runs the
/// searches): the bookmarklet behind the access rules, `POST /capture` authorised by its own
/// token and by nothing else, its body bound, the share target's confirm form.
@Suite struct ServeCaptureTests {
  static let access = "s3cret-access-token-0123456789"
  static let listing = ServeFixture.listing("7001", title: "Walnut desk")

  static func fixture(publicURL: String? = nil) throws -> (ServeFixture, CaptureDesk) {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("serve-capture-\(UUID().uuidString)")
    let desk = CaptureDesk(
      handler: nil, tokenFile: folder.appendingPathComponent(CaptureToken.fileName).path)
    let fixture = try ServeFixture(
      token: access, publicURL: publicURL, capture: desk, listings: ["desks": [listing]])
    return (fixture, desk)
  }

  static let signedIn: [(name: String, value: String)] = [("authorization", "Bearer \(access)")]

  /// The bookmarklet's POST from the site's page: cross-site, no cookie, no access token.
  static func capture(
    _ fixture: ServeFixture, token: String, url: String, extra: [(name: String, value: String)] = []
  ) -> WebResponse {
    fixture.post(
      "/capture",
      form: "token=\(token)&url=\(WebApp.queryValue(url))&html=%3Chtml%3E%3C%2Fhtml%3E",
      headers: [("origin", "https://sfbay.craigslist.org"), ("sec-fetch-site", "cross-site")]
        + extra)
  }

  @Test func theBookmarkletIsShownOnlyBehindTheAccessRulesWithItsTokenAndAddress() throws {
    let (fixture, desk) = try Self.fixture()
    #expect(fixture.get("/capture").status == 401)
    #expect(!FileManager.default.fileExists(atPath: desk.tokenFile), "no token made for a stranger")
    let page = fixture.text(
      fixture.get("/capture", headers: Self.signedIn + [("host", "127.0.0.1:8421")]))
    let token = try #require(try desk.current()).text
    #expect(token.count == 48)
    #expect(page.contains("f.action=&apos;http://127.0.0.1:8421/capture&apos;"), "\(page)")
    #expect(page.contains("a(&apos;token&apos;,&apos;\(token)&apos;)"))
    let mode = try FileManager.default.attributesOfItem(atPath: desk.tokenFile)[.posixPermissions]
    #expect((mode as? Int) == 0o600)
    // serve.url is the address a phone reaches the server at.
    let (public_, _) = try Self.fixture(publicURL: "https://flats.example.net/")
    let shown = public_.text(
      public_.get("/capture", headers: Self.signedIn + [("host", "flats.example.net")]))
    #expect(shown.contains("f.action=&apos;https://flats.example.net/capture&apos;"))
  }

  @Test func aCaptureIsAuthorisedByItsTokenAloneAndStarsAStoredListing() throws {
    let (fixture, desk) = try Self.fixture()
    let key = ListingKey(site: "craigslist", id: "7001")
    // Before any bookmarklet was made, nothing is taken.
    #expect(Self.capture(fixture, token: "", url: Self.listing.url).status == 403)
    _ = fixture.get("/capture", headers: Self.signedIn)
    let token = try #require(try desk.current()).text
    // The access token is no capture token: it reaches nothing here.
    let withAccess = Self.capture(fixture, token: "", url: Self.listing.url, extra: Self.signedIn)
    #expect(withAccess.status == 403)
    #expect(
      Self.capture(fixture, token: String(token.reversed()), url: Self.listing.url).status == 403)
    #expect(try fixture.store.marks(of: [key])[key]?.starredAt == nil)
    // From the site's own page, cross-site, with no cookie: its token is the authority.
    let starred = Self.capture(fixture, token: token, url: Self.listing.url + "?ref=share")
    #expect(starred.status == 200, "\(fixture.text(starred))")
    #expect(fixture.text(starred).contains("Starred: Walnut desk"))
    #expect(fixture.header(starred, "access-control-allow-origin") == nil)
    #expect(try fixture.store.marks(of: [key])[key]?.starredAt != nil)
    // A page that is no listing, with no searches' reader: said so, nothing changed.
    let other = fixture.text(Self.capture(fixture, token: token, url: "https://example.org/x"))
    #expect(other.contains("id=\"capture-unknown\""))
    #expect(Self.capture(fixture, token: token, url: "javascript:alert(1)").status == 400)
  }

  @Test func replacingTheTokenVoidsTheOldBookmarkletAndNeedsTheSitesOwnForm() throws {
    let (fixture, desk) = try Self.fixture()
    _ = fixture.get("/capture", headers: Self.signedIn)
    let old = try #require(try desk.current()).text
    // A form of another site cannot replace it.
    let forged = fixture.post(
      "/capture/token", form: "csrf=\(fixture.app.csrf)",
      headers: [("cookie", "clarissa_token=\(Self.access)"), ("sec-fetch-site", "cross-site")])
    #expect(forged.status == 403)
    #expect(try desk.current()?.text == old)
    let replaced = fixture.post(
      "/capture/token", form: "csrf=\(fixture.app.csrf)",
      headers: [("cookie", "clarissa_token=\(Self.access)"), ("sec-fetch-site", "same-origin")])
    #expect(replaced.status == 303 || replaced.status == 302, "\(fixture.text(replaced))")
    let new = try #require(try desk.current()).text
    #expect(new != old)
    #expect(Self.capture(fixture, token: old, url: Self.listing.url).status == 403)
    #expect(Self.capture(fixture, token: new, url: Self.listing.url).status == 200)
  }

  @Test func bodiesAreBoundedBeforeTheyAreRead() throws {
    let (fixture, _) = try Self.fixture()
    func head(_ method: String, _ path: String, _ length: Int) -> WebRequest {
      WebRequest(
        method: method, target: path, headers: [("content-length", String(length))])
    }
    let limit = WebApp.captureBodyLimit
    #expect(fixture.app.screen(head("POST", "/capture", limit + 1))?.status == 413)
    #expect(fixture.app.screen(head("POST", "/capture", limit)) == nil, "its token is in its body")
    // Every other path keeps the 256 KiB bound, and a stranger's body is not read at all.
    #expect(fixture.app.screen(head("POST", "/mark", 300 * 1024))?.status == 413)
    #expect(fixture.app.screen(head("POST", "/mark", 1024))?.status == 401)
    // A body that came without a length (chunked) is held to the same bound once read.
    let chunked = fixture.app.handle(
      WebRequest(
        method: "POST", target: "/capture",
        headers: [("content-type", "application/x-www-form-urlencoded")],
        body: [UInt8](repeating: 0x61, count: limit + 1)))
    #expect(chunked.status == 413)
  }

  @Test func theShareTargetOffersToStarAListingAndChangesNothingItself() throws {
    let (fixture, _) = try Self.fixture()
    let key = ListingKey(site: "craigslist", id: "7001")
    let shared = fixture.get(
      "/capture/share?title=Desk&text=\(WebApp.queryValue("Look at this \(Self.listing.url)"))",
      headers: Self.signedIn)
    let page = fixture.text(shared)
    #expect(shared.status == 200)
    #expect(page.contains("<form method=\"post\" action=\"/mark\" id=\"share-star\">"), "\(page)")
    #expect(page.contains("name=\"csrf\" value=\"\(fixture.app.csrf)\""))
    #expect(try fixture.store.marks(of: [key])[key]?.starredAt == nil, "a GET stars nothing")
    #expect(
      fixture.get("/capture/share?url=https://example.org/", headers: Self.signedIn).status == 200)
    let nothing = fixture.text(fixture.get("/capture/share?title=hello", headers: Self.signedIn))
    #expect(nothing.contains("The share carried no web address."))
    #expect(fixture.get("/capture/share?url=\(WebApp.queryValue(Self.listing.url))").status == 401)
  }

  @Test func theBookmarkletsStringsAreEscapedForItsScript() {
    let script = WebApp.bookmarklet(base: "http://h'x\"</a>%41", token: "ab")
    #expect(script.hasPrefix("javascript:(function(){"))
    #expect(!script.contains("'x"), "a quote of the address cannot end the string")
    #expect(!script.contains("%41"), "a javascript: URL is percent-decoded before it runs")
    #expect(script.contains("\\u0027x\\u0022\\u003c/a\\u003e\\u002541"))
  }
}
