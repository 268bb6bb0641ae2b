public import ClarissaCore
public import Foundation

/// A listing's identity across runs and searches: its site and its id there.
public struct ListingKey: Hashable, Sendable, Codable, Comparable {
  /// The site adapter's id (`craigslist`, `feed`).
  public var site: String
  /// The listing's id within the site.
  public var id: String

  /// Creates a key.
  public init(site: String, id: String) {
    self.site = site
    self.id = id
  }

  public static func < (left: ListingKey, right: ListingKey) -> Bool {
    (left.site, left.id) < (right.site, right.id)
  }
}

extension Listing {
  /// The listing's identity in the store.
  public var key: ListingKey { ListingKey(site: site, id: id) }
}

/// What the store remembers of one search, for planning a run.
public struct SearchMemory: Sendable, Equatable {
  /// When the search last ran and reached a source (or had none to reach).
  public var lastRun: Date?
  /// When a run last tried the search, whatever came of it.
  public var lastAttempt: Date?
  /// The request URLs that have answered at least once; nil when every source counts as known
  /// (a state imported from a version that did not keep them).
  public var sources: Set<String>?
  /// Whether any listing was ever recorded for the search.
  public var hasListings: Bool

  /// Retries after an attempt that reached no source wait this long at most (less when the
  /// search's own interval is shorter).
  public static let retryDelay: Double = 900

  /// Creates a memory.
  public init(
    lastRun: Date? = nil, lastAttempt: Date? = nil, sources: Set<String>? = [],
    hasListings: Bool = false
  ) {
    self.lastRun = lastRun
    self.lastAttempt = lastAttempt
    self.sources = sources
    self.hasListings = hasListings
  }

  /// When the search is next due, given its interval; nil when it is due now (it never ran).
  /// After an attempt that reached no source, it is retried after the interval or
  /// ``retryDelay``, whichever is shorter: never at once, which in `watch` would ask a failing
  /// host again every second.
  public func nextDue(interval: Double) -> Date? {
    let retry = min(interval, Self.retryDelay)
    switch (lastRun, lastAttempt) {
    case (nil, nil): return nil
    case (nil, let attempt?): return attempt.addingTimeInterval(retry)
    case (let run?, let attempt?) where attempt > run: return attempt.addingTimeInterval(retry)
    case (let run?, _): return run.addingTimeInterval(interval)
    }
  }

  /// Whether `url` has answered before: a source answering for the first time is primed.
  public func knows(source url: String) -> Bool { sources?.contains(url) ?? true }

  /// True once a run has reached the search's sources (or found it had none to reach): until
  /// then the next run primes it, whatever failed runs left behind.
  public var hasRun: Bool { lastRun != nil || hasListings }
}

/// What the store remembers of a listing a search has seen before.
public struct Sighting: Sendable, Equatable {
  /// When the search first saw it.
  public var firstSeen: Date
  /// When the search last saw it.
  public var lastSeen: Date
  /// Channels that accepted it, in the order they did.
  public var deliveredTo: [String]
  /// Whether it waits in the quiet-hours queue.
  public var held: Bool
  /// The price it was last announced at (new, or a change): what a change is measured from.
  public var announcedPrice: Double? = nil

  /// Creates a sighting.
  public init(
    firstSeen: Date, lastSeen: Date, deliveredTo: [String] = [], held: Bool = false,
    announcedPrice: Double? = nil
  ) {
    self.firstSeen = firstSeen
    self.lastSeen = lastSeen
    self.deliveredTo = deliveredTo
    self.held = held
    self.announcedPrice = announcedPrice
  }
}

/// A delivery still owed: a new listing not yet accepted by a channel, or one a channel refused
/// before (with the attempts so far).
public struct OwedDelivery: Sendable, Equatable {
  /// Refused this many times, a delivery is given up (the run, `state info` and the web page
  /// count what is owed by it).
  public static let maxAttempts = 10

  /// The search that found the listing.
  public var search: String
  /// The listing as stored.
  public var listing: Listing
  /// The channel's name.
  public var channel: String
  /// Failed attempts so far (0: never tried).
  public var attempts: Int
  /// The last failure.
  public var lastError: String?

  /// Creates an entry.
  public init(
    search: String, listing: Listing, channel: String, attempts: Int = 0, lastError: String? = nil
  ) {
    self.search = search
    self.listing = listing
    self.channel = channel
    self.attempts = attempts
    self.lastError = lastError
  }
}

/// A listing found during a `hold` quiet-hours window, waiting for the window to end.
public struct HeldListing: Sendable, Equatable, Codable {
  /// The search that found it.
  public var search: String
  /// The listing.
  public var listing: Listing
  /// When it was found.
  public var heldAt: Date

