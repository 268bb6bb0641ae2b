internal import Foundation

/// A table's columns, declared once: each case's raw value is the column's name, which a query
/// selects (or gives a computed value as its alias) and a row is read by (``StoreRow``). The
/// `listings` table's facts are declared apart, by ``ListingField/all`` (``ListingColumns``).
protocol TableColumns: RawRepresentable<String>, CaseIterable {}

extension TableColumns {
  /// Its place among ``allCases``: the case's tag, which Swift numbers in the order the cases
  /// are declared in an enum without payloads (``StoreColumnIndex`` checks it once per type).
  var place: Int { withUnsafeBytes(of: self) { $0.isEmpty ? 0 : Int($0[0]) } }

  /// `a, b, c`, each after `prefix.` when given: the columns named, for a SELECT.
  static func list(_ columns: [Self], _ prefix: String? = nil) -> String {
    columns.map { (prefix.map { $0 + "." } ?? "") + $0.rawValue }.joined(separator: ", ")
  }
}

extension StoreRow {
  /// Whether the column is null.
  func isNull(_ column: some TableColumns) -> Bool { isNull(position(of: column)) }
  /// An integer (0 when null).
  func int(_ column: some TableColumns) -> Int { int(position(of: column)) }
  /// A number (0 when null).
  func double(_ column: some TableColumns) -> Double { double(position(of: column)) }
  /// A text, or nil when null.
  func optionalText(_ column: some TableColumns) -> String? {
    optionalText(position(of: column))
  }
  /// A text ("" when null).
  func text(_ column: some TableColumns) -> String { text(position(of: column)) }
  /// A number, or nil when null.
  func optionalDouble(_ column: some TableColumns) -> Double? {
    optionalDouble(position(of: column))
  }
  /// An integer, or nil when null.
  func optionalInt(_ column: some TableColumns) -> Int? {
    optionalInt(position(of: column))
  }
  /// A flag (an integer, or PostgreSQL's boolean) as true when not 0.
  func flag(_ column: some TableColumns) -> Bool { int(column) != 0 }
  /// A time in seconds since 1970.
  func date(_ column: some TableColumns) -> Date {
    Date(timeIntervalSince1970: double(column))
  }
  /// A time in seconds since 1970, or nil when null.
  func optionalDate(_ column: some TableColumns) -> Date? {
    optionalDouble(column).map(Date.init(timeIntervalSince1970:))
  }
}

/// `searches`: what the store keeps of each search.
enum SearchColumn: String, TableColumns {
  case name, lastRun = "last_run", lastAttempt = "last_attempt"
  case allSourcesKnown = "all_sources_known", lastFailures = "last_failures"
}

/// `sources`: the request URLs of a search that answered.
enum SourceColumn: String, TableColumns { case search, url }

/// `validators`: a URL's ETag and Last-Modified.
enum ValidatorColumn: String, TableColumns {
  case url, etag, lastModified = "last_modified"
}

/// `cooldowns`: a host waited for.
enum CooldownColumn: String, TableColumns {
  case host, until, reason, since, status, answer, urls
}

/// `listings`: a listing's key and what the store keeps beside its facts.
enum ListingColumn: String, TableColumns {
  case site, id, firstSeen = "first_seen", lastSeen = "last_seen", viewedAt = "viewed_at"
  case fingerprint, contentHash = "content_hash"
  /// A listing's first seen beside a sighting's (an alias: the two share the name).
  case listingFirstSeen = "listing_first_seen"
}

/// `prices`: every price a listing was seen at.
enum PriceColumn: String, TableColumns {
  case site, id, seenAt = "seen_at", price, currency
  /// The price before the last (a computed column's alias).
  case previousPrice = "previous_price"
}

/// `sightings`: which searches saw a listing.
enum SightingColumn: String, TableColumns {
  case search, site, id, firstSeen = "first_seen", lastSeen = "last_seen"
  case repostOf = "repost_of", announcedPrice = "announced_price", inAnswer = "in_answer"
  case itemDigest = "item_digest", itemContent = "item_content"
  /// The channels that took the listing, joined by U+001F (a computed column's alias).
  case deliveredTo = "delivered_to"
  /// Whether the listing is held (a computed column's alias).
  case held
}

