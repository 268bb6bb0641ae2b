internal import ClarissaCore
internal import Foundation

extension Pages {
  /// The rows of a listing's page for what it describes: rooms, bedrooms, bathrooms, floor area,
  /// postcode and address (none for a fact the site did not give).
  static func describedFacts(_ listing: Listing) -> [(String, HTML)] {
    var rows: [(String, HTML)] = []
    func add(_ name: String, _ value: String?) {
      if let value, !value.isEmpty { rows.append((name, "\(value)")) }
    }
    add("rooms", listing.rooms.map { ListingFacts.number($0, digits: 1) })
    add("bedrooms", listing.bedrooms.map { ListingFacts.number($0, digits: 1) })
    add("bathrooms", listing.bathrooms.map { ListingFacts.number($0, digits: 1) })
    add("floor area", ListingFacts.floorArea(listing))
    add("postcode", listing.postcode)
    add("address", listing.address)
    return rows
  }

  /// The site's other facts as a small table, by name; empty when there are none.
  static func otherFacts(_ facts: [String: String]) -> HTML {
    guard !facts.isEmpty else { return .empty }
    let rows = facts.sorted { $0.key < $1.key }.map {
      "<tr><th scope=\"row\">\($0.key)</th><td>\($0.value)</td></tr>" as HTML
    }
    return "<h2>Other facts</h2><table class=\"other-facts\">\(rows)</table>"
  }
}
