import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Synchronization
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// Reposts and cross-posts folded, on the real sfbay sapi page (360 rows; 69 of them in 23 groups
/// that share a title and a price, so 46 repeat another) and on the bundled replay.
@Suite(.serialized) struct FoldTests {
  static let now = Date(timeIntervalSince1970: 1_780_000_000)

  /// Every row of the real page, judged as a `--notify-first-run` judges them.
  static func foldedPage(duplicates: DuplicateMode = .fold) throws -> [Judgement] {
    let site = CraigslistSite()
    let request = site.request(forSavedResponseIn: "api", city: "sfbay")
    let listings = try site.listings(
      from: SourceResponse(
        request: request, body: try Fixtures.bytes("craigslist/sfbay-sss-sapi-1.json"))
    ).listings
    var search = Search(name: "ipads", site: "craigslist")
    search.duplicates = duplicates
    let planned = PlannedSearch(search: search, hold: false, prime: false, memory: nil)
    let judgements = listings.map {
      Judgement(listing: $0, source: request.url, reason: nil, verdict: .new)
    }
    let store = try ListingStore.open(path: ":memory:", readOnly: false)
    return try Judge.fold(
      judgements, of: planned, memory: store, options: RunOptions(now: now, notifyFirstRun: true))
  }

  /// Announced rows that repeat another announced row's title and price.
  static func repeatedAnnounced(_ judgements: [Judgement]) -> Int {
    let announced = judgements.filter { $0.verdict == .new }.map(\.listing)
    let groups = Dictionary(grouping: announced) {
      "\(Fingerprint.title($0.title))|\($0.price ?? -1)"
    }
    return groups.values.reduce(0) { $0 + $1.count - 1 }
  }

  @Test func ofTheRealPagesRepeatedRowsAtMostTwoAreAnnounced() throws {
    let plain = try Self.foldedPage(duplicates: .notify)
    #expect(plain.count == 360)
    // 46 rows repeat another's title as written; with titles folded (case, punctuation) 49.
    #expect(Self.repeatedAnnounced(plain) == 49, "the page as it is")
    let folded = try Self.foldedPage()
    #expect(Self.repeatedAnnounced(folded) <= 2)
    let reposts = folded.filter {
      if case .repost = $0.verdict { return true } else { return false }
    }
    #expect(reposts.count >= 44)
    // The seller who posted one ad 17 times: announced once.
    let buyer = folded.filter { $0.listing.title.hasPrefix("💥We Buy iPhone 17") }
    #expect(buyer.count == 17)
    #expect(buyer.filter { $0.verdict == .new }.count == 1)
  }

  /// Listings that share a title but neither a price nor a photo are different items (checked by
  /// hand on the page): both are announced.
  @Test(arguments: [
    ("7930621188", "7916731731"),  // "apple ipad air 2": $100 without photos, $50 with eight
    ("7927702356", "7928027399"),  // "Apple iPad Mini 4 - WIFI only": $140 and $145, own photos
  ])
  func differentItemsWithOneTitleAreNotFolded(first: String, second: String) throws {
    let folded = try Self.foldedPage()
    for id in [first, second] {
      let judgement = try #require(folded.first { $0.listing.id == id })
      #expect(judgement.verdict == .new, "\(id) is its own item")
    }
  }

  /// A repost with another price but the same photos and title is the same item: in one
  /// answer because the seller's map pin is the same too, on a later run by the photo alone.
  /// Without the pin, two such ids side by side are not folded (a landlord's flats share a
  /// photo and a title).
  @Test func aRepostWithAnotherPriceAndTheSamePhotosIsFolded() throws {
    let folded = try Self.foldedPage()
    // "Lilly Pulitzer silicone iPad/tablet cover", $5 and $8, the same four photos.
    let covers = folded.filter { $0.listing.title.hasPrefix("Lilly Pulitzer") }
    #expect(covers.count == 6)
    #expect(covers.filter { $0.verdict == .new }.count == 1)
    var (five, eight) = try (
      #require(covers.first { $0.listing.price == 5 }?.listing),
      #require(covers.first { $0.listing.price == 8 }?.listing)
    )
    #expect(Fingerprint.sameItem(five, eight, inOneAnswer: true) == .place)
    (five.coordinates, eight.coordinates) = (nil, nil)
    #expect(Fingerprint.sameItem(five, eight, inOneAnswer: true) == nil)
    let later = Fingerprint.sameItem(five, eight)
    guard case .photo = later else {
      Issue.record("a later repost at another price: \(String(describing: later))")
      return
    }
  }

