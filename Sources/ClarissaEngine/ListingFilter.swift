public import ClarissaCore
internal import Curl

/// The filter semantics users rely on (ARCHITECTURE.md): with inclusive filters a listing must
/// match at least one; a listing matching any exclusive filter is dropped; a price range drops
/// listings priced outside it (a listing without a price is kept: nothing says it is outside);
/// the fact and place filters (``FactFilters``) drop a listing outside their bounds, and one
/// lacking the fact unless the search keeps it (`missing: keep`, the default).
public enum ListingFilter {
  /// Whether `listing` passes `search`'s filters and price range.
  public static func accepts(_ listing: Listing, for search: Search) -> Bool {
    if let range = search.price, let price = listing.price,
      !range.overlaps(price, listing.priceHigh)
    {
      return false
    }
    if !search.facts.isEmpty, !search.facts.accepts(listing) { return false }
    return textVerdict(listing, for: search).accepted
  }

  /// The decision and the filter that made it, for `explain`: the text filters' reason, then
  /// what each fact filter made of the listing ("rooms 3 ≥ min 2, floor area unknown: kept
  /// (missing: keep)"); when a fact drops it, that fact alone.
  public static func verdict(_ listing: Listing, for search: Search) -> (
    accepted: Bool, reason: String
  ) {
    if let range = search.price, let price = listing.price,
      !range.overlaps(price, listing.priceHigh)
    {
      let shown = number(price) + (listing.priceHigh.map { "–" + number($0) } ?? "")
      return (false, "price \(shown) outside \(describe(range))")
    }
    guard !search.facts.isEmpty else { return textVerdict(listing, for: search) }
    let facts = search.facts.decisions(listing)
    if !facts.accepted, let last = facts.decisions.last { return (false, last.words) }
    let (accepted, reason) = textVerdict(listing, for: search)
    guard accepted else { return (accepted, reason) }
    return (true, reason + "; " + facts.decisions.map(\.words).joined(separator: ", "))
  }

  /// The include and exclude filters' decision.
  private static func textVerdict(_ listing: Listing, for search: Search) -> (
    accepted: Bool, reason: String
  ) {
    let text = FilterText(
      title: listing.title, description: listing.description, for: search.filters)
    for filter in search.filters where filter.effect == .exclude {
      if let found = filter.firstMatch(in: text) {
        return (false, "excluded by \(describe(filter, found))")
      }
    }
    var anyInclude = false
    for filter in search.filters where filter.effect == .include {
      anyInclude = true
      if let found = filter.firstMatch(in: text) {
        return (true, "included by \(describe(filter, found))")
      }
    }
    return anyInclude
      ? (false, "matches none of the inclusive filters") : (true, "no inclusive filter")
  }

  /// `'iso' (title): "iso" in title`: the filter as written and the words that decided.
  private static func describe(_ filter: Filter, _ found: (field: Filter.Field, matched: String))
    -> String
  {
    "'\(filter.pattern)' (\(filter.field.rawValue)): \"\(Excerpt.oneLine(Array(found.matched.utf8), limit: 60))\" in \(found.field.rawValue)"
  }

  private static func describe(_ range: PriceRange) -> String {
    "\(range.min.map(number) ?? "…")-\(range.max.map(number) ?? "…")"
  }

  private static func number(_ value: Double) -> String {
    CheckedNumber.text(value)
  }
}
