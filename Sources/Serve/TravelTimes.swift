package import ClarissaCore
package import ListingStore

/// Where the pages and the map get each listing's travel times (``Listing/commute``) for the
/// limits of its searches: the store keeps no travel time with a listing, so a listing read
/// back has none until this fills them from the engines' answers the store keeps (`serve`
/// gives the engine's `CommuteLookup`; this module does not depend on the engine).
package struct TravelTimes: Sendable {
  /// Fills `commute` of each of `listings` for `limits` (one time per limit, in their order),
  /// from the answers of `routing`'s engines; leaves a listing it knows nothing of as it is.
  package typealias Attach =
    @Sendable (_ listings: inout [Listing], _ limits: [CommuteLimit], _ routing: RoutingSettings)
    throws -> Void

  /// The filling.
  package var attach: Attach

  /// Travel times from `attach`.
  package init(attach: @escaping Attach) {
    self.attach = attach
  }

  /// None added: each listing's `commute` as the store gave it.
  package static let none = TravelTimes { _, _, _ in }

  /// Fills the times of `found`, the listings of each search together, for that search's
  /// `limits` (a search without any is left as it is): the cards, `listings`.
  package func attach(
    _ found: inout [FoundListing], routing: RoutingSettings,
    limits: (_ search: String) -> [CommuteLimit]
  ) throws {
    for search in Set(found.map(\.search)) {
      let chosen = limits(search)
      guard !chosen.isEmpty else { continue }
      let indices = found.indices.filter { found[$0].search == search }
      var listings = indices.map { found[$0].listing }
      try attach(&listings, chosen, routing)
      for (index, listing) in zip(indices, listings) {
        found[index].listing.commute = listing.commute
      }
    }
  }
}