  /// Craigslist's own duplicate groups (a negative number in the row): on this page 39 local
  /// rows in 12 groups, and the fingerprint joins every member of every group to the group's
  /// first, so the two signals agree. Each group is announced at most once: the seller of 17
  /// "We Buy iPhone" posts is in two of the site's groups (11 and 4 posts), and the fingerprint
  /// joins those too, so 11 groups are announced.
  @Test func theSitesOwnDuplicateGroupsAreAnnouncedOnce() throws {
    let folded = try Self.foldedPage()
    let groups = Dictionary(grouping: folded.filter { $0.listing.duplicateGroup != nil }) {
      $0.listing.duplicateGroup ?? ""
    }
    #expect(groups.count == 12)
    #expect(groups.values.reduce(0) { $0 + $1.count } == 39)
    #expect(folded.filter { $0.listing.duplicateGroup != nil && $0.verdict == .new }.count == 11)
    for (group, members) in groups {
      #expect(members.filter { $0.verdict == .new }.count <= 1, "group \(group)")
      let items = members.map { judgement in
        var listing = judgement.listing
        listing.duplicateGroup = nil
        return Fingerprint.Item(listing)
      }
      #expect(
        items.dropFirst().allSatisfy {
          items[0].evidence($0, inOneAnswer: false, stock: []) != nil
        },
        "group \(group)")
    }
  }

  /// Where the fingerprint cannot tell (the AIRBUD pair, $8 and $7, given new photos), the
  /// site's group still folds them.
  @Test func theSitesGroupFoldsWhatTheFingerprintCannotTell() throws {
    var run = Fingerprint.RunIndex()
    let pair = try Self.foldedPage().map(\.listing).filter { $0.title.hasPrefix("AIRBUD") }
    #expect(pair.map(\.price) == [8, 7])
    var repainted = pair[1]
    repainted.imageURLs = ["https://images.craigslist.org/00x0x_newPhotoOfIt_600x450.jpg"]
    #expect(Fingerprint.sameItem(pair[0], repainted) == nil)
    run.add(Fingerprint.Item(pair[0]), firstSeen: nil)
    #expect(run.match(Fingerprint.Item(repainted))?.listing.id == pair[0].id)
    repainted.duplicateGroup = nil
    #expect(run.match(Fingerprint.Item(repainted)) == nil)
  }

  @Test func theReadmeCommandNoLongerPrintsAnItemTwice() async throws {
    let config = try RunnerTests.config()
    let result = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "default", state: RunnerTests.temporaryState()),
      RunOptions(now: RunnerTests.noon, dryRun: true, notifyFirstRun: true))
    for search in result.searches {
      let keys = search.new.map { "\(Fingerprint.title($0.title))|\($0.price ?? -1)" }
      #expect(Set(keys).count == keys.count, "\(search.name) prints an item twice")
    }
    #expect(result.searches.reduce(0) { $0 + $1.folded.count } > 0)
  }

  @Test func aRepostOnALaterRunIsRecordedAndLinkedNotAnnounced() async throws {
    let feed = try LoopbackServerFeed(["a"])
    let config = try RunnerLoopbackTests.config([feed.url])
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state)
    _ = try await runner.run(RunOptions(now: Self.now, notifyFirstRun: true)).commit()
    // The seller posts the same desk again: a new id, the same title and price.
    feed.items = ["a", "a-again"]
    let later = try await runner.run(RunOptions(now: Self.now.addingTimeInterval(3600)))
      .commit()
    #expect(later.searches[0].new.isEmpty)
    #expect(later.searches[0].folded.map(\.repostOf) == ["a"])
    #expect(later.searches[0].folded.first?.firstSeen == Self.now)
    let link = try Stored(state).store.locked { database in
      try database.rows("SELECT repost_of FROM sightings WHERE id = 'a-again'") {
        $0.optionalText(0)
      }
    }
    #expect(link == ["a"])
    // With `duplicates: notify` the same answer announces it.
    var notifying = config
    notifying.searches[0].duplicates = .notify
    let other = RunnerTests.temporaryState()
    let plain = RunnerLoopbackTests.runner(notifying, state: other)
    feed.items = ["a"]
    _ = try await plain.run(RunOptions(now: Self.now, notifyFirstRun: true)).commit()
    feed.items = ["a", "a-again"]
    let announced = try await plain.run(RunOptions(now: Self.now.addingTimeInterval(3600)))
      .commit()
    #expect(announced.searches[0].new.map(\.id) == ["a-again"])
  }
}