  /// Creates a held entry.
  public init(search: String, listing: Listing, heldAt: Date) {
    self.search = search
    self.listing = listing
    self.heldAt = heldAt
  }
}

/// A listing a search found, for the Atom feeds and the HTML page.
public struct RecentListing: Sendable, Equatable, Codable {
  /// The search that found it.
  public var search: String
  /// The listing.
  public var listing: Listing
  /// When clarissa found it.
  public var found: Date

  /// Creates an entry.
  public init(search: String, listing: Listing, found: Date) {
    self.search = search
    self.listing = listing
    self.found = found
  }
}

/// Conditional-GET validators remembered for one URL.
public struct Validators: Codable, Sendable, Equatable {
  /// The `ETag` the server sent.
  public var etag: String?
  /// The `Last-Modified` the server sent.
  public var lastModified: String?

  /// Creates validators.
  public init(etag: String? = nil, lastModified: String? = nil) {
    self.etag = etag
    self.lastModified = lastModified
  }
}

/// What one search's part of a run leaves behind, written in one transaction once its listings
/// are handled: a crash later in the run loses none of it.
public struct SearchRecord: Sendable {
  /// The search.
  public var search: String
  /// When it is recorded: what is owed, held and shown as found is stamped with it.
  public var now: Date
  /// When the search's answer came (the latest of its sources'): its listings and sightings
  /// are seen then, never before an item could be in it; nil: `now`.
  public var answeredAt: Date? = nil
  /// When the run that made it began: the search ran then (`last_run`, `last_attempt`, from
  /// which it is next due); nil: `now`.
  public var began: Date? = nil
  /// Every listing that passed the filters, as the sources gave it: stored (fields, price
  /// history) and seen by the search now.
  public var seen: [Listing]
  /// Of `seen`, those to deliver: one owed delivery per listing and channel.
  public var owed: [Listing]
  /// The channels `owed` go to.
  public var channels: [String]
  /// Of `seen`, those held for the end of quiet hours.
  public var held: [Listing]
  /// Of `seen`, those shown on the page and in the feeds as found now.
  public var recent: [Listing]
  /// Of `seen`, listings seen before that are announced again (``Listing/event`` says why: a
  /// price change, a return): owed to `channels` as that event.
  public var changed: [Listing] = []
  /// Of `seen`, reposts: the id (same site) of the listing each one repeats.
  public var reposts: [ListingKey: String] = [:]
  /// Of `seen`, listings that are the same flat as one on another site (``SameFlat``): the key
  /// of that listing, linked from now on both ways.
  public var crossPosts: [ListingKey: ListingKey] = [:]
  /// The request URLs that answered: known from now on.
  public var answered: Set<String>
  /// The request URLs the search asks now (sources it no longer asks are forgotten).
  public var asked: Set<String>
  /// Validators to keep per URL: written with the listings they vouch for, so a 304 never
  /// hides listings a crash kept from being recorded.
  public var validators: [String: Validators]
  /// Whether the search reached a source (or had none to reach): it ran at `now`.
  public var reached: Bool
  /// The sources that failed in this run, with the reason (shown by `clarissa serve`).
  public var failures: [String] = []
  /// What the run's alerts for marked listings and text changes leave behind.
  public var alerts = AlertRecord()
  /// Of `seen`, the warning signs found for new listings (``ListingSignal``): kept, a
  /// listing's earlier signs of the same kind replaced.
  public var signals: [ListingKey: [ListingSignal]] = [:]
  /// Listings of the last answer passed over unread (``UnchangedItems``): nothing written.
  public var unchanged: [ListingKey] = []
  /// Of `seen`, the digests of the items that the next answer may pass over.
  public var digests: [ListingKey: String] = [:]

  /// Creates a record.
  public init(
    search: String, now: Date, seen: [Listing] = [], owed: [Listing] = [], channels: [String] = [],
    held: [Listing] = [], recent: [Listing] = [], answered: Set<String> = [],
    asked: Set<String> = [], validators: [String: Validators] = [:], reached: Bool
  ) {
    self.search = search
    self.now = now
    self.seen = seen
    self.owed = owed
    self.channels = channels
    self.held = held
    self.recent = recent
    self.answered = answered
    self.asked = asked
    self.validators = validators
    self.reached = reached
  }
}

