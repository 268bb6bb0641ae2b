public import ClarissaCore

extension ListingFacts {
  /// How far the listing is from each of `places`, in each place's unit, in one line: "2.1 km
  /// from work · 850 m from gym"; nil when it has no coordinates or there are no places. One
  /// wording for the terminal, the messages and the pages (a search's places are
  /// ``Search/places``).
  public static func distances(_ listing: Listing, from places: [NamedPlace]) -> String? {
    guard let here = listing.coordinates, !places.isEmpty else { return nil }
    return places.map { place in
      "\(place.coordinates.distance(to: here).words(in: place.unit)) from \(place.name)"
    }.joined(separator: " · ")
  }

  /// The facts and the distances as `search` words them: the floor area in the unit its
  /// filters write (else the site's), the distances from its places.
  public static func line(_ listing: Listing, for search: Search) -> String? {
    line(listing, places: search.places, unit: search.facts.shownAreaUnit)
  }

  /// The facts and the distances, as one line ("2 rooms · 50 m² · 2.1 km from work"), nil when
  /// the listing has neither.
  public static func line(_ listing: Listing, places: [NamedPlace], unit: AreaUnit? = nil)
    -> String?
  {
    let parts = [summary(listing, unit: unit), distances(listing, from: places)].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}
