package import ClarissaCore

/// How many of an answer's listings have each fact (`sites check`, the sites' table in
/// docs/adding-a-site.md): "coordinates 30/30, rooms 30/30, floor_area 30/30, ...".
package struct ListingFactCounts {
  /// The listings counted.
  package let total: Int
  /// Each fact in a fixed order (then the site's other facts by name), with how many listings
  /// have it.
  package let counts: [(name: String, count: Int)]

  package init(_ listings: [Listing]) {
    total = listings.count
    func count(_ has: (Listing) -> Bool) -> Int { listings.filter(has).count }
    var counts: [(String, Int)] = [
      ("coordinates", count { $0.coordinates != nil }), ("rooms", count { $0.rooms != nil }),
      ("bedrooms", count { $0.bedrooms != nil }), ("bathrooms", count { $0.bathrooms != nil }),
      ("floor_area", count { $0.floorArea != nil }), ("postcode", count { $0.postcode != nil }),
      ("address", count { $0.address != nil }),
    ]
    let names = Set(listings.flatMap(\.facts.keys)).sorted()
    counts += names.map { name in ("facts.\(name)", count { $0.facts[name] != nil }) }
    self.counts = counts
  }

  /// The facts some listing has, `rooms 26/27, floor_area 26/27`; "none" when no listing has any.
  package var found: String {
    let some = counts.filter { $0.count > 0 }
    return some.isEmpty
      ? "none" : some.map { "\($0.name) \($0.count)/\(total)" }.joined(separator: ", ")
  }

}
