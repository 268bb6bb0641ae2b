public import ClarissaCore
public import Foundation
public import ListingStore

/// The warning signs (issue 43), each a rule from values to at most one ``ListingSignal`` with
/// its one line: the stage `Signals` (module ClarissaEngine) asks them for new listings, and
/// the photo rule waits for the photo hashes to hand it the listings that share a photo.
public enum WarningSigns {
  /// Fewer comparable listings than this, and no price is called low. The deal context
  /// (``DealContext/minimumPeers``) compares from 5, as information; a warning needs more: with
  /// 8 the median sits between the 4th and 5th price, so no two odd listings move it past
  /// the threshold below.
  public static let minimumComparables = 8
  /// How far below the median, as a share of it, a price is called low: 40 %. Measured over
  /// the 858 real listings of the site fixtures that have 8 comparables in their own answer
  /// (per m², within ``scale``), one listing in ten is 33 % or more below its median, one in
  /// twenty 43 %: at 35 % 72 of them (8.4 %) would carry the sign, at 40 % 53 (6.2 %). Those
  /// answers mix furnished rooms, new builds and sizes that a search's 90 days of one site and
  /// area mix less; warm or cold rent alone (German utilities are 2-3 €/m² on 10-14 €/m²)
  /// differs by about 20 %.
  public static let lowPriceShare = 0.40
  /// Comparables are those within this factor of the listing's own price (or price per m²):
  /// rents and sales in one answer are two markets (Kleinanzeigen's recorded Düsseldorf
  /// `wohnung` answer: 11 rents of €720-1,950 and 15 sales of €87,000-995,000, some 200 times
  /// apart per m²), and a rent compared with them all is "99 % below the median".
  public static let scale = 10.0
  /// Reposts of the same item from which it is a sign: 3. One or two reposts are a landlord
  /// renewing an ad that went stale; three in the repost window is a campaign.
  public static let repostedTimes = 3
  /// How far another listing's price may differ, as a share of this one's, before a shared
  /// photo is a sign: 25 %. The same flat on two sites differs by fees and by warm or cold rent
  /// (about 20 %, above); more than a quarter is another offer using its picture.
  public static let photoPriceShare = 0.25

  /// A seller's account younger than this when the listing was posted is a sign: 30 days. The
  /// scams the issue quotes post from accounts made for them (the one OLX.ua offer recorded in
  /// Fixtures/olx-ua, an RTX 5090 at a third of its price, from an account 17 days old); an
  /// honest first-time landlord is flagged too, which is why it is a sign and not a filter.
  public static let newSellerAge: TimeInterval = 30 * 86_400

  /// "41% below the median of 38 similar": the price against the search's comparable listings
  /// in `market` (same currency; per m² where the listing gives a floor area and enough of them
  /// do, else of the same bedrooms, else of the same rooms), `family` (the item's own posts)
  /// left out. Nil where there are too few comparables or the price is not far below.
  public static func lowPrice(
    _ listing: Listing, market: DealMarket, excluding family: [ListingKey] = []
  ) -> ListingSignal? {
    guard let price = listing.price, price > 0 else { return nil }
    let excluded = family.isEmpty ? [listing.key] : family
    func median(_ kind: DealMarket.Kind, _ mine: Double) -> (median: Double, count: Int)? {
      market.median(
        currency: listing.currency, kind, excluding: excluded, minimum: minimumComparables,
        near: mine, within: scale)
    }
    let found: (mine: Double, median: Double, count: Int, words: String)
    if let area = listing.floorArea, area > 0, let sized = median(.perArea, price / area) {
      found = (price / area, sized.median, sized.count, "median per m² of")
    } else if let bedrooms = listing.bedrooms, let same = median(.bedrooms(bedrooms), price) {
      found = (price, same.median, same.count, "median of")
    } else if let rooms = listing.rooms, let same = median(.rooms(rooms), price) {
      found = (price, same.median, same.count, "median of")
    } else {
      return nil
    }
    guard found.median > 0 else { return nil }
    let below = (found.median - found.mine) / found.median
    guard below >= lowPriceShare else { return nil }
    let percent = Int((below * 100).rounded())
    return ListingSignal(.lowPrice, "\(percent)% below the \(found.words) \(found.count) similar")
  }

