internal import Channels
public import ClarissaCore
internal import Foundation
internal import ListingStore

/// What changed in a listing a search has seen, as far as the search announces it
/// (`notify_on`). A price change is measured from the price last announced, not from the last
/// one seen: 100 -> 90 is a drop (announced, 90 is then the price to beat); 90 -> 100 a rise
/// (announced only with `price_rise`, and then 100 is the reference); 100 -> 96 -> 94 with a 5%
/// threshold is one drop, at 94. A price that wobbles around a threshold is announced once per
/// change past it, never on every run.
///
/// A listing is `back` when the search answered without it at least `back_after` after it was
/// last seen (its previous run, `lastRun`, came that long after), and now it is there again.
/// Time alone proves nothing: after a week with clarissa switched off every listing was "last
/// seen" a week ago.
public enum Change {
  static func event(
    _ listing: Listing, _ sighting: Sighting, _ search: Search, lastRun: Date?
  ) -> ListingEvent? {
    let kinds = search.notifyOn
    if kinds.contains(.back), let lastRun,
      lastRun.timeIntervalSince(sighting.lastSeen) >= search.backAfter.timeInterval
    {
      return ListingEvent(kind: .back, oldPrice: sighting.announcedPrice)
    }
    guard let price = listing.price, let before = sighting.announcedPrice, price != before else {
      return nil
    }
    if price < before, kinds.contains(.priceDrop), search.priceDrop.passed(from: before, to: price)
    {
      return ListingEvent(kind: .priceDrop, oldPrice: before)
    }
    if price > before, kinds.contains(.priceRise), search.priceRise.passed(from: before, to: price)
    {
      return ListingEvent(kind: .priceRise, oldPrice: before)
    }
    return nil
  }

  /// `$450 → $380 (-16%)`, or `back` / `back at $380`; `gone (last at $380)`, `was
  /// 7912345678` (reposted), `title and description changed`: the words channels' messages
  /// use too (`TextChangeWords.change`, module `Channels`).
  public static func describe(_ listing: Listing) -> String? {
    TextChangeWords.change(listing)
  }
}