/// Everything the run's stages ask of what clarissa remembers, and all they change in it. The
/// embedded implementation is ``ListingStore`` (SQLite); built with the trait `PostgreSQL`,
/// `PostgresStore` is the other. Both are written once, over ``StoreConnection``. Reads take keys (a run's cost follows
/// what it fetched, not the history); every write is its own transaction.
public protocol ListingMemory: AnyObject, Sendable {
  /// The memory of the named searches (those never run are absent).
  func searches(_ names: [String]) throws -> [String: SearchMemory]
  /// The stored validators of these URLs.
  func validators(for urls: [String]) throws -> [String: Validators]
  /// Every host cool-down, ended or not.
  func cooldowns() throws -> [String: Cooldown]
  /// What `search` has seen of these listings (absent: never seen by it).
  func lookUp(search: String, keys: [ListingKey]) throws -> [ListingKey: Sighting]
  /// For each of `listings` (new to the search), the earliest listing the search has seen since
  /// `since` that is the same item (``Fingerprint``): by title and price, or by a shared photo
  /// that is not a stock photo, never at another address. A listing of `present` (the answer
  /// being judged) is on the page beside the new one: it must show more to be its original.
  func originals(search: String, of listings: [Listing], since: Date, present: Set<ListingKey>)
    throws -> [ListingKey: Original]
  /// For each of `listings` (new to its search), the earliest-seen listing on another site
  /// that any search saw since `since` and that is the same flat (``SameFlat``): by
  /// coordinates, or by a photo where one of the two has none.
  func sameFlats(of listings: [Listing], since: Date) throws -> [ListingKey: CrossPost]
  /// Per listing, the others (any site, seen since `since`) showing one of its photos, not
  /// stock photos (``ConnectedStore/photoTwins(of:since:)``): `photo-elsewhere`'s evidence.
  func photoTwins(of listings: [Listing], since: Date) throws -> [ListingKey: [Listing]]
  /// Records a search's part of the run.
  func record(_ record: SearchRecord) throws
  /// Records a search's part of the run as `decide` makes it from what the store remembers of
  /// the search at that moment, in the same transaction (see ``SearchRecord``): whether a
  /// source is new to the search is never decided from an older reading.
  func record(search: String, deciding decide: (SearchMemory?) throws -> SearchRecord) throws
  /// Sets (or, with nil, lifts) a host's cool-down.
  func setCooldown(_ cooldown: Cooldown?, host: String) throws
  /// The held queue.
  func held() throws -> [HeldListing]
  /// Moves held listings of `search` to the owed deliveries of `channels`.
  func release(search: String, keys: [ListingKey], to channels: [String], at now: Date) throws
  /// Deliveries owed (never tried, or refused fewer than `maxAttempts` times), of `searches`
  /// only (nil: of every search).
  func owedDeliveries(maxAttempts: Int, searches: Set<String>?) throws -> [OwedDelivery]
  /// Whether any delivery is owed that this process may send (another worker's live claim
  /// excepted); claims nothing.
  func hasOwedDeliveries(maxAttempts: Int) throws -> Bool
  /// A channel accepted the listing.
  func markDelivered(search: String, key: ListingKey, channel: String, at now: Date) throws
  /// A channel accepted one message standing for all of `carried` (a digest, a summary; a
  /// scheduled digest carries several searches): recorded in one transaction, so a kill leaves
  /// all of them owed or none.
  func markDelivered(
    _ carried: [(search: String, keys: [ListingKey])], channel: String, at now: Date) throws
  /// A channel refused the listing; returns the attempts so far.
  func markFailed(
    search: String, key: ListingKey, channel: String, error: String, at now: Date
  ) throws -> Int
  /// The newest `limit` listings found by each of `searches`, newest first (for the Atom feeds
  /// and the HTML page; hidden listings left out).
  func recent(searches: [String], limit: Int) throws -> [RecentListing]
  /// Forgets listings no search has seen for `retention` seconds, and ended cool-downs;
  /// returns the rows removed, by table.
  @discardableResult func prune(now: Date, retention: TimeInterval) throws -> StoreCounts
  /// Per search, its listings nobody has viewed (the JSON report says it after a run).
  func unviewedCounts() throws -> [String: Int]
  /// What `geocoder` (its URL) answered for these addresses (``Geocode``), failures with their
  /// back-off included; an address never asked, or one that found nothing before
  /// `retryingBefore`, is absent.
  func geocodes(_ queries: [String], geocoder: String, retryingBefore: Date) throws
    -> [String: Geocode]
  /// Keeps `geocoder`'s answer, or its failure, for an address.
  func rememberGeocode(_ query: String, geocoder: String, _ answer: Geocode) throws
  /// The travel times kept for these grid cells (``CommuteGrid/key(_:)``) from `place`
  /// (``CommuteGrid/placeKey(_:)``) by `mode` with `engine` (``RoutingEngine/cacheName``), in
  /// minutes, nil inside where the engine found no route; a cell never asked is absent.
  func travelTimes(engine: String, mode: TravelMode, place: String, cells: [String]) throws
    -> [String: Double?]
  /// Keeps an engine's answers by cell (nil: no route), asked at `now`, in one transaction.
  func rememberTravelTimes(
    engine: String, mode: TravelMode, place: String, _ times: [String: Double?], at now: Date)
    throws
  /// What is kept of these photo addresses (``PhotoHash``); a photo never fetched is absent.
  func photoHashes(_ urls: [String]) throws -> [String: PhotoHash]
  /// Keeps fetched photos' hashes, or why they were refused, in one transaction.
  func rememberPhotoHashes(_ photos: [PhotoHash]) throws
  /// The marks a person set on these listings (``ListingMarks``); unmarked ones are absent.
  func marks(of keys: [ListingKey]) throws -> [ListingKey: ListingMarks]
  /// The keys of the starred, hidden or noted listings, the most recently marked first.
  func markedKeys(_ kind: MarkKind) throws -> [ListingKey]
  /// Changes one mark on listings, in one transaction; returns how many listings' marks changed.
  /// Hiding a listing also marks it viewed (it leaves the unviewed counts).
  @discardableResult func setMark(_ mark: ListingMark, on keys: [ListingKey], at now: Date) throws
    -> Int
  /// The priced listings `search` saw since `since`, reposts left out (`DealContext`, module
  /// Presentation).
  func peers(search: String, since: Date) throws -> [DealPeer]
  /// The warning signs kept for each of `keys` (``SearchRecord/signals``); none: absent.
  func signals(of keys: [ListingKey]) throws -> [ListingKey: [ListingSignal]]
  /// For each of `keys` that `search` saw, the posts of the same item (``ListingStory``).
  func stories(search: String, keys: [ListingKey]) throws -> [ListingKey: ListingStory]
  /// Per channel of `channels` that is owed deliveries, how many and since when
  /// (``PendingDigest``).
  func pending(channels: [String], maxAttempts: Int) throws -> [String: PendingDigest]
  /// What a run of `search` judges with beside the sightings: the starred and hidden listings,
  /// and the search's watched starred listings with their sources (``MarkedListings``).
  func markedListings(search: String) throws -> MarkedListings
  /// Of `listings` (seen before), those whose stored content hash differs from theirs, with the
  /// title and description stored: the text before, if it changed (found `now`).
  func textsBefore(_ listings: [Listing], at now: Date) throws -> [ListingKey: TextChange]
  /// The items of `search`'s last answer `site` may pass over (``UnchangedItems``).
  func unchangedItems(search: String, site: String) throws -> UnchangedItems
}

