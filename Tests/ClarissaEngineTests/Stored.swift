import ClarissaCore
import Foundation

@testable import ClarissaEngine
@testable import ListingStore

/// What runs left in a store, read as a reader does (read-only, no lock).
struct Stored {
  let store: ListingStore

  init(_ path: String) throws {
    store = try ListingStore.open(path: path, readOnly: true)
  }

  func cooldowns() throws -> [String: Cooldown] { try store.cooldowns() }

  func search(_ name: String) throws -> SearchMemory? { try store.searches([name])[name] }

  /// How many listings the search has seen.
  func seenCount(_ search: String) throws -> Int {
    try store.locked { database in
      try database.integer("SELECT count(*) FROM sightings WHERE search = ?", [.text(search)])
    }
  }

  /// The channels that accepted a listing of a search.
  func deliveredTo(_ search: String, site: String = "craigslist", id: String) throws -> [String]? {
    let key = ListingKey(site: site, id: id)
    return try store.lookUp(search: search, keys: [key])[key]?.deliveredTo
  }

  func held() throws -> [HeldListing] { try store.held() }

  func owed() throws -> [OwedDelivery] { try store.owedDeliveries(maxAttempts: 10) }
}
