internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore

/// Listings as a person reads them in a terminal: id, price, date, place, then title and link.
enum ListingText {
  static func render(_ listings: [Listing], header: String) -> String {
    var lines = [header]
    for listing in listings.map(ListingCheck.shown) {
      var facts = [listing.id]
      if let price = Money.format(listing) { facts.append(price) }
      if let posted = listing.posted { facts.append(timestamp(posted)) }
      if let area = listing.area { facts.append(area) }
      if let location = listing.location, !location.isEmpty { facts.append(location) }
      lines.append(facts.joined(separator: "  "))
      lines.append("  " + listing.title)
      lines.append("  " + listing.url)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func timestamp(_ date: Date) -> String {
    timestampFormat.string(from: date).replacingOccurrences(of: "Z", with: "") + "Z"
  }

  private static let timestampFormat = DateFormat.iso8601([
    .withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime,
  ])
}
