public import ClarissaCore
public import Foundation
public import ListingStore

/// Deal context (issue 28): what the store says of a listing beside its own facts, in a few
/// short lines for a message, the report, `show` and the page (docs/notifications.md):
/// earlier prices and posts of the same item, the price against similar listings of the same
/// search, and how long it has been on the market. A line is left out where there is too little
/// to say.
public enum DealContext {
  /// Fewer similar listings than this, and no comparison is made.
  public static let minimumPeers = 5
  /// Similar listings are those the search saw in this many seconds (90 days).
  public static let window: TimeInterval = 90 * 86_400
  /// Earlier prices named at most (the most recent).
  static let earlierShown = 3

  /// The lines for `listing` of a search, from its `story` and the search's `market`.
  public static func lines(
    _ listing: Listing, story: ListingStory?, market: DealMarket, now: Date,
    timeZone: TimeZone = .current
  ) -> [String] {
    // The item's own posts are not its market.
    let family = Set((story?.posts.map(\.id) ?? []) + [listing.id]).map {
      ListingKey(site: listing.site, id: $0)
    }
    return [
      seenBefore(listing, story, timeZone: timeZone, now: now),
      reposted(story, now: now),
      comparison(listing, market, excluding: family),
      onMarket(listing, story, now: now, timeZone: timeZone),
    ].compactMap { $0 }
  }

  /// "seen before: $450 on 3 Mar as 7912345678, $420 on 9 Mar": the item's earlier prices,
  /// under any of its ids, its present price left out.
  static func seenBefore(
    _ listing: Listing, _ story: ListingStory?, timeZone: TimeZone, now: Date
  ) -> String? {
    guard let story else { return nil }
    // The present: the listing's last price row, when it is its price now; what is seen
    // before is older than that (posts seen in the same answer are not earlier).
    let own = story.posts.first { $0.id == listing.id }?.prices.last
    let present = own.flatMap { $0.price == listing.price ? $0.at : nil } ?? now
    var entries: [(id: String, price: ListingHistory.Price)] = []
    let rows = story.posts.flatMap { post in post.prices.map { (id: post.id, price: $0) } }
      .filter { $0.price.at < present }
    for row in rows.sorted(by: { ($0.price.at, $0.id) < ($1.price.at, $1.id) }) {
      if let last = entries.last, last.id == row.id, last.price.price == row.price.price {
        continue
      }
      entries.append(row)
    }
    guard !entries.isEmpty else { return nil }
    let said = entries.suffix(earlierShown).map { entry in
      Money.format(entry.price.price, entry.price.currency) + " on "
        + day(entry.price.at, now: now, timeZone: timeZone)
        + (entry.id == listing.id ? "" : " as \(SafeText.line(entry.id))")
    }
    return "seen before: " + said.joined(separator: ", ")
  }

  /// "reposted 3 times in 30 days": the item's later posts, over the days since the first.
  static func reposted(_ story: ListingStory?, now: Date) -> String? {
    // Posts seen in the same answer as the first are said as "also posted as", not here.
    guard let first = story?.posts.first else { return nil }
    let times = story?.posts.filter { $0.firstSeen > first.firstSeen }.count ?? 0
    guard times > 0 else { return nil }
    let days = max(1, Int((now.timeIntervalSince(first.firstSeen) / 86_400).rounded(.up)))
    return "reposted \(times) time\(times == 1 ? "" : "s") in \(days) day\(days == 1 ? "" : "s")"
  }

  /// "18% below the median of 37 ($2,400)": the price against the search's similar listings
  /// (same currency; per m² when the listing and enough of them have a floor area, else of the
  /// same bedrooms when it and enough of them say, else all).
  static func comparison(
    _ listing: Listing, _ market: DealMarket, excluding family: [ListingKey]
  ) -> String? {
    guard let price = listing.price, price > 0 else { return nil }
    func median(_ kind: DealMarket.Kind) -> (median: Double, count: Int)? {
      market.median(
        currency: listing.currency, kind, excluding: family, minimum: minimumPeers)
    }
    let found: (mine: Double, median: Double, words: String, unit: String)
    if let area = listing.floorArea, area > 0, let sized = median(.perArea) {
      // Areas are kept in m²; said per the listing's own unit (Craigslist's ft²).
      let unit = listing.floorAreaUnit ?? .squareMetres
      found = (
        price / area * unit.squareMetres, sized.median * unit.squareMetres,
        "median per \(unit.symbol) of \(sized.count)", "/\(unit.symbol)"
      )
    } else if let bedrooms = listing.bedrooms, let same = median(.bedrooms(bedrooms)) {
      let rooms = Double(Int(bedrooms)) == bedrooms ? "\(Int(bedrooms))" : "\(bedrooms)"
      found = (price, same.median, "median of \(same.count) with \(rooms) bedrooms", "")
    } else if let all = median(.price) {
      found = (price, all.median, "median of \(all.count)", "")
    } else {
      return nil
    }
    guard found.median > 0 else { return nil }
    // A price per area keeps its cents; a price is whole.
    let rounded =
      found.unit.isEmpty ? found.median.rounded() : (found.median * 100).rounded() / 100
    let shown = Money.format(rounded, listing.currency) + found.unit
    let percent = Int(((found.mine - found.median) / found.median * 100).rounded())
    switch percent {
    case 0: return "at the \(found.words) (\(shown))"
    case ..<0: return "\(-percent)% below the \(found.words) (\(shown))"
    default: return "\(percent)% above the \(found.words) (\(shown))"
    }
  }

  /// "on the market 45 days (first seen 3 Mar)": said when the store has known the item
  /// longer than its posted date says (a repost or a bump renews that date), or when the
  /// listing has no posted date; from a day on.
  static func onMarket(
    _ listing: Listing, _ story: ListingStory?, now: Date, timeZone: TimeZone
  ) -> String? {
    guard let seen = story?.firstSeen else { return nil }
    let start = min(seen, listing.posted ?? seen)
    let days = Int(now.timeIntervalSince(start) / 86_400)
    guard days >= 1 else { return nil }
    if let posted = listing.posted, posted.timeIntervalSince(start) < 86_400 { return nil }
    return "on the market \(days) day\(days == 1 ? "" : "s") (first seen "
      + "\(day(start, now: now, timeZone: timeZone)))"
  }

  /// "3 Mar", or "3 Mar 2025" in another year than `now`'s.
  static func day(_ date: Date, now: Date, timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let sameYear =
      calendar.component(.year, from: date) == calendar.component(.year, from: now)
    return DateFormat.pattern(sameYear ? "d MMM" : "d MMM yyyy", zone: timeZone)
      .string(from: date)
  }
}
