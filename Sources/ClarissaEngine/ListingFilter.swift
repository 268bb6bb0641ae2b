import ClarissaCore

/// The filter semantics users rely on (ARCHITECTURE.md): with inclusive filters a listing must
/// match at least one; a listing matching any exclusive filter is dropped; a price range drops
/// listings priced outside it (a listing without a price is kept: nothing says it is outside).
public enum ListingFilter {
  /// Whether `listing` passes `search`'s filters and price range.
  public static func accepts(_ listing: Listing, for search: Search) -> Bool {
    verdict(listing, for: search).accepted
  }

  /// The decision and the filter that made it, for `explain`.
  public static func verdict(_ listing: Listing, for search: Search) -> (
    accepted: Bool, reason: String
  ) {
    if let range = search.price, let price = listing.price, !range.contains(price) {
      return (false, "price \(number(price)) outside \(describe(range))")
    }
    for filter in search.filters where filter.effect == .exclude {
      if filter.matches(title: listing.title, description: listing.description) {
        return (false, "excluded by '\(filter.pattern)' (\(filter.field.rawValue))")
      }
    }
    let includes = search.filters.filter { $0.effect == .include }
    guard !includes.isEmpty else { return (true, "no inclusive filter") }
    if let match = includes.first(where: {
      $0.matches(title: listing.title, description: listing.description)
    }) {
      return (true, "included by '\(match.pattern)' (\(match.field.rawValue))")
    }
    return (false, "matches none of the inclusive filters")
  }

  private static func describe(_ range: PriceRange) -> String {
    "\(range.min.map(number) ?? "…")-\(range.max.map(number) ?? "…")"
  }

  private static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
