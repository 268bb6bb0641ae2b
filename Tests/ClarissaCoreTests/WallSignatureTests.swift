import ClarissaCore
import FixtureSupport
import Foundation
import Testing

/// The walls' signatures: each wall's page is its wall whatever the status, a wall's header
/// alone is enough, and no answer recorded from a site (every fixture of the sites) is read as a
/// wall.
struct WallSignatureTests {
  @Test func eachWallsPageIsItsWallWhateverTheStatus() throws {
    let pages: [(String, SiteWall)] = [
      ("datadome.html", .datadome), ("cloudflare.html", .cloudflare), ("akamai.html", .akamai),
      ("perimeterx.html", .perimeterx), ("imperva.html", .imperva),
    ]
    for (file, wall) in pages {
      let body = try Fixtures.bytes("walls/" + file)
      for status in [200, 403, 429] {
        #expect(SiteWall.recognised(status: status, headers: [:], body: body) == wall, "\(file)")
      }
    }
  }

  @Test func aWallsHeaderIsEnough() {
    let empty: [UInt8] = []
    #expect(
      SiteWall.recognised(status: 403, headers: ["cf-mitigated": "challenge"], body: empty)
        == .cloudflare)
    #expect(
      SiteWall.recognised(status: 403, headers: ["x-datadome": "protected"], body: empty)
        == .datadome)
    #expect(
      SiteWall.recognised(status: 200, headers: ["x-datadome": "protected"], body: empty) == nil,
      "DataDome marks the pages it lets through too")
    #expect(
      SiteWall.recognised(status: 403, headers: ["x-iinfo": "1-2-3"], body: empty) == .imperva)
  }

  /// DataDome's answer to an API client (JSON naming its captcha), and a full page that names
  /// a vendor's host only in passing (a content security policy) or says "Access Denied" and
  /// "Reference #" among its own texts.
  @Test func aStubIsAWallAndAFullPageNamingAVendorIsNot() {
    let json = #"{"url":"https://geo.captcha-delivery.com/captcha/?initialCid=x&t=fe"}"#
    #expect(SiteWall.recognised(status: 403, headers: [:], body: Array(json.utf8)) == .datadome)
    let filler = String(
      repeating: #"<article class="ad"><h2>Sofa</h2></article>"# + "\n", count: 1000)
    let policy =
      #"<html><head><meta http-equiv="Content-Security-Policy" content="frame-src "#
      + #"https://geo.captcha-delivery.com"></head><body>"# + filler + "</body></html>"
    #expect(SiteWall.recognised(status: 200, headers: [:], body: Array(policy.utf8)) == nil)
    let texts =
      "<html><body>" + filler + #"<script>{"denied":"Access denied","ref":"Reference #"}"#
      + "</script></body></html>"
    #expect(SiteWall.recognised(status: 200, headers: [:], body: Array(texts.utf8)) == nil)
  }

  @Test func noRecordedAnswerOfASiteIsAWall() throws {
    let folders = [
      "craigslist", "flatfox", "immoscout", "kleinanzeigen", "wg-gesucht", "willhaben", "oodle",
      "backpage", "feed", "feeds", "replay",
    ]
    var read = 0
    for folder in folders {
      let root = Fixtures.root.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }
      for file in files ?? [] {
        let url = root.appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url), !data.isEmpty else { continue }
        read += 1
        let wall = SiteWall.recognised(status: 200, headers: [:], body: Array(data))
        #expect(wall == nil, "\(folder)/\(file) read as \(String(describing: wall))")
      }
    }
    #expect(read > 100, "the sites' recorded answers were found (\(read))")
  }
}
