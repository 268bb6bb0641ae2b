import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Synchronization
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// What ``ListingMemory`` promises, checked on both stores with the same tests: the run's
/// stages see no difference between SQLite and PostgreSQL.
@Suite(.serialized) struct StoreConformanceTests {
  static let start = StoreSamples.start
  static let listing = StoreSamples.listing
  static let record = StoreSamples.record

  @Test(arguments: StoreKind.built)
  func aSearchRemembersItsRunsAndTheSourcesThatAnsweredAndAreStillAsked(kind: StoreKind) throws {
    let store = try kind.open()
    #expect(try store.searches(["bikes"]).isEmpty)
    try store.record(Self.record("bikes", 0, [], [], [], ["a", "b"], ["a", "b", "c"]))
    var memory = try #require(try store.searches(["bikes"])["bikes"])
    #expect(memory.sources == ["a", "b"])
    #expect(memory.lastRun == Self.start && memory.lastAttempt == Self.start)
    try store.record(Self.record("bikes", 60, [], [], [], ["c"], ["b", "c"]))
    memory = try #require(try store.searches(["bikes"])["bikes"])
    #expect(memory.sources == ["b", "c"])
    // An attempt that reached nothing keeps the last run.
    var failed = Self.record("bikes", 120, [], [], [], [], ["b", "c"])
    failed.reached = false
    failed.failures = ["b: timed out"]
    try store.record(failed)
    memory = try #require(try store.searches(["bikes"])["bikes"])
    #expect(memory.lastRun == Self.start.addingTimeInterval(60))
    #expect(memory.lastAttempt == Self.start.addingTimeInterval(120))
    #expect(!memory.hasListings)
  }

