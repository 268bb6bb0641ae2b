internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import Geography
internal import ListingStore
internal import Presentation

/// `listings` and `show` as text, JSON and CSV.
enum ListingsOutput {
  static let csvHeader =
    "first_seen,search,event,repost_of,id,site,price,currency,title,location,url,delivered_to"

  /// `searches` (by name) word each listing's facts and distances as its search does.
  static func text(
    _ found: [FoundListing], now: Date, searches: [String: Search] = [:]
  ) -> String {
    guard !found.isEmpty else { return "no listings\n" }
    let zone = TimeZone.current
    var lines: [String] = []
    for item in found {
      let listing = ListingCheck.shown(item.listing)
      let price = Money.format(listing) ?? "-"
      let place = listing.location ?? listing.area ?? ""
      let repost = item.repostOf.map { "  (repost of \($0))" } ?? ""
      lines.append(
        "\(ReportClock.time(item.firstSeen, now: now, timeZone: zone))  \(item.search)  \(price)  "
          + "\(listing.title)\(place.isEmpty ? "" : " · \(place)")\(repost)")
      let search = searches[item.search]
      if let facts = search.map({ ListingFacts.line(listing, for: $0) })
        ?? ListingFacts.summary(listing)
      {
        lines.append("    \(facts)")
      }
      if let marks = marks(item.marks) { lines.append("    \(marks)") }
      lines.append("    \(listing.url)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func json<T: Encodable>(_ value: T) -> String {
    ListingJSON.data(value).map { String(decoding: $0, as: UTF8.self) } ?? "null"
  }

  static func csv(_ found: [FoundListing]) -> String {
    var rows = [csvHeader]
    for item in found {
      let listing = item.listing
      let fields = [
        DateFormat.internet.string(from: item.firstSeen), item.search, item.event,
        item.repostOf ?? "",
        listing.id, listing.site, listing.price.map { String($0) } ?? "", listing.currency ?? "",
        listing.title, listing.location ?? listing.area ?? "", listing.url,
        item.deliveredTo.joined(separator: " "),
      ]
      rows.append(fields.map(quote).joined(separator: ","))
    }
    return rows.joined(separator: "\r\n") + "\r\n"
  }

  /// RFC 4180: quoted when it holds a comma, a quote or a line break; quotes doubled.
  static func quote(_ field: String) -> String {
    guard field.contains(where: { ",\"\r\n".contains($0) }) else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `searches` (by name): the distances from the places of those that saw the listing are
  /// shown, the floor area in the unit the first of them writes.
  static func show(
    _ history: ListingHistory, now: Date, searches: [String: Search] = [:],
    chart: PriceChart? = nil
  ) -> String {
    let zone = TimeZone.current
    let time = { (date: Date) in ReportClock.time(date, now: now, timeZone: zone) }
    let listing = ListingCheck.shown(history.listing)
    var lines = [
      "\(listing.site):\(listing.id)  \(listing.title)",
      "  \(listing.url)",
      "  price: " + (Money.format(listing) ?? "none")
        + ", place: \(listing.location ?? listing.area ?? "-")",
      "  first seen \(time(history.firstSeen)), last seen \(time(history.lastSeen)), "
        + (history.viewedAt.map { "viewed \(time($0))" } ?? "not viewed"),
    ]
    lines += marks(history.marks, time: time)
    let seen = history.searches.compactMap { searches[$0.search] }
    let unit = seen.lazy.compactMap(\.facts.shownAreaUnit).first
    if let facts = ListingFacts.summary(listing, unit: unit) { lines.append("  facts: \(facts)") }
    if let address = ListingFacts.place(listing) { lines.append("  address: \(address)") }
    for signal in listing.signals { lines.append("  ⚠ \(SafeText.line(signal.text))") }
    for line in listing.alert?.context ?? [] { lines.append("  \(SafeText.line(line))") }
    for other in history.alsoOn ?? [] {
      let (site, id) = (SafeText.line(other.key.site), SafeText.line(other.key.id))
      let link = other.url.map { "  \(SafeText.line($0))" } ?? ""
      lines.append("  also on \(site): \(site):\(id)\(link)")
    }
    var shown: [NamedPlace] = []
    for place in seen.flatMap(\.places) where !shown.contains(where: { $0.name == place.name }) {
      shown.append(place)
    }
    if let distances = ListingFacts.distances(listing, from: shown) {
      lines.append("  distances: \(distances)")
    }
    if let times = ListingFacts.travelTimes(listing) { lines.append("  travel times: \(times)") }
    lines.append("prices:")
    lines += history.prices.map { "  \(time($0.at))  \(Money.format($0.price, $0.currency))" }
    if history.prices.isEmpty { lines.append("  none") }
    lines += chart.map { PriceSparkline.lines($0, now: now) } ?? []
    for search in history.searches {
      lines.append(
        "search \(search.search): first seen \(time(search.firstSeen)), last seen "
          + time(search.lastSeen))
      if let original = search.repostOf { lines.append("  repost of \(original)") }
      if !search.alsoPostedAs.isEmpty {
        lines.append("  also posted as \(search.alsoPostedAs.joined(separator: ", "))")
      }
      for delivery in search.deliveries {
        let when = delivery.at.map { " \(time($0))" } ?? ""
        let why = delivery.lastError.map { " (\(delivery.attempts) refusals, last: \($0))" } ?? ""
        lines.append("  \(delivery.channel): \(delivery.event) \(delivery.state)\(when)\(why)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
