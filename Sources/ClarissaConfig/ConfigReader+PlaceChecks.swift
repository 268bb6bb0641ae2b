internal import ClarissaCore
internal import Foundation
internal import YAML

/// Warnings for input that reads without error and means something else than was meant: a
/// price whose point is a thousands separator, a place far from every city and area of the
/// searches that use it, a place filter on a site whose listings are never placed.
extension ConfigReader {
  /// Currencies whose own writing puts a point between thousands (`1.200 €`, `CHF 1.200`).
  static let pointThousandsCurrencies: Set<String> = [
    "ARS", "BRL", "CHF", "CLP", "COP", "DKK", "EUR", "IDR", "ISK", "NOK", "TRY", "VND",
  ]

  /// A place farther than this from every city and area of the searches that use it is
  /// probably written the wrong way round, or mistyped.
  static let farPlaceMetres = 500_000.0

  /// `max: 1.200` on a site in euros: YAML reads 1.2, which keeps nearly nothing.
  func warnThousandsPoint(_ node: Node, key: String, origin: String, site: (any FeedSource)?) {
    guard let currency = site?.currency?.uppercased(),
      Self.pointThousandsCurrencies.contains(currency), let scalar = node.scalar,
      scalar.style == .plain
    else { return }
    let parts = scalar.value.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...3).contains(parts[0].count), parts[0] != "0",
      parts[1].count == 3, parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
      let value = Double(scalar.value)
    else { return }
    warning(
      "'price.\(key)' \(scalar.value) in \(origin) is \(value) "
        + "\(currency): in YAML a point is a decimal point, not a thousands separator; write "
        + "\(parts.joined()) for \(parts.joined()) \(currency)", at: node)
  }

  /// `near`, `within` or `commute` on a site that never gives coordinates, with no geocoder to
  /// find them: no listing's place is known, so `missing` alone decides.
  func warnNoCoordinates(
    _ scope: SearchLookup, site: (any FeedSource)?, geocoder: GeocoderSettings?,
    missing: MissingFacts
  ) {
    guard let site, !site.givesCoordinates, geocoder == nil else { return }
    let verdict =
      missing == .keep ? "kept (missing: keep)" : "dropped (missing: drop)"
    for key in ["near", "within", "commute"] {
      guard let field = scope.field(key) else { continue }
      warning(
        "'\(key)' in \(field.origin) decides nothing: \(site.displayName) gives no coordinates "
          + "and no 'geocoder' is set, so every listing is \(verdict); set a 'geocoder' to "
          + "place listings by their address", at: field.keyNode)
    }
  }

  /// Each place used by `near` that is far from every city and area of the searches using it;
  /// says where it would be written the other way round, when that is near one.
  func warnFarPlaces(_ config: Config) {
    for place in config.places {
      guard let node = placeNodes[place.name] else { continue }
      let users = config.searches.filter { search in
        search.facts.near.contains { $0.place.name == place.name }
      }
      let marks = users.flatMap(landmarks)
      guard let (nearest, distance) = Self.nearest(place.coordinates, marks),
        distance.metres > Self.farPlaceMetres
      else { continue }
      let names = users.map { "'\($0.name)'" }.joined(separator: ", ")
      var message =
        "place '\(place.name)' is \(Self.kilometres(distance)) from \(nearest), the "
        + "nearest city or area of the searches that use it (\(names))"
      let swapped = Coordinates(
        latitude: place.coordinates.longitude, longitude: place.coordinates.latitude)
      if swapped.isOnGlobe, let (near, short) = Self.nearest(swapped, marks),
        short.metres <= Self.farPlaceMetres
      {
        message +=
          "; written [\(Self.degrees(swapped.latitude)), \(Self.degrees(swapped.longitude))] it "
          + "is \(short.words(in: .kilometres)) from \(near): places are [latitude, longitude], "
          + "latitude first"
      }
      warning(message, at: node)
    }
  }

  /// Where a search looks: its cities the site can place, and the centres of its areas.
  private func landmarks(_ search: Search) -> [(String, Coordinates)] {
    let site = sites.site(search.site)
    let cities = search.cities.compactMap { city in
      site?.coordinates(of: city).map { ("city '\(city.name)'", $0) }
    }
    let areas = search.facts.within.compactMap { area in
      Self.centre(area).map { ("area '\(area.name)'", $0) }
    }
    return cities + areas
  }

  private static func nearest(_ point: Coordinates, _ marks: [(String, Coordinates)]) -> (
    String, Distance
  )? {
    marks.map { ($0.0, point.distance(to: $0.1)) }.min { $0.1 < $1.1 }
  }

  /// The middle of an area's bounding box.
  private static func centre(_ area: GeoArea) -> Coordinates? {
    var low = (latitude: Double.infinity, longitude: Double.infinity)
    var high = (latitude: -Double.infinity, longitude: -Double.infinity)
    for polygon in area.polygons {
      for corner in polygon.rings.first ?? [] {
        low = (min(low.latitude, corner.latitude), min(low.longitude, corner.longitude))
        high = (max(high.latitude, corner.latitude), max(high.longitude, corner.longitude))
      }
    }
    guard low.latitude <= high.latitude else { return nil }
    return Coordinates(
      latitude: (low.latitude + high.latitude) / 2,
      longitude: (low.longitude + high.longitude) / 2)
  }

  private static func degrees(_ value: Double) -> String { "\(value)" }

  /// "5557 km": far is said in whole kilometres.
  private static func kilometres(_ distance: Distance) -> String {
    "\(ListingFacts.number(distance.value(in: .kilometres), digits: 0)) km"
  }
}
