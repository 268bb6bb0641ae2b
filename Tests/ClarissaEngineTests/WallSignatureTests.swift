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
