import FixtureSupport
import Foundation
import Testing

/// The style sheet and the scripts: each served as its file of `Sources/Serve/Assets/`, byte for
/// byte (compiled into the program), with its type, kept by the browser for an hour.
@Suite struct ServeAssetsTests {
  @Test(arguments: [
    ("style.css", "text/css; charset=utf-8"), ("app.js", "text/javascript; charset=utf-8"),
    ("map.js", "text/javascript; charset=utf-8"),
  ])
  func eachAssetIsItsFile(name: String, type: String) throws {
    let fixture = try ServeFixture(listings: [:])
    let response = fixture.get("/assets/\(name)")
    #expect(response.status == 200)
    #expect(fixture.header(response, "Content-Type") == type)
    #expect(fixture.header(response, "Cache-Control") == "max-age=3600")
    let file = TestTools.packageRoot.appendingPathComponent("Sources/Serve/Assets/\(name)")
    #expect(response.body == Array(try Data(contentsOf: file)), "\(name)")
    #expect(!fixture.text(response).hasPrefix("<"), "\(name) is not a page")
  }

  @Test func theStyleSheetHoldsTheMarksStyle() throws {
    let fixture = try ServeFixture(listings: [:])
    let style = fixture.text(fixture.get("/assets/style.css"))
    #expect(style.hasPrefix(":root { color-scheme: light dark;"))
    #expect(style.contains("\n.mark-form { display: flex;"))
  }
}
