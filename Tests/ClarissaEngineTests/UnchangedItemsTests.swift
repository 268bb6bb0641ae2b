import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Unchanged items passed over unread (docs/performance.md, "Unchanged items") change nothing a
/// run says or keeps: the same polls of a feed, run with them passed over and with every item
/// read (`--read-every-item`), announce the same listings and leave the same store.
@Suite(.serialized) struct UnchangedItemsTests {
  /// One state of the feed: per item id, its title, price and description; in this order.
  typealias Feed = [(id: String, title: String, price: Int, text: String)]

  static func xml(_ feed: Feed) -> String {
    let items = feed.map { item in
      "<item><title>\(item.title) $\(item.price)</title><guid isPermaLink=\"false\">\(item.id)"
        + "</guid><link>https://example.org/\(item.id)</link><description>&lt;p&gt;"
        + "\(item.text)&lt;/p&gt;</description><pubDate>Tue, 24 Nov 2026 10:00:00 GMT"
        + "</pubDate></item>"
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Bikes</title>"
      + "<link>https://example.org/</link>\n" + items.joined(separator: "\n")
      + "\n</channel></rss>"
  }

  static let first: Feed = (0..<60).map {
    (id: "bike-\($0)", title: "Bike \($0)", price: 400 + $0, text: "A fine bike, number \($0).")
  }

  /// The polls after the first, each with what happens to the store before it.
  static func polls() -> [(feed: Feed, before: String?)] {
    var feed = first
    var polls: [(Feed, String?)] = [(feed, nil)]
    // A price drop, a new title, a new listing, one gone, ten moved.
    feed[3].price = 300
    feed[5].title = "Bike 5, now with lights"
    feed.remove(at: 7)
    feed.append((id: "bike-60", title: "Bike 60", price: 460, text: "Another one."))
    feed = Array(feed.dropFirst(10) + feed.prefix(10))
    polls.append((feed, nil))
    polls.append((feed, nil))
    // A repost of bike-8 under a new id, and a small drop (not announced) of bike-11.
    feed.append((id: "bike-61", title: "Bike 8", price: 408, text: "A fine bike, number 8."))
    if let index = feed.firstIndex(where: { $0.id == "bike-11" }) { feed[index].price = 410 }
    polls.append((feed, nil))
    polls.append((feed, nil))
    // bike-9 starred: its small price change is told.
    polls.append((feed, "star bike-9"))
    if let index = feed.firstIndex(where: { $0.id == "bike-9" }) { feed[index].price = 408 }
    polls.append((feed, nil))
    polls.append((feed, nil))
    // bike-12 hidden, and back to the first feed (bike-7 back, bike-60 gone).
    polls.append((first, "hide bike-12"))
    polls.append((first, nil))
    return polls
  }

  struct Played {
    var said: [[String]] = []
    var export: [String] = []
    var passable: [Int] = []
  }

  /// The polls against one server (the store keeps its URL), `serving` the feed it answers.
  static func play(passing: Bool, server: LoopbackServer, serving: Box<String>) async throws
    -> Played
  {
    let yaml = """
      version: 1
      searches:
        - name: bikes
          site: feed
          feeds: [\(server.base)/bikes.xml]
          interval: 1m
          notify_on: [new, price_drop, changed]
      """
    let loaded = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "bikes.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    let config = try #require(loaded.config)
    let path = RunnerLoopbackTests.state()
    var played = Played()
    var now = Date(timeIntervalSince1970: 1_795_000_000)
    for (step, poll) in ([(first, nil)] + polls()).enumerated() {
      serving.value = xml(poll.feed)
      if let before = poll.before {
        let store = try ListingStore.open(path: path, readOnly: false)
        let parts = before.split(separator: " ")
        let key = ListingKey(site: "feed", id: String(parts[1]))
        try store.setMark(parts[0] == "star" ? .star : .hide, on: [key], at: now)
      }
      let known =
        step == 0
        ? nil
        : try ListingStore.open(path: path, readOnly: false).unchangedItems(
          search: "bikes", site: "feed")
      played.passable.append(known?.ids.count ?? 0)
      var options = RunOptions(now: now)
      options.passesUnchanged = passing
      let result = try await RunnerLoopbackTests.runner(config, state: path).run(options)
        .commit()
      let search = try #require(result.searches.first)
      played.said.append(
        [
          "step \(step): \(search.status) fetched \(search.fetched) matched \(search.matched) "
            + "primed \(search.primed) failures \(search.failures) notes \(search.notes)"
        ] + search.new.map { "new \($0.id)" }
          + search.folded.map { "repost \($0.id) of \($0.repostOf)" }
          + search.changed.map { "\($0.event?.kind.rawValue ?? "?") \($0.id)" })
      now = now.addingTimeInterval(120)
    }
    try ListingStore.open(path: path, readOnly: true).export { played.export.append($0) }
    return played
  }

  @Test func passingOverUnchangedItemsChangesNothingARunSaysOrKeeps() async throws {
    let serving = Box(Self.xml(Self.first))
    let server = try LoopbackServer { _, _ in .init(body: Array(serving.value.utf8)) }
    let passing = try await Self.play(passing: true, server: server, serving: serving)
    let reading = try await Self.play(passing: false, server: server, serving: serving)
    #expect(passing.said.count == reading.said.count)
    for (step, (said, read)) in zip(passing.said, reading.said).enumerated() {
      #expect(said == read, "poll \(step)")
    }
    #expect(passing.export.count == reading.export.count)
    let differing = zip(passing.export, reading.export).filter { $0 != $1 }
    #expect(differing.isEmpty, "passed over, then read: \(differing.prefix(3))")
    // The polls did pass items over: after the first, every listing of the feed but the
    // starred one, and those whose price differs from the one announced.
    #expect(passing.passable[1] == 60)
    #expect(passing.passable.dropFirst().allSatisfy { $0 >= 50 }, "\(passing.passable)")
    #expect(reading.passable.allSatisfy { $0 == 0 }, "every item read: no digest kept")
    // What was announced, to be sure the polls exercise something.
    let all = passing.said.joined().joined(separator: "\n")
    for expected in ["new bike-60", "price_drop bike-3", "changed bike-5", "repost bike-61"] {
      #expect(all.contains(expected), "\(expected) in\n\(all)")
    }
  }

  @Test func aListingWhoseAddressIsNotPlacedKeepsNoDigest() {
    var placed = Listing(id: "a", site: "feed", url: "https://example.org/a", title: "A")
    placed.address = "Main Street 1"
    placed.coordinates = Coordinates(latitude: 47.4, longitude: 8.5)
    var waiting = Listing(id: "b", site: "feed", url: "https://example.org/b", title: "B")
    waiting.address = "Main Street 2"
    let bare = Listing(id: "c", site: "feed", url: "https://example.org/c", title: "C")
    var batch = SourceBatch(url: "https://example.org/feed", listings: [placed, waiting, bare])
    for listing in batch.listings { batch.digests[listing.key] = "digest of \(listing.id)" }
    let reading = SearchReading(batches: [batch])
    let planned = PlannedSearch(
      search: Search(name: "flats", site: "feed"), hold: false, prime: false, memory: nil)
    let judgements = batch.listings.map {
      Judgement(listing: $0, source: batch.url, reason: nil, verdict: .new)
    }
    let (_, record) = Act.on(
      judgements, of: planned, reading: reading, asked: [batch.url],
      outcome: RunResult.SearchOutcome(
        name: "flats", status: .ran, new: [], held: 0, delivered: [], fetched: 0, matched: 0,
        failures: [], notes: []),
      options: RunOptions())
    #expect(record.digests.keys.map(\.id).sorted() == ["a", "c"])
  }
}
