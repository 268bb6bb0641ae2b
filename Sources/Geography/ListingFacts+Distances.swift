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

  /// The listing's travel times (``Listing/commute``, which the run's commute stage fills), in
  /// one line: "24 min by transit to work · travel time to gym by bike unknown (no route)"; nil
  /// when there are none. The place names are the config's, the notes clarissa's own; both are
  /// made safe for a terminal all the same.
  public static func travelTimes(_ listing: Listing) -> String? {
    listing.commuteWords.map(SafeText.line)
  }

  /// Where the listing is, as distances and travel times together: "2.1 km from work · 24 min
  /// by transit to work"; nil when there is neither.
  public static func whereabouts(_ listing: Listing, from places: [NamedPlace]) -> String? {
    let parts = [distances(listing, from: places), travelTimes(listing)].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }

  /// The facts, the distances and the travel times as `search` words them: the floor area in
  /// the unit its filters write (else the site's), the distances from its places.
  public static func line(_ listing: Listing, for search: Search) -> String? {
    line(listing, places: search.places, unit: search.facts.shownAreaUnit)
  }

  /// The facts, the distances and the travel times, as one line ("2 rooms · 50 m² · 2.1 km
  /// from work · 24 min by transit to work"), nil when the listing has none of them. The one
  /// wording of the text report, the Markdown report and `listings`.
  public static func line(_ listing: Listing, places: [NamedPlace], unit: AreaUnit? = nil)
    -> String?
  {
    let parts = [summary(listing, unit: unit), whereabouts(listing, from: places)].compactMap {
      $0
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}
