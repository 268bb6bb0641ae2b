public import Foundation

/// What `clarissa state info` shows: the file, its version, and what it remembers.
public struct StoreInfo: Sendable, Equatable {
  /// One search's part.
  public struct Search: Sendable, Equatable {
    /// The search's name.
    public var name: String
    /// Listings it has seen (sightings).
    public var listings: Int
    /// When it last ran and reached a source.
    public var lastRun: Date?
    /// When a run last tried it.
    public var lastAttempt: Date?
  }

  /// One channel's deliveries.
  public struct Channel: Sendable, Equatable {
    /// The channel's name.
    public var name: String
    /// Listings it accepted.
    public var delivered: Int
    /// Listings owed to it, never tried.
    public var owed: Int
    /// Listings it refused (retried until the attempts run out).
    public var failed: Int
  }

  /// The database file.
  public var path: String
  /// Bytes on disk: the file, its write-ahead log and its shared-memory index.
  public var bytes: Int
  /// The schema version (`user_version`).
  public var schemaVersion: Int
  /// Listings remembered (site + id), whichever searches saw them.
  public var listings: Int
  /// Rows of price history.
  public var prices: Int
  /// Per search, by name.
  public var searches: [Search]
  /// Per channel, by name.
  public var channels: [Channel]
  /// Listings waiting for the end of quiet hours.
  public var held: Int
  /// Host cool-downs not yet ended, by host.
  public var cooldowns: [(host: String, cooldown: Cooldown)]
  /// The workers sharing the store (PostgreSQL), by name; empty for a file.
  public var workers: [Worker] = []
  /// The leases on sources (PostgreSQL); nil for a file.
  public var leases: Leases?

  /// A worker sharing the store.
  public struct Worker: Sendable, Equatable {
    /// Its name (`CLARISSA_WORKER`, else host and process id).
    public var name: String
    /// The machine and process it runs as.
    public var host: String
    public var pid: Int
    /// Its clarissa.
    public var version: String
    /// When it started, and when it last took work.
    public var startedAt: Date
    public var seenAt: Date
    /// Sources it holds now, and since when the oldest.
    public var holding: Int
    public var oldestTaken: Date?
  }

  /// The leases on sources, at a glance.
  public struct Leases: Sendable, Equatable {
    /// Sources any worker ever took.
    public var sources: Int
    /// Held now by a live lease.
    public var held: Int
    /// Held by a lease that ran out (its worker died or hung): the next worker takes them.
    public var lapsed: Int
    /// Sources taken over from a lapsed lease, all told.
    public var takeovers: Int
  }

  public static func == (left: StoreInfo, right: StoreInfo) -> Bool {
    (left.path, left.bytes, left.schemaVersion, left.listings, left.prices, left.held)
      == (right.path, right.bytes, right.schemaVersion, right.listings, right.prices, right.held)
      && left.searches == right.searches && left.channels == right.channels
      && left.cooldowns.map(\.host) == right.cooldowns.map(\.host)
      && left.cooldowns.map(\.cooldown) == right.cooldowns.map(\.cooldown)
      && left.workers == right.workers && left.leases == right.leases
  }
}

/// A store that can say what it holds (`state info`): the SQLite file or the PostgreSQL
/// database.
public protocol StoreSummary {
  /// The store, what it remembers, and (shared) its workers and leases; cool-downs still
  /// running at `now`.
  func info(now: Date) throws -> StoreInfo
}

/// Rows a change removed or wrote, by table (`sightings`, `listings`, ...), for the commands'
/// one-line summaries.
public struct StoreCounts: Sendable, Equatable, CustomStringConvertible {
  /// Rows per table; tables with none are absent.
  public var rows: [String: Int] = [:]

  /// Creates counts.
  public init(_ rows: [String: Int] = [:]) {
    self.rows = rows.filter { $0.value > 0 }
  }

  /// The rows of `table` (0 when none).
  public subscript(table: String) -> Int { rows[table] ?? 0 }

  /// Adds `count` rows of `table`.
  mutating func add(_ count: Int, _ table: String) {
    if count > 0 { rows[table, default: 0] += count }
  }

  /// `3 listings, 12 sightings`, in a fixed order of tables; `nothing` when empty.
  public var description: String {
    let named = Self.order.compactMap { table in rows[table].map { "\($0) \(Self.noun(table, $0))" }
    }
    return named.isEmpty ? "nothing" : named.joined(separator: ", ")
  }

  private static let order = [
    "searches", "sources", "listings", "prices", "listing_images", "sightings", "deliveries",
    "held", "recent", "validators", "cooldowns", "cross_posts", "photo_hashes",
    "travel_times",
  ]

  private static func noun(_ table: String, _ count: Int) -> String {
    if table == "listing_images" { return count == 1 ? "photo id" : "photo ids" }
    if table == "photo_hashes" { return count == 1 ? "photo fingerprint" : "photo fingerprints" }
    if table == "travel_times" { return count == 1 ? "travel time" : "travel times" }
    if table == "cross_posts" { return count == 1 ? "cross-site link" : "cross-site links" }
    guard count == 1 else { return table }
    switch table {
    case "searches": return "search"
    case "deliveries": return "delivery"
    case "held", "recent": return table
    default: return String(table.dropLast())
    }
  }
}

extension StoreProblem {
  /// A problem with a complete, user-facing message.
  public init(_ message: String) { self.init(message: message) }
}
