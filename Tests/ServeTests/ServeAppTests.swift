import FixtureSupport
import Foundation
import Serve
import Testing
import WebServer

/// The installable web app: the manifest and its icons, the service worker, what every page's
/// head names, the unviewed count a page hands the badge, and which of these answer without the
/// access token.
@Suite struct ServeAppTests {
  /// The manifest as JSON.
  private func manifest(_ fixture: ServeFixture) throws -> [String: Any] {
    let response = fixture.get("/manifest.webmanifest")
    #expect(response.status == 200)
    #expect(fixture.header(response, "Content-Type") == "application/manifest+json")
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    return try #require(object as? [String: Any])
  }

  /// A PNG's width and height, read from its header (the signature, then IHDR).
  private func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard bytes.count > 24, Array(bytes[0..<8]) == signature,
      Array(bytes[12..<16]) == Array("IHDR".utf8)
    else { return nil }
    let number = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
  }

  @Test func theManifestNamesTheAppAndItsShareTarget() throws {
    let fixture = try ServeFixture(listings: [:])
    let manifest = try manifest(fixture)
    #expect(manifest["name"] as? String == "clarissa")
    #expect(manifest["short_name"] as? String == "clarissa")
    #expect(manifest["start_url"] as? String == "/")
    #expect(manifest["scope"] as? String == "/")
    #expect(manifest["id"] as? String == "/")
    #expect(manifest["display"] as? String == "standalone")
    #expect(manifest["theme_color"] as? String == "#0a7d3e")
    #expect(manifest["background_color"] as? String == "#f5f5f7")
    let share = try #require(manifest["share_target"] as? [String: Any])
    #expect(share["action"] as? String == "/capture/share")
    #expect(share["method"] as? String == "GET")
    #expect(
      share["params"] as? [String: String] == ["title": "title", "text": "text", "url": "url"])
  }

  @Test func eachIconIsAPNGOfTheSizeItIsNamedWith() throws {
    let fixture = try ServeFixture(listings: [:])
    let icons = try #require(try manifest(fixture)["icons"] as? [[String: String]])
    var purposes: [String: [String]] = [:]
    for icon in icons {
      let src = try #require(icon["src"])
      let response = fixture.get(src)
      #expect(response.status == 200, "\(src)")
      #expect(fixture.header(response, "Content-Type") == "image/png")
      #expect(icon["type"] == "image/png")
      let size = try #require(pngSize(response.body), "\(src) is not a PNG")
      #expect("\(size.width)x\(size.height)" == icon["sizes"], "\(src)")
      purposes[icon["purpose"] ?? "any", default: []].append(icon["sizes"] ?? "")
    }
    // Chromium installs with a 144 px icon or larger; Android's home screen takes the maskable.
    #expect(purposes["any"]?.sorted() == ["192x192", "512x512"])
    #expect(purposes["maskable"] == ["512x512"])
    // The ones the pages and the notifications name.
    for (name, side) in [("apple-touch-icon.png", 180), ("badge-96.png", 96)] {
      let size = pngSize(fixture.get("/icons/\(name)").body)
      #expect(size?.width == side && size?.height == side, "\(name)")
    }
    #expect(fixture.get("/icons/nothing.png").status == 404)
    #expect(fixture.get("/icons/../manifest.webmanifest").status != 200)
  }

  @Test func theWorkerIsServedSoThatANewBuildReplacesIt() throws {
    let fixture = try ServeFixture(listings: [:])
    let response = fixture.get("/sw.js")
    #expect(response.status == 200)
    #expect(fixture.header(response, "Content-Type") == "text/javascript; charset=utf-8")
    // Checked with the server at every visit; nothing that would keep an old worker.
    #expect(fixture.header(response, "Cache-Control") == "no-cache")
    let script = fixture.text(response)
    #expect(!script.contains("\"CLARISSA_ASSETS\""), "the placeholder is replaced")
    let version = try #require(
      script.firstMatch(of: /var VERSION = "([0-9a-f]{16})";/).map { String($0.1) })
    // The same build, the same name: another app (another process) serves the same worker.
    #expect(fixture.text(try ServeFixture(listings: [:]).get("/sw.js")).contains(version))
    // The service worker's CSP: it fetches only from here (connect-src), like the pages.
    #expect(
      fixture.header(response, "Content-Security-Policy")?.contains("connect-src 'self'") == true)
  }

  @Test func everyFileTheWorkerKeepsIsServed() throws {
    let fixture = try ServeFixture(listings: [:])
    let script = fixture.text(fixture.get("/sw.js"))
    let list = try #require(script.firstMatch(of: /var SHELL_FILES = \[([^\]]*)\]/)).1
    let paths = list.matches(of: /"([^"]+)"/).map { String($0.1) }
    #expect(paths.count == 8)
    for required in ["/offline", "/assets/style.css", "/assets/app.js", "/assets/layouts.css"] {
      #expect(paths.contains(required))
    }
    for path in paths {
      #expect(fixture.get(path).status == 200, "\(path)")
    }
    #expect(fixture.text(fixture.get("/offline")).contains("<h1>Offline</h1>"))
  }

  @Test(arguments: ["push.js", "panes.js", "layouts.css"])
  func eachAppAssetIsItsFile(name: String) throws {
    let fixture = try ServeFixture(listings: [:])
    let response = fixture.get("/assets/\(name)")
    #expect(response.status == 200)
    let type = name.hasSuffix(".css") ? "text/css" : "text/javascript"
    #expect(fixture.header(response, "Content-Type") == "\(type); charset=utf-8")
    let file = TestTools.packageRoot.appendingPathComponent("Sources/Serve/Assets/\(name)")
    #expect(response.body == Array(try Data(contentsOf: file)))
  }

  @Test func theManifestTheWorkerAndTheIconsNeedNoToken() throws {
    let fixture = try ServeFixture(token: "app-token-4f9e2c", listings: [:])
    for path in ["/manifest.webmanifest", "/sw.js", "/icons/icon-192.png", "/icons/badge-96.png"] {
      #expect(fixture.get(path).status == 200, "\(path)")
    }
    // The rest keeps to the token: the offline page and the scripts, as the pages' style sheet.
    for path in ["/offline", "/assets/push.js", "/assets/style.css", "/"] {
      #expect(fixture.get(path).status == 401, "\(path)")
    }
    let cookie = [("cookie", "clarissa_token=app-token-4f9e2c")]
    #expect(fixture.get("/offline", headers: cookie).status == 200)
    // Only GET: the public files are no way around the token for anything else.
    let posted = fixture.post("/sw.js", form: "")
    #expect(posted.status == 401 || posted.status == 403)
  }

  @Test func everyPageNamesTheManifestTheThemeAndTheScripts() throws {
    let listing = ServeFixture.listing("7712345678", title: "Walnut desk")
    let fixture = try ServeFixture(listings: ["desks": [listing]])
    let head = [
      "<link rel=\"manifest\" href=\"/manifest.webmanifest\">",
      "<meta name=\"theme-color\" content=\"#0a7d3e\">",
      "<link rel=\"apple-touch-icon\" href=\"/icons/apple-touch-icon.png\">",
      "<link rel=\"stylesheet\" href=\"/assets/layouts.css\">",
      "<script src=\"/assets/push.js\" defer></script>",
      "<script src=\"/assets/panes.js\" defer></script>",
    ]
    for path in [
      "/", "/listings?search=desks", "/listing/craigslist/7712345678", "/starred", "/map",
      "/offline", "/no-such-page",
    ] {
      let response = fixture.get(path)
      let page = fixture.text(response)
      let top = page.components(separatedBy: "</head>").first ?? ""
      for line in head { #expect(top.contains(line), "\(path): \(line)") }
      let policy = fixture.header(response, "Content-Security-Policy") ?? ""
      #expect(policy.contains("manifest-src 'self'"), "\(path)")
      #expect(policy.contains("worker-src 'self'"), "\(path)")
      #expect(policy.contains("script-src 'self';"), "\(path): still no inline script")
    }
  }

  @Test func thePagesCarryTheUnviewedCountForTheBadge() throws {
    let desks = (1...3).map { ServeFixture.listing("77100\($0)", title: "Desk \($0)") }
    let chairs = (1...2).map { ServeFixture.listing("77200\($0)", title: "Chair \($0)") }
    let fixture = try ServeFixture(listings: ["desks": desks, "chairs": chairs])
    let meta = { (path: String) in
      fixture.text(fixture.get(path)).firstMatch(of: /<meta name="app-badge" content="(\d+)">/)
        .map { Int($0.1) }
    }
    #expect(meta("/") == 5)
    #expect(meta("/listings?search=desks") == 5)
    #expect(meta("/listing/craigslist/771001") == 5)
    let viewed = fixture.post(
      "/viewed", form: "key=craigslist:771001&csrf=\(fixture.csrf())",
      headers: [("Sec-Fetch-Site", "same-origin")])
    #expect(viewed.status == 303)
    #expect(meta("/") == 4)
    let searches = fixture.text(fixture.get("/"))
    #expect(searches.contains("<section class=\"device\" id=\"device\" hidden>"))
    #expect(searches.contains("<button type=\"button\" id=\"notify-device\">"))
  }
}
