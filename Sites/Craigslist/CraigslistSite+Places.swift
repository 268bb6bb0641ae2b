internal import ClarissaCore
internal import Foundation

/// The spellings people type for a Craigslist place: a nickname (`sf`, `nyc`, `philly`), a town
/// inside an area (`berkeley` is the East Bay), a name run together (`sanfrancisco`) or a
/// subarea's name without "city of". Read as the area they mean, with a warning that names it.
extension CraigslistSite {
  /// Nicknames and towns inside an area, as people write them: each points at the area (or
  /// subarea) Craigslist files them under. Hand-kept: the reference tables name areas and
  /// subareas only, not the towns in them.
  static let placeNicknames: [String: String] = [
    "sf": "sfbay", "san fran": "sfbay", "frisco": "sfbay", "bay area": "sfbay",
    "berkeley": "sfbay/eby", "oakland": "sfbay/eby", "fremont": "sfbay/eby",
    "hayward": "sfbay/eby", "richmond ca": "sfbay/eby", "walnut creek": "sfbay/eby",
    "palo alto": "sfbay/pen", "mountain view": "sfbay/pen", "redwood city": "sfbay/pen",
    "san mateo": "sfbay/pen", "menlo park": "sfbay/pen",
    "san jose": "sfbay/sby", "sunnyvale": "sfbay/sby", "santa clara": "sfbay/sby",
    "cupertino": "sfbay/sby", "san rafael": "sfbay/nby", "marin": "sfbay/nby",
    "nyc": "newyork", "new york": "newyork", "ny": "newyork",
    "la": "losangeles", "l.a.": "losangeles", "dc": "washingtondc", "washington": "washingtondc",
    "philly": "philadelphia", "vegas": "lasvegas", "nola": "neworleans",
  ]

  /// The area (or `area/subarea`) a place name means, when there is one beyond doubt: a
  /// nickname, or an area's or subarea's name written together or apart (`sanfrancisco`,
  /// `San Francisco`, `east bay`). Nil for an unknown name (suggestions then come from
  /// spelling).
  static func place(meant name: String) -> String? {
    let lowered = name.lowercased().trimmingCharacters(in: .whitespaces)
    if let known = placeNicknames[lowered] { return known }
    let key = placeKey(lowered)
    guard !key.isEmpty else { return nil }
    return placesByKey[key]
  }

  /// The closest place names by spelling (`san fransisco` -> `sfbay/sfc`), best first.
  static func places(spelledLike name: String) -> [String] {
    let key = placeKey(name.lowercased())
    guard key.count >= 4 else { return [] }
    return Suggestions.closest(to: key, in: placesByKey.keys, limit: 1).compactMap {
      placesByKey[$0]
    }
  }

  /// Letters and digits only, "city of" dropped: `City of San Francisco` -> `sanfrancisco`.
  static func placeKey(_ name: String) -> String {
    var text = name.lowercased()
    if text.hasPrefix("city of ") { text.removeFirst("city of ".count) }
    return String(
      text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
  }

  /// Each area's and subarea's name as a key (areas first: an area's own name wins over a
  /// subarea of the same name elsewhere), with its nicknames.
  static let placesByKey: [String: String] = {
    var places: [String: String] = [:]
    for area in CraigslistTables.areas {
      let key = placeKey(area.name.split(separator: ",").first.map(String.init) ?? area.name)
      if !key.isEmpty, places[key] == nil { places[key] = area.hostname }
    }
    for area in CraigslistTables.areas {
      for subarea in area.subareas {
        let key = placeKey(subarea.name)
        if !key.isEmpty, places[key] == nil {
          places[key] = "\(area.hostname)/\(subarea.abbreviation)"
        }
      }
    }
    for (nickname, place) in placeNicknames where nickname.count >= 4 {
      places[placeKey(nickname)] = places[placeKey(nickname)] ?? place
    }
    return places
  }()
}
