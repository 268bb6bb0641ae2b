import FixtureSupport
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

@testable import ClarissaCommands

/// `POST /capture` read into the searches by the real runner: Kleinanzeigen's recorded search
/// page (Fixtures/kleinanzeigen, 27 listings) captured for a config whose search pasted that
/// page's address, its announcements sent to a loopback JSON receiver.
@Suite(.serialized) struct CaptureRunTests {
  static let page =
    "https://www.kleinanzeigen.de/s-immobilien/duesseldorf/anzeige:angebote/wohnung/k0c195l2068r5"

  /// A config folder, a store, and the app over it with a capture desk of `notifyFirstRun`.
  struct Setup {
    let folder: URL
    let config: String
    let app: WebApp
    let store: ListingStore
    let token: String
    let hook: LoopbackServer

    init(notifyFirstRun: Bool) throws {
      hook = try LoopbackServer { _, _ in .init(status: 200) }
      folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("clarissa-capture-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      config = folder.appendingPathComponent("searches.yaml").path
      try """
      version: 1
      photos: off
      notify:
        hook: json://127.0.0.1:\(hook.port)/hook
      searches:
        - name: duesseldorf
          url: \(CaptureRunTests.page)
          interval: 1h
          notify: [hook]
        - name: bikes
          url: https://sfbay.craigslist.org/search/bia?max_price=800
          interval: 1h
      """.write(toFile: config, atomically: true, encoding: .utf8)
      let source = try SourceOptions.parse(["--config", config])
      let statePath = folder.appendingPathComponent("clarissa.db").path
      store = try ListingStore.open(path: statePath, readOnly: false)
      let desk = source.captureDesk(nil, statePath: statePath, notifyFirstRun: notifyFirstRun)
      app = WebApp(
        store: store,
        config: ServedConfig(path: config, searches: [], problems: "", hasErrors: false),
        access: WebApp.Access(token: nil, hosts: []), capture: desk)
      // The bookmarklet's page makes the token and shows it.
      let shown = String(
        decoding: app.handle(WebRequest(method: "GET", target: "/capture")).body, as: UTF8.self)
      let file = try String(contentsOfFile: desk.tokenFile, encoding: .utf8)
      token = file.trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(shown.contains(token), "the page shows the bookmarklet with its token")
    }

    /// The bookmarklet's POST, as a browser's form sends it from the site's page.
    func capture(url: String, html: String, token: String? = nil) -> (Int, String) {
      let form = [("token", token ?? self.token), ("url", url), ("html", html)].map {
        "\($0.0)=\(CaptureRunTests.encode($0.1))"
      }.joined(separator: "&")
      let response = app.handle(
        WebRequest(
          method: "POST", target: "/capture",
          headers: [
            ("host", "127.0.0.1:8421"), ("content-type", "application/x-www-form-urlencoded"),
            ("origin", "https://www.kleinanzeigen.de"), ("sec-fetch-site", "cross-site"),
          ], body: Array(form.utf8), client: "127.0.0.1"))
      return (response.status, String(decoding: response.body, as: UTF8.self))
    }
  }

  static func encode(_ text: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._*")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
  }

  static func html() throws -> String {
    String(
      decoding: try Fixtures.bytes("kleinanzeigen/kleinanzeigen-duesseldorf-wohnung-1.html"),
      as: UTF8.self)
  }

  /// The number in the counts table's cell of `kind` for `search`.
  static func count(_ page: String, _ search: String, _ kind: String) -> Int? {
    guard let row = page.range(of: "<tr data-search=\"\(search)\">") else { return nil }
    let rest = page[row.upperBound...]
    guard let cell = rest.range(of: "<td class=\"\(kind)\">") else { return nil }
    return Int(rest[cell.upperBound...].prefix { $0.isNumber })
  }