extension FoldTests {
  /// A digest, and a message of its own, name the posts folded into the listing they carry.
  @Test func messagesNameTheOtherPosts() async throws {
    let feed = try LoopbackServerFeed(["a", "a-again", "a-third"])
    let receiver = try LoopbackServer { _, _ in .init(status: 200) }
    let config = try RunnerTests.config(
      """
      version: 1
      notify:
        daily: {url: "json://127.0.0.1:\(receiver.port)/digest", digest: true}
        each: json://127.0.0.1:\(receiver.port)/each
      searches:
        - name: desks
          site: feed
          feeds: [\(feed.url)]
          notify: [daily, each]
      """)
    let runner = RunnerLoopbackTests.runner(config, state: RunnerTests.temporaryState())
      .delivering(to: config)
    let result = try await runner.run(RunOptions(now: Self.now, notifyFirstRun: true)).commit()
    #expect(result.searches[0].new.map(\.id) == ["a"])
    let bodies = receiver.requests.map(\.text)
    #expect(bodies.count == 2)
    let digest = try #require(bodies.first { $0.contains("1 new for desks") })
    #expect(digest.contains(#"also posted as a-again, a-third"#), "\(digest)")
    #expect(digest.contains(#""alsoPostedAs":["a-again","a-third"]"#))
    let each = try #require(bodies.first { !$0.contains("1 new for desks") })
    #expect(each.contains(#"also posted as a-again, a-third"#), "\(each)")
  }
}

/// A loopback RSS feed whose items (desks priced $120, titled alike) can change between runs.
final class LoopbackServerFeed: Sendable {
  /// The items' ids and their prices.
  private let feed: Mutex<(ids: [String], amounts: [String: Int])>
  private let server = Mutex<LoopbackServer?>(nil)

  /// Prices by id (default $120).
  var prices: [String: Int] {
    get { feed.withLock { $0.amounts } }
    set { feed.withLock { $0.amounts = newValue } }
  }

  var items: [String] {
    get { feed.withLock { $0.ids } }
    set { feed.withLock { $0.ids = newValue } }
  }

  var url: String { (server.withLock { $0?.base } ?? "") + "/feed.xml" }

  init(_ items: [String]) throws {
    feed = Mutex((items, [:]))
    let made = try LoopbackServer { [weak self] _, _ in
      let prices = self?.prices ?? [:]
      let entries = (self?.items ?? []).map {
        "<item><title>Oak desk $\(prices[$0] ?? 120)</title><link>http://127.0.0.1/d/\($0)</link>"
          + "<guid>\($0)</guid></item>"
      }.joined()
      return .text("<rss version=\"2.0\"><channel><title>t</title>\(entries)</channel></rss>")
    }
    server.withLock { $0 = made }
  }
}