/// `deliveries`: per listing of a search and channel, owed, delivered or failed.
enum DeliveryColumn: String, TableColumns {
  case search, site, id, channel, state, owedAt = "owed_at", at, attempts
  case lastError = "last_error", event, oldPrice = "old_price", eventAt = "event_at"
  case claimedBy = "claimed_by", claimedUntil = "claimed_until"
  /// The reposts folded into the listing, a JSON list (a computed column's alias).
  case reposts
}

/// `held`: listings found in a `hold` quiet-hours window.
enum HeldColumn: String, TableColumns {
  case search, site, id, heldAt = "held_at"
}

/// `recent`: what the feeds and the page show.
enum RecentColumn: String, TableColumns {
  case search, site, id, found, event, oldPrice = "old_price"
}

/// `marks`: a person's marks on a listing.
enum MarkColumn: String, TableColumns {
  case site, id, starredAt = "starred_at", hiddenAt = "hidden_at", note, notedAt = "noted_at"
  /// Whether starred, whether hidden (computed columns' aliases).
  case starred, hidden
}

/// `watched`: a starred listing's source per search.
enum WatchedColumn: String, TableColumns {
  case search, site, id, source, missing, goneAt = "gone_at"
}

/// `text_changes`: a listing's title and description before a change.
enum TextChangeColumn: String, TableColumns {
  case site, id, changedAt = "changed_at", oldTitle = "old_title"
  case oldDescription = "old_description"
}

/// `signals`: a listing's warning signs.
enum SignalColumn: String, TableColumns {
  case site, id, kind, text
}

/// `geocodes`: the geocoder's answers and failures per address.
enum GeocodeColumn: String, TableColumns {
  case geocoder, query, latitude, longitude, askedAt = "asked_at", failures
  case retryAt = "retry_at", lastError = "last_error"
}

/// `travel_times`: a routing engine's answer for a grid cell.
enum TravelTimeColumn: String, TableColumns {
  case engine, mode, place, cell, minutes, askedAt = "asked_at"
}

/// `push_subscriptions`: a browser subscribed to Web Push.
enum PushSubscriptionColumn: String, TableColumns {
  case endpoint, p256dh, auth, createdAt = "created_at", lastSuccess = "last_success"
  case lastFailure = "last_failure", lastError = "last_error"
}

/// `photo_hashes`: a fetched photo's difference hash and size, or why it was refused.
enum PhotoHashColumn: String, TableColumns {
  case url, image, hash, width, height, fetchedAt = "fetched_at", note
}

/// `cross_posts`: listings found to be the same flat on another site.
enum CrossPostColumn: String, TableColumns {
  case site, id, otherSite = "other_site", otherId = "other_id", foundAt = "found_at"
}

/// `answers`: each search's last answer, when it came.
enum AnswerColumn: String, TableColumns { case search, answeredAt = "answered_at" }

/// `unviewed`: each search's count of unviewed listings.
enum UnviewedColumn: String, TableColumns { case search, count }

/// `clarissa_schema`: the migrations a store was given, by version and name.
enum SchemaColumn: String, TableColumns {
  case version, name, migratedAt = "migrated_at", byClarissa = "by_clarissa"
}

/// What a query computes rather than reads from one table: counts, sums, extremes (aliases).
enum ComputedColumn: String, TableColumns {
  case count, total, latest, earliest, found
}

/// `workers` (PostgreSQL): the workers seen, and what each holds (computed columns' aliases).
enum WorkerColumn: String, TableColumns {
  case name, host, pid, version, startedAt = "started_at", seenAt = "seen_at"
  case holding, oldestTaken = "oldest_taken"
}

/// `leases` (PostgreSQL): each (search, source) taken by a worker; and their counts (aliases).
enum LeaseColumn: String, TableColumns {
  case search, source, worker, takenAt = "taken_at", until, doneAt = "done_at", takeovers
  case sources, held, lapsed
}

/// `host_pace` (PostgreSQL): one pace per host; `slot`, the time a request may go (an alias).
enum PaceColumn: String, TableColumns { case host, nextAt = "next_at", slot }