  /// "reposted 4 times in 30 days": the item's posts after the first (`story`, this post among
  /// them or `adding` it), from ``repostedTimes`` on.
  public static func reposted(_ story: ListingStory?, adding: Int = 0, now: Date)
    -> ListingSignal?
  {
    guard let story, let first = story.posts.first else { return nil }
    let times = story.posts.filter { $0.firstSeen > first.firstSeen }.count + adding
    guard times >= repostedTimes else { return nil }
    let days = max(1, Int((now.timeIntervalSince(first.firstSeen) / 86_400).rounded(.up)))
    return ListingSignal(
      .reposted, "reposted \(times) times in \(days) day\(days == 1 ? "" : "s")")
  }

  /// `scam words: "western union", "kaution vorab"`: the phrases of ``ScamWords/shipped`` and
  /// `extra` that the folded title and description hold as whole words (at most three named).
  public static func scamWords(_ listing: Listing, extra: [String] = []) -> ListingSignal? {
    let text = ScamWords.folded(listing.title + "\n" + listing.description)
    var found: [String] = []
    for phrase in ScamWords.phrases(adding: extra) where text.contains(phrase.folded) {
      if !found.contains(phrase.written) { found.append(phrase.written) }
    }
    guard !found.isEmpty else { return nil }
    let named = found.prefix(3).map { "\"\(SafeText.line($0))\"" }.joined(separator: ", ")
    return ListingSignal(.scamWords, "scam words: " + named)
  }

  /// "photo also on a listing in Köln at €650": of `others` (listings sharing a photo with
  /// `listing`, its own posts left out by the caller), the first in another place (`location`,
  /// else `area`, folded), else the one whose price (same currency) differs most by more than
  /// ``photoPriceShare``. Nil when none does: the same flat on another site is no sign.
  public static func photoElsewhere(_ listing: Listing, others: [Listing]) -> ListingSignal? {
    let here = place(of: listing)
    let others = others.filter { $0.key != listing.key }
    if let here,
      let away = others.first(where: { place(of: $0).map { $0.folded != here.folded } ?? false })
    {
      return ListingSignal(.photoElsewhere, "photo also on " + described(away))
    }
    guard let price = listing.price, price > 0 else { return nil }
    let differing = others.compactMap { other -> (Listing, Double)? in
      guard let theirs = other.price, theirs > 0, other.currency == listing.currency else {
        return nil
      }
      let share = abs(theirs - price) / price
      return share > photoPriceShare ? (other, share) : nil
    }
    guard let most = differing.max(by: { $0.1 < $1.1 }) else { return nil }
    return ListingSignal(.photoElsewhere, "photo also on " + described(most.0))
  }

  /// "seller's account is 17 days old": the site's `sellerSince` against when the listing was
  /// posted (else `now`), under ``newSellerAge``.
  public static func newSeller(_ listing: Listing, now: Date) -> ListingSignal? {
    guard let since = listing.sellerSince else { return nil }
    let age = (listing.posted ?? now).timeIntervalSince(since)
    guard age >= 0, age < newSellerAge else { return nil }
    let days = Int(age / 86_400)
    let words =
      days == 0 ? "less than a day old" : "\(days) day\(days == 1 ? "" : "s") old"
    return ListingSignal(.newSeller, "seller's account is " + words)
  }

  /// A listing's place as written and folded (spaces and punctuation runs as one space).
  static func place(of listing: Listing) -> (written: String, folded: String)? {
    for text in [listing.location, listing.area] {
      guard let text else { continue }
      let folded = ScamWords.folded(text).trimmingCharacters(in: .whitespaces)
      if !folded.isEmpty { return (SafeText.line(text), folded) }
    }
    return nil
  }

  /// "a listing in Köln at €650" (place and price where known).
  static func described(_ other: Listing) -> String {
    var words = "a listing"
    if let place = place(of: other) { words += " in " + place.written }
    if let price = other.price { words += " at " + Money.format(price, other.currency) }
    return words
  }
}