  @Test func theFirstCaptureAnnouncesTheNewListingsAndTheSecondNone() throws {
    let setup = try Setup(notifyFirstRun: true)
    let (status, first) = setup.capture(url: Self.page, html: try Self.html())
    #expect(status == 200, "\(first)")
    #expect(Self.count(first, "duesseldorf", "read") == 27, "\(first)")
    let new = try #require(Self.count(first, "duesseldorf", "new"))
    #expect(new > 20, "\(first)")
    #expect(Self.count(first, "duesseldorf", "announced") == new)
    let sent = setup.hook.requests.filter { $0.path == "/hook" }
    #expect(sent.count == new, "one message a listing")
    #expect(sent.contains { $0.text.contains("kleinanzeigen.de/s-anzeige/") })
    #expect(try setup.store.standings()["duesseldorf"] != nil, "the store has the search")

    let (again, second) = setup.capture(url: Self.page, html: try Self.html())
    #expect(again == 200)
    #expect(Self.count(second, "duesseldorf", "new") == 0, "\(second)")
    #expect(Self.count(second, "duesseldorf", "known") == new, "\(second)")
    #expect(Self.count(second, "duesseldorf", "announced") == 0)
    #expect(setup.hook.requests.filter { $0.path == "/hook" }.count == new, "nothing sent again")
  }

  @Test func aSearchsFirstCaptureWithoutNotifyFirstRunPrimesItAsARunDoes() throws {
    let setup = try Setup(notifyFirstRun: false)
    let (status, page) = setup.capture(url: Self.page, html: try Self.html())
    #expect(status == 200, "\(page)")
    #expect(Self.count(page, "duesseldorf", "new") == 0, "\(page)")
    #expect((Self.count(page, "duesseldorf", "primed") ?? 0) > 20, "\(page)")
    #expect(setup.hook.requests.isEmpty)
  }

  @Test func aListingPageCapturedIsStarred() throws {
    let setup = try Setup(notifyFirstRun: false)
    _ = setup.capture(url: Self.page, html: try Self.html())
    let listing = try #require(
      try setup.store.listings(ListingQuery()).first?.listing, "the capture recorded listings")
    let (status, page) = setup.capture(url: listing.url + "#gallery", html: "<html></html>")
    #expect(status == 200, "\(page)")
    #expect(page.contains("id=\"capture-starred\""), "\(page)")
    let key = ListingKey(site: listing.site, id: listing.id)
    #expect(try setup.store.marks(of: [key])[key]?.starredAt != nil)
  }

  @Test func otherPagesAreAnsweredWithWhatTheyAre() throws {
    let setup = try Setup(notifyFirstRun: true)
    // A Kleinanzeigen search no search has: how to add it; nothing read.
    let other = "https://www.kleinanzeigen.de/s-wohnung-mieten/leipzig/c203l4233"
    let (_, unknownSearch) = setup.capture(url: other, html: try Self.html())
    #expect(unknownSearch.contains("id=\"capture-add\""), "\(unknownSearch)")
    #expect(unknownSearch.contains("url: \(other)"))
    #expect(try setup.store.standings().isEmpty, "nothing was run")
    // Craigslist's search is read through its API: a page cannot stand in for it.
    let (_, api) = setup.capture(
      url: "https://sfbay.craigslist.org/search/bia?max_price=800", html: "<html></html>")
    #expect(api.contains("id=\"capture-api\""), "\(api)")
    // Nothing any site knows.
    let (_, unknown) = setup.capture(url: "https://example.org/a", html: "<p>x</p>")
    #expect(unknown.contains("id=\"capture-unknown\""), "\(unknown)")
    #expect(setup.hook.requests.isEmpty)
  }

  @Test func aWrongOrMissingTokenIsRefusedAndReadsNothing() throws {
    let setup = try Setup(notifyFirstRun: true)
    let (wrong, _) = setup.capture(
      url: Self.page, html: try Self.html(), token: String(repeating: "0", count: 48))
    #expect(wrong == 403)
    let (missing, _) = setup.capture(url: Self.page, html: try Self.html(), token: "")
    #expect(missing == 403)
    #expect(try setup.store.standings().isEmpty)
    #expect(setup.hook.requests.isEmpty)
  }
}