  @Test(arguments: StoreKind.built)
  func anOwedDeliveryIsDeliveredOnceAndARefusalCountsUpToTheMaximum(kind: StoreKind) throws {
    let store = try kind.open()
    let (a, b) = (Self.listing("a", 100, "Bike"), Self.listing("b", 100, "Bike"))
    try store.record(Self.record("bikes", 0, [a, b], [a, b], [], [], []))
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["a", "b"])
    try store.markDelivered(search: "bikes", key: a.key, channel: "phone", at: Self.start)
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["b"])
    try store.record(Self.record("bikes", 60, [a], [a], [], [], []))
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["b"])
    for attempt in 1...3 {
      let counted = try store.markFailed(
        search: "bikes", key: b.key, channel: "phone", error: "503 #\(attempt)", at: Self.start)
      #expect(counted == attempt)
    }
    #expect(try store.owedDeliveries(maxAttempts: 3).isEmpty)
    let retried = try store.owedDeliveries(maxAttempts: 4)
    #expect(
      retried.map { "\($0.listing.id) \($0.attempts) \($0.lastError ?? "")" } == ["b 3 503 #3"])
    #expect(retried.first?.listing == b, "the listing comes back as it was recorded")
  }

  @Test(arguments: StoreKind.built)
  func oneMessageForSeveralListingsIsRecordedForAllOfThem(kind: StoreKind) throws {
    let store = try kind.open()
    let listings = ["a", "b", "c"].map { Self.listing($0, 100, "Bike \($0)") }
    try store.record(Self.record("bikes", 0, listings, listings, [], [], []))
    try store.markDelivered(
      search: "bikes", keys: listings.prefix(2).map(\.key), channel: "phone", at: Self.start)
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["c"])
    try store.markDelivered(search: "bikes", keys: [], channel: "phone", at: Self.start)
    try store.markDelivered(
      search: "bikes", keys: [listings[2].key], channel: "phone", at: Self.start)
    #expect(try store.owedDeliveries(maxAttempts: 3).isEmpty)
  }

  @Test(arguments: StoreKind.built)
  func oneMessageForSeveralSearchesIsRecordedForEveryOne(kind: StoreKind) throws {
    let store = try kind.open()
    let listings = ["a", "b", "c"].map { Self.listing($0, 100, "Bike \($0)") }
    try store.record(Self.record("bikes", 0, listings, listings, [], [], []))
    try store.record(Self.record("frames", 0, listings, listings, [], [], []))
    // A scheduled digest carrying both searches' parts (the same listing in each too).
    try store.markDelivered(
      [("bikes", listings.map(\.key)), ("frames", [listings[0].key, listings[2].key])],
      channel: "phone", at: Self.start)
    let owed = try store.owedDeliveries(maxAttempts: 3)
    #expect(owed.map { "\($0.search) \($0.listing.id)" } == ["frames b"])
  }

  @Test(arguments: StoreKind.built)
  func aChangeOwedOverANewDeliveryIsSentOnceAsItIsNow(kind: StoreKind) throws {
    let store = try kind.open()
    let bike = Self.listing("1", 100, "Bike")
    try store.record(Self.record("bikes", 0, [bike], [bike], [], [], []))
    var cheaper = bike
    cheaper.price = 80
    cheaper.event = ListingEvent(kind: .priceDrop, oldPrice: 100)
    var change = Self.record("bikes", 60, [cheaper], [], [], [], [])
    change.changed = [cheaper]
    try store.record(change)
    let owed = try store.owedDeliveries(maxAttempts: 3)
    #expect(owed.count == 1)
    #expect(owed.first?.listing.event == ListingEvent(kind: .priceDrop, oldPrice: 100))
    #expect(owed.first?.listing.price == 80)
    try store.markDelivered(search: "bikes", key: bike.key, channel: "phone", at: Self.start)
    #expect(try store.owedDeliveries(maxAttempts: 3).isEmpty, "one receipt closes both")
    let sighting = try #require(try store.lookUp(search: "bikes", keys: [bike.key])[bike.key])
    #expect(sighting.announcedPrice == 80)
    #expect(sighting.deliveredTo == ["phone"])
  }

  @Test(arguments: StoreKind.built)
  func aLookUpSaysWhenItWasSeenWhereItWentAndWhetherItIsHeld(kind: StoreKind) throws {
    let store = try kind.open()
    let (a, b) = (Self.listing("a", 100, "Bike"), Self.listing("b", 50, "Lamp"))
    var first = Self.record("bikes", 0, [a, b], [a], [b], [], [])
    first.channels = ["phone", "mail"]
    try store.record(first)
    try store.record(Self.record("bikes", 600, [a], [], [], [], []))
    try store.markDelivered(search: "bikes", key: a.key, channel: "mail", at: Self.start)
    try store.markDelivered(
      search: "bikes", key: a.key, channel: "phone", at: Self.start.addingTimeInterval(5))
    let seen = try store.lookUp(
      search: "bikes", keys: [a.key, b.key, ListingKey(site: "feed", id: "never")])
    #expect(seen.count == 2)
    #expect(seen[a.key]?.firstSeen == Self.start)
    #expect(seen[a.key]?.lastSeen == Self.start.addingTimeInterval(600))
    #expect(seen[a.key]?.deliveredTo == ["mail", "phone"], "in the order they accepted")
    #expect(seen[a.key]?.held == false && seen[b.key]?.held == true)
    #expect(try store.lookUp(search: "other", keys: [a.key]).isEmpty)
    #expect(try store.held().map { "\($0.search) \($0.listing.id)" } == ["bikes b"])
    try store.release(search: "bikes", keys: [b.key], to: ["phone"], at: Self.start)
    #expect(try store.held().isEmpty)
    #expect(try store.owedDeliveries(maxAttempts: 3).map(\.listing.id) == ["b"])
  }

  @Test(arguments: StoreKind.built)
  func aRepostIsFoundByItsFingerprintOrAPhotoItShares(kind: StoreKind) throws {
    let store = try kind.open()
    let original = Self.listing("1", 100, "Red bike")
    var unrelated = Self.listing("2", 900, "Sofa")
    unrelated.imageURLs = []
    try store.record(Self.record("bikes", 0, [original, unrelated], [], [], [], []))
    var again = Self.listing("3", 100, "Red bike")
    again.imageURLs = []
    var samePhoto = Self.listing("4", 100, "Red bicycle, like new")
    samePhoto.imageURLs = original.imageURLs
    let found = try store.originals(
      search: "bikes", of: [again, samePhoto, Self.listing("5", 10, "Chair")],
      since: Self.start.addingTimeInterval(-86_400))
    #expect(found[again.key]?.id == "1")
    #expect(found[samePhoto.key]?.id == "1")
    #expect(found.count == 2)
    #expect(try store.originals(search: "other", of: [again], since: .distantPast).isEmpty)
  }

  @Test(arguments: StoreKind.built)
  func recentIsTheNewestPerSearchAndChangesReplaceTheirEntry(kind: StoreKind) throws {
    let store = try kind.open()
    for index in 0..<5 {
      let listing = Self.listing("\(index)", 100, "Bike")
      try store.record(
        Self.record(index % 2 == 0 ? "even" : "odd", Double(index) * 60, [listing], [], [], [], []))
    }
    var recent = try store.recent(searches: ["even", "odd"], limit: 2)
    #expect(
      recent.map { "\($0.search) \($0.listing.id)" } == ["even 4", "odd 3", "even 2", "odd 1"])
    var cheaper = Self.listing("0", 70, "Bike")
    cheaper.event = ListingEvent(kind: .priceDrop, oldPrice: 100)
    var change = Self.record("even", 600, [cheaper], [], [], [], [])
    change.changed = [cheaper]
    try store.record(change)
    recent = try store.recent(searches: ["even"], limit: 1)
    #expect(recent.first?.listing.id == "0")
    #expect(recent.first?.listing.event?.oldPrice == 100)
  }

  @Test(arguments: StoreKind.built)
  func coolDownsAndValidatorsAreReplacedAndLifted(kind: StoreKind) throws {
    let store = try kind.open()
    let cooldown = Cooldown(
      until: Self.start.addingTimeInterval(3600), reason: "answered 403 Forbidden",
      since: Self.start, status: 403, answer: "blocked", urls: ["https://a/1", "https://a/2"])
    try store.setCooldown(cooldown, host: "a")
    try store.setCooldown(cooldown, host: "b")
    var longer = cooldown
    longer.until = Self.start.addingTimeInterval(7200)
    try store.setCooldown(longer, host: "a")
    try store.setCooldown(nil, host: "b")
    #expect(try store.cooldowns() == ["a": longer])
    var validated = Self.record("bikes", 0, [], [], [], [], [])
    validated.validators = ["https://a/1": Validators(etag: "\"v1\"")]
    try store.record(validated)
    validated.validators = ["https://a/1": Validators(etag: "\"v2\"", lastModified: "Mon")]
    try store.record(validated)
    #expect(
      try store.validators(for: ["https://a/1", "https://a/9"])
        == ["https://a/1": Validators(etag: "\"v2\"", lastModified: "Mon")])
  }

  @Test(arguments: StoreKind.built)
  func pruningForgetsWhatNoSearchSawForTheRetentionAndKeepsTheRest(kind: StoreKind) throws {
    let store = try kind.open()
    let (old, fresh) = (Self.listing("old", 100, "Bike"), Self.listing("fresh", 100, "Lamp"))
    try store.record(Self.record("bikes", 0, [old, fresh], [old], [], [], []))
    try store.record(Self.record("bikes", 2 * 86_400, [fresh], [], [], [], []))
    try store.setCooldown(
      Cooldown(until: Self.start.addingTimeInterval(60), reason: "x"), host: "gone")
    #expect(try store.unviewedCounts() == ["bikes": 2])
    let counts = try store.prune(
      now: Self.start.addingTimeInterval(3 * 86_400), retention: 1.5 * 86_400)
    #expect(counts["sightings"] == 1 && counts["listings"] == 1 && counts["deliveries"] == 1)
    #expect(counts["cooldowns"] == 1)
    #expect(
      try store.lookUp(search: "bikes", keys: [old.key, fresh.key]).keys.map(\.id) == ["fresh"])
    #expect(try store.unviewedCounts() == ["bikes": 1], "the triggers follow the prune")
  }

  @Test(arguments: StoreKind.built)
  func browsingFindsFiltersMarksViewedAndTellsAListingsStory(kind: StoreKind) throws {
    let memory = try kind.open()
    let store = try #require(memory as? any BrowsableStore)
    var (red, blue, lamp) = (
      Self.listing("1", 100, "Red bike"), Self.listing("2", 300, "Blue bike"),
      Self.listing("3", 40, "Desk lamp")
    )
    blue.imageURLs = []
    lamp.imageURLs = []
    try store.record(Self.record("bikes", 0, [red, blue], [red], [], [], []))
    try store.record(Self.record("lamps", 60, [lamp], [], [], [], []))
    try store.markDelivered(search: "bikes", key: red.key, channel: "phone", at: Self.start)
    red.price = 90
    try store.record(Self.record("bikes", 120, [red], [], [], [], []))
    var query = ListingQuery()
    #expect(try store.listings(query).map(\.listing.id) == ["3", "1", "2"], "newest first")
    query.words = ["BIKE"]
    query.maxPrice = 200
    let found = try store.listings(query)
    #expect(found.map(\.listing.id) == ["1"], "words in any case, and the price")
    #expect(found.first?.deliveredTo == ["phone"])
    query = ListingQuery()
    query.searches = ["bikes"]
    query.unviewed = true
    #expect(try store.markViewed([red.key], at: Self.start) == 1)
    #expect(try store.listings(query).map(\.listing.id) == ["2"])
    #expect(try store.unviewedCounts() == ["bikes": 1, "lamps": 1])
    #expect(try store.markViewed(matching: query, at: Self.start) == 1, "mark all viewed")
    #expect(try store.listings(query).isEmpty)
    #expect(try store.standings()["bikes"]?.unviewed == 0)
    #expect(try store.standings()["lamps"]?.lastRun == Self.start.addingTimeInterval(60))
    let story = try #require(try store.history(red.key))
    #expect(story.prices.map(\.price) == [100, 90])
    #expect(story.searches.map(\.search) == ["bikes"])
    #expect(story.searches.first?.deliveries.map(\.channel) == ["phone"])
    #expect(story.viewedAt == Self.start)
    #expect(try store.prices(of: [red.key])[red.key]?.count == 2)
    #expect(try store.keys(matching: "feed:2") == [blue.key])
    #expect(try store.health().schemaVersion >= 2)
  }

  /// A whole run, three times, through the real fetcher and a loopback feed: the first primes,
  /// the second finds the one listing added, the third nothing.
  @Test(arguments: StoreKind.built)
  func runsOnTheStoreFindOnlyWhatIsNew(kind: StoreKind) async throws {
    let items = Counter(3)
    let server = try LoopbackServer { _, _ in
      .text(Self.rss(items.value), headers: ["Content-Type": "application/rss+xml"])
    }
    let config = try RunnerLoopbackTests.config([server.base + "/feed.xml"])
    let runner = RunnerLoopbackTests.runner(config, state: try kind.location())
    let first = try await runner.run(RunOptions(now: Date())).commit()
    #expect(first.searches.first?.status == .primed)
    items.value = 4
    let second = try await runner.run(RunOptions(now: Date(), force: true)).commit()
    #expect(second.searches.first?.new.map(\.id) == ["item-4"])
    let third = try await runner.run(RunOptions(now: Date(), force: true)).commit()
    #expect(third.searches.first?.new.isEmpty == true)
    #expect(third.searches.first?.fetched == 4)
    #expect(server.requests.count == 3)
  }

  static func rss(_ count: Int) -> String {
    let items = (1...count).map {
      "<item><title>Bike \($0)</title><link>https://feeds.example.org/item-\($0)</link>"
        + "<guid>item-\($0)</guid><description>$\($0)0</description></item>"
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title>"
      + items.joined() + "</channel></rss>"
  }
}

/// A number shared with a server's handler.
typealias Counter = Box<Int>

/// A value shared with a server's handler: the handler reads it, the test changes it.
final class Box<T: Sendable>: Sendable {
  private let stored: Mutex<T>
  init(_ value: T) { stored = Mutex(value) }
  var value: T {
    get { stored.withLock { $0 } }
    set { stored.withLock { $0 = newValue } }
  }
}
