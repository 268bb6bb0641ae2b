package import ClarissaCore

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
}
