internal import ClarissaCore
internal import ClarissaEngine
internal import ListingStore
internal import Serve

/// The travel times `serve`, `listings` and `show` show: each listing's, for its searches'
/// `commute:` limits, from the engines' answers the store keeps (``CommuteLookup``); the store
/// keeps no time with a listing, and these commands ask no engine.
enum StoredCommute {
  /// The filling the pages and these commands share, reading `memory`.
  static func travelTimes(_ memory: any ListingMemory) -> TravelTimes {
    TravelTimes { listings, limits, routing in
      try CommuteLookup.attach(&listings, limits: limits, routing: routing, memory: memory)
    }
  }

  /// The limits of `searches` in `config`, once per place and mode.
  static func limits(of searches: [String], in config: Config) -> [CommuteLimit] {
    CommuteLimit.merged(searches.flatMap { config.searchesByName[$0]?.facts.commute ?? [] })
  }

  /// Fills the times of `found`, the listings of each search together.
  static func attach(_ found: inout [FoundListing], config: Config?, memory: any ListingMemory)
    throws
  {
    guard let config else { return }
    try travelTimes(memory).attach(&found, routing: config.routing) {
      limits(of: [$0], in: config)
    }
  }

  /// Fills the times of one listing, for the limits of every search that found it.
  static func attach(_ history: inout ListingHistory, config: Config?, memory: any ListingMemory)
    throws
  {
    guard let config else { return }
    var listings = [history.listing]
    try travelTimes(memory).attach(
      &listings, limits(of: history.searches.map(\.search), in: config), config.routing)
    history.listing.commute = listings[0].commute
  }
}
