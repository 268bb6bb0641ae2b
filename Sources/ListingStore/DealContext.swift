import ClarissaCore
import Foundation

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

  /// The lines for `listing` of a search, from its `story` and the search's `peers`.
  public static func lines(
    _ listing: Listing, story: ListingStory?, peers: [DealPeer], now: Date,
    timeZone: TimeZone = .current
  ) -> [String] {
    let family = Set((story?.posts.map(\.id) ?? []) + [listing.id]).map {
      ListingKey(site: listing.site, id: $0)
    }
    let others = peers.filter { !family.contains($0.key) }
    return [
      seenBefore(listing, story, timeZone: timeZone, now: now),
      reposted(story, now: now),
      comparison(listing, others),
      onMarket(listing, story, now: now, timeZone: timeZone),
    ].compactMap { $0 }
  }

  /// "seen before: $450 on 3 Mar as 7912345678, $420 on 9 Mar": the item's earlier prices,
  /// under any of its ids, its present price left out.
  static func seenBefore(
    _ listing: Listing, _ story: ListingStory?, timeZone: TimeZone, now: Date
  ) -> String? {
    guard let story else { return nil }
    var entries: [(id: String, price: ListingHistory.Price)] = []
    let rows = story.posts.flatMap { post in post.prices.map { (id: post.id, price: $0) } }
    for row in rows.sorted(by: { ($0.price.at, $0.id) < ($1.price.at, $1.id) }) {
      if let last = entries.last, last.id == row.id, last.price.price == row.price.price {
        continue
      }
      entries.append(row)
    }
    if let last = entries.last, last.id == listing.id, last.price.price == listing.price {
      entries.removeLast()
    }
    guard !entries.isEmpty else { return nil }
    let said = entries.suffix(earlierShown).map { entry in
      Money.format(entry.price.price, entry.price.currency) + " on "
        + day(entry.price.at, now: now, timeZone: timeZone)
        + (entry.id == listing.id ? "" : " as \(SafeText.line(entry.id))")
    }
    return "seen before: " + said.joined(separator: ", ")
  }

  /// "reposted 3 times in 30 days": the item's other posts, over the days since the first.
  static func reposted(_ story: ListingStory?, now: Date) -> String? {
    guard let story, story.posts.count > 1, let first = story.posts.first else { return nil }
    let times = story.posts.count - 1
    let days = max(1, Int((now.timeIntervalSince(first.firstSeen) / 86_400).rounded(.up)))
    return "reposted \(times) time\(times == 1 ? "" : "s") in \(days) day\(days == 1 ? "" : "s")"
  }

  /// "18% below the median of 37 ($2,400)": the price against the search's similar listings
  /// (same currency; per m² when the listing and enough of them have a floor area, else of the
  /// same bedrooms when it and enough of them say, else all).
  static func comparison(_ listing: Listing, _ peers: [DealPeer]) -> String? {
    guard let price = listing.price, price > 0 else { return nil }
    let priced = peers.filter { $0.currency == listing.currency }
    var chosen: (values: [Double], mine: Double, words: String, unit: String)?
    if let area = listing.floorArea, area > 0 {
      let sized = priced.compactMap { peer in
        peer.floorArea.flatMap { $0 > 0 ? peer.price / $0 : nil }
      }
      if sized.count >= minimumPeers { chosen = (sized, price / area, "median per m²", "/m²") }
    }
    if chosen == nil, let bedrooms = listing.bedrooms {
      let same = priced.filter { $0.bedrooms == bedrooms }.map(\.price)
      if same.count >= minimumPeers {
        let rooms = Double(Int(bedrooms)) == bedrooms ? "\(Int(bedrooms))" : "\(bedrooms)"
        chosen = (same, price, "median of \(same.count) with \(rooms) bedrooms", "")
      }
    }
    if chosen == nil, priced.count >= minimumPeers {
      chosen = (priced.map(\.price), price, "median of \(priced.count)", "")
    }
    guard let chosen, let median = median(chosen.values), median > 0 else { return nil }
    let words =
      chosen.unit.isEmpty ? chosen.words : "\(chosen.words) of \(chosen.values.count)"
    // A price per m² keeps its cents; a price is whole.
    let rounded = chosen.unit.isEmpty ? median.rounded() : (median * 100).rounded() / 100
    let shown = Money.format(rounded, listing.currency) + chosen.unit
    let percent = Int(((chosen.mine - median) / median * 100).rounded())
    switch percent {
    case 0: return "at the \(words) (\(shown))"
    case ..<0: return "\(-percent)% below the \(words) (\(shown))"
    default: return "\(percent)% above the \(words) (\(shown))"
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

  /// The middle value (the mean of the two middle ones for an even count).
  static func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// "3 Mar", or "3 Mar 2025" in another year than `now`'s.
  static func day(_ date: Date, now: Date, timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    let sameYear =
      calendar.component(.year, from: date) == calendar.component(.year, from: now)
    formatter.dateFormat = sameYear ? "d MMM" : "d MMM yyyy"
    return formatter.string(from: date)
  }
}
