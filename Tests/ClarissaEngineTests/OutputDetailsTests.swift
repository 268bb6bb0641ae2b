import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Given recent listings, when the Atom feeds and the HTML page are written, then a feed links to
/// itself and carries the photo, a card without a photo has no empty box, the page shows the
/// machine's local time, and a search whose first run only primed is on the page.
@Suite struct OutputDetailsTests {
  static let found = Date(timeIntervalSince1970: 1_777_834_800)  // 2026-05-03T19:00:00Z

  static func recent(_ id: String, images: [String]) -> RecentListing {
    RecentListing(
      search: "desks",
      listing: Listing(
        id: id, site: "feed", url: "https://example.com/\(id)", title: "desk \(id)",
        price: 120, currency: "EUR", imageURLs: images),
      found: found)
  }

  @Test func atomFeedsLinkToThemselvesAndCarryThePhotoAsAnEnclosure() throws {
    let feed = AtomFeed.render(
      title: "clarissa: desks", id: "urn:clarissa:search:desks", file: "desks.xml",
      entries: [
        Self.recent("1", images: ["https://img.example.com/a.jpg?w=600"]),
        Self.recent("2", images: ["https://img.example.com/b.png"]),
        Self.recent("3", images: []),
      ], updated: Self.found)
    #expect(feed.contains(#"<link rel="self" type="application/atom+xml" href="desks.xml"/>"#))
    #expect(
      feed.contains(
        #"<link rel="enclosure" type="image/jpeg" href="https://img.example.com/a.jpg?w=600"/>"#))
    #expect(
      feed.contains(
        #"<link rel="enclosure" type="image/png" href="https://img.example.com/b.png"/>"#))
    #expect(feed.components(separatedBy: "rel=\"enclosure\"").count - 1 == 2, "none without photo")
    #expect(feed.contains("€120"), "the currency the feed gave")
  }

  @Test func aCardWithoutAPhotoHasNoPhotoBox() {
    let html = HTMLPage.render(
      [Self.recent("1", images: ["https://img.example.com/a.jpg"]), Self.recent("2", images: [])],
      searches: ["desks"], now: Self.found)
    #expect(html.components(separatedBy: "<article class=\"card\">").count - 1 == 2)
    #expect(html.components(separatedBy: "<div class=\"photo\">").count - 1 == 1)
    #expect(!html.contains("no photo"))
  }

  @Test func thePageShowsLocalTimeWithItsZone() throws {
    let zone = try #require(TimeZone(identifier: "America/Los_Angeles"))
    let html = HTMLPage.render([], searches: [], now: Self.found, timeZone: zone)
    #expect(html.contains("<time datetime=\"2026-05-03T19:00:00Z\">2026-05-03 12:00 PDT</time>"))
    let paris = try #require(TimeZone(identifier: "Europe/Paris"))
    let page = HTMLPage.render([], searches: [], now: Self.found, timeZone: paris)
    // Foundation names Paris's summer zone "GMT+2" on Linux, "CEST" elsewhere.
    #expect(
      page.contains(">2026-05-03 21:00 GMT+2</time>")
        || page.contains(">2026-05-03 21:00 CEST</time>"))
  }

  /// A first run records without notifying; its listings still fill the page and the feeds.
  @Test func aPrimedSearchShowsItsLatestListings() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "primed-\(UUID().uuidString)")
    let yaml =
      try String(
        contentsOf: TestTools.packageRoot.appendingPathComponent("searches.yaml"), encoding: .utf8)
      + "\noutput:\n  atom: feeds\n  html: new.html\n  keep: 30\n"
    let config = try #require(
      ConfigLoader.load(
        bytes: Array(yaml.utf8), name: "o.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all
      ).config)
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    let runner = Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(
        fetcher: try ReplayFetcher(
          folder: Fixtures.root.appendingPathComponent("replay/default").path),
        settings: settings),
      statePath: folder.appendingPathComponent("clarissa.db").path,
      outputs: OutputPaths(
        atomFolder: folder.appendingPathComponent("feeds").path,
        htmlFile: folder.appendingPathComponent("new.html").path))
    let result = try await runner.run(RunOptions(now: Self.found)).commit()
    #expect(result.searches.first { $0.name == "ipads" }?.status == .primed)
    #expect(result.newListings.isEmpty, "nothing notified on a first run")
    let html = try String(contentsOf: folder.appendingPathComponent("new.html"), encoding: .utf8)
    #expect(!html.contains("No new listings yet"))
    #expect(html.contains("ipads <small>30 recent</small>"))
    let feed = try String(
      contentsOf: folder.appendingPathComponent("feeds/ipads.xml"), encoding: .utf8)
    #expect(feed.components(separatedBy: "<entry>").count - 1 == 30)
  }
}
