internal import ClarissaCore
public import Foundation

/// What a search's last runs left in the store, for `clarissa serve`'s list of searches.
public struct SearchStanding: Sendable, Codable, Equatable {
  /// The search.
  public var name: String
  /// When it last reached a source.
  public var lastRun: Date?
  /// When it was last tried.
  public var lastAttempt: Date?
  /// The sources that failed in its last run, with the reason.
  public var failures: [String]
  /// Its listings nobody has viewed (kept by the store's triggers: no history is read).
  public var unviewed: Int
}

/// What the store tells of itself when asked whether it is reachable (`/healthz`).
public struct StoreHealth: Sendable, Codable, Equatable {
  /// The store's schema version.
  public var schemaVersion: Int
  /// The latest time any search was tried.
  public var lastAttempt: Date?
}

extension ConnectedStore {
  /// Every search the store knows (by name), with its last runs and unviewed count.
  public func standings() throws -> [String: SearchStanding] {
    try locked { database in
      var result: [String: SearchStanding] = [:]
      try database.run("SELECT name, last_run, last_attempt, last_failures FROM searches") {
        let name = $0.text(SearchColumn.name)
        result[name] = SearchStanding(
          name: name, lastRun: $0.optionalDate(SearchColumn.lastRun),
          lastAttempt: $0.optionalDate(SearchColumn.lastAttempt),
          failures: $0.optionalText(SearchColumn.lastFailures).flatMap(StoreJSON.strings) ?? [],
          unviewed: 0)
      }
      return result
    }
    .merging(
      try unviewedCounts().map { name, count in
        (name, SearchStanding(name: name, failures: [], unviewed: count))
      }
    ) { standing, counted in
      var merged = standing
      merged.unviewed = counted.unviewed
      return merged
    }
  }

  /// The prices each listing was seen at, oldest first (one lookup by key per listing).
  public func prices(of keys: [ListingKey]) throws -> [ListingKey: [ListingHistory.Price]] {
    try locked { database in
      var result: [ListingKey: [ListingHistory.Price]] = [:]
      for key in Set(keys) {
        result[key] = try database.rows(
          "SELECT seen_at, price, currency FROM prices WHERE site = ? AND id = ? ORDER BY seen_at",
          [.text(key.site), .text(key.id)]
        ) {
          ListingHistory.Price(
            at: $0.date(PriceColumn.seenAt), price: $0.double(PriceColumn.price),
            currency: $0.optionalText(PriceColumn.currency))
        }
      }
      return result
    }
  }

  /// How many posts a search folded into each of these listings (by the repost index).
  public func foldedCounts(search: String, keys: [ListingKey]) throws -> [ListingKey: Int] {
    try locked { database in
      var result: [ListingKey: Int] = [:]
      for key in Set(keys) {
        let count = try database.integer(
          "SELECT count(*) FROM sightings\(database.dialect.indexedBy("sightings_repost_of")) "
            + "WHERE search = ? AND site = ? AND repost_of = ?",
          [.text(search), .text(key.site), .text(key.id)])
        if count > 0 { result[key] = count }
      }
      return result
    }
  }

  /// Reads the store: its version and the last time a search was tried (`/healthz`).
  public func health() throws -> StoreHealth {
    try locked { database in
      let version = try database.integer(database.dialect.schemaVersion)
      let last =
        try database.rows("SELECT max(last_attempt) AS latest FROM searches") {
          $0.optionalDouble(ComputedColumn.latest)
        }.first ?? nil
      return StoreHealth(
        schemaVersion: version, lastAttempt: last.map(Date.init(timeIntervalSince1970:)))
    }
  }
}