/// What `clarissa serve`, `listings` and the API read and change, beside the run's
/// operations: the listings found, their stories, viewed marks, the searches' standing. Both
/// stores have it (``ListingStore``; with the trait, `PostgresStore`), written once.
public protocol BrowsableStore: ListingMemory {
  /// The listings the searches found, newest first.
  func listings(_ query: ListingQuery) throws -> [FoundListing]
  /// The listings on other sites each of `keys` is the same flat as, both ways.
  func alsoOn(_ keys: [ListingKey]) throws -> [ListingKey: [AlsoOn]]
  /// The listings the query finds that have coordinates, newest first, each once (the map).
  func mapped(_ query: ListingQuery) throws -> [MappedListing]
  /// Marks every listing the query finds viewed; returns how many were newly marked.
  @discardableResult func markViewed(matching query: ListingQuery, at now: Date) throws -> Int
  /// Marks listings viewed; returns how many were newly marked.
  @discardableResult func markViewed(_ keys: [ListingKey], at now: Date) throws -> Int
  /// The keys of listings with this id (`SITE:ID` picks one site).
  func keys(matching id: String) throws -> [ListingKey]
  /// A listing's whole story, or nil when the store does not have it.
  func history(_ key: ListingKey) throws -> ListingHistory?
  /// A search's median price per m² (or price) week by week, in `currency`, over the weeks
  /// from `from` to `through` (``MarketWeeks``).
  func marketWeeks(search: String, currency: String?, from: Date, through: Date) throws
    -> MarketWeeks
  /// Every search the store knows, with its last runs and unviewed count.
  func standings() throws -> [String: SearchStanding]
  /// The prices each listing was seen at, oldest first.
  func prices(of keys: [ListingKey]) throws -> [ListingKey: [ListingHistory.Price]]
  /// How many posts a search folded into each of these listings.
  func foldedCounts(search: String, keys: [ListingKey]) throws -> [ListingKey: Int]
  /// The store's version and the last time a search was tried (`/healthz`).
  func health() throws -> StoreHealth
  /// What the listing's text was before each change found, newest first.
  func textChanges(of key: ListingKey) throws -> [TextChange]
}
