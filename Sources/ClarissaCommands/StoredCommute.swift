internal import ClarissaCore
internal import ClarissaEngine
internal import ListingStore

/// The travel times `listings` and `show` print: each listing's, for its searches' `commute:`
/// limits, from the engines' answers the store keeps (``CommuteLookup``); the store keeps no
/// time with a listing, and these commands ask no engine.
enum StoredCommute {
  /// The limits of `searches` in `config`, each place and mode once, in order.
  static func limits(of searches: [String], in config: Config?) -> [CommuteLimit] {
    guard let config else { return [] }
    var limits: [CommuteLimit] = []
    for name in searches {
      for limit in config.searchesByName[name]?.facts.commute ?? []
      where !limits.contains(where: { $0.place.name == limit.place.name && $0.mode == limit.mode })
      {
        limits.append(limit)
      }
    }
    return limits
  }

  /// Fills the times of `found`, the listings of one search filled together.
  static func attach(_ found: inout [FoundListing], config: Config?, memory: any ListingMemory)
    throws
  {
    guard let config else { return }
    for search in Set(found.map(\.search)) {
      let limits = limits(of: [search], in: config)
      guard !limits.isEmpty else { continue }
      let indices = found.indices.filter { found[$0].search == search }
      var listings = indices.map { found[$0].listing }
      try CommuteLookup.attach(&listings, limits: limits, routing: config.routing, memory: memory)
      for (index, listing) in zip(indices, listings) {
        found[index].listing.commute = listing.commute
      }
    }
  }

  /// Fills the times of one listing, for the limits of every search that found it.
  static func attach(_ history: inout ListingHistory, config: Config?, memory: any ListingMemory)
    throws
  {
    let limits = limits(of: history.searches.map(\.search), in: config)
    guard let config, !limits.isEmpty else { return }
    var listings = [history.listing]
    try CommuteLookup.attach(&listings, limits: limits, routing: config.routing, memory: memory)
    history.listing.commute = listings[0].commute
  }
}
