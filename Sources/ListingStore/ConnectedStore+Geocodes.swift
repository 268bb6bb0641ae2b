import ClarissaCore
import Foundation

/// The geocoder's answers, kept so that an address is asked once (``GeocoderSettings``).
extension ConnectedStore {
  public func geocodes(_ queries: [String], retryingBefore: Date) throws -> [String: Geocode] {
    try locked { database in
      try database.reading {
        var found: [String: Geocode] = [:]
        for query in Set(queries) {
          try database.run(
            "SELECT latitude, longitude, asked_at FROM geocodes WHERE query = ?", [.text(query)]
          ) { row in
            let askedAt = Date(timeIntervalSince1970: row.double(2))
            var coordinates: Coordinates?
            if let latitude = row.optionalDouble(0), let longitude = row.optionalDouble(1) {
              coordinates = Coordinates(latitude: latitude, longitude: longitude)
            }
            // Nothing found long ago: absent, so asked again.
            guard coordinates != nil || askedAt >= retryingBefore else { return }
            found[query] = Geocode(coordinates: coordinates, askedAt: askedAt)
          }
        }
        return found
      }
    }
  }

  public func rememberGeocode(_ query: String, _ coordinates: Coordinates?, at now: Date) throws {
    try locked { database in
      try database.run(
        "INSERT INTO geocodes(query, latitude, longitude, asked_at) VALUES(?, ?, ?, ?) "
          + "ON CONFLICT(query) DO UPDATE SET latitude = excluded.latitude, "
          + "longitude = excluded.longitude, asked_at = excluded.asked_at",
        [
          .text(query), .doubleOrNull(coordinates?.latitude),
          .doubleOrNull(coordinates?.longitude), .time(now),
        ])
    }
  }
}

/// What the geocoder answered for an address: its coordinates, or none found.
public struct Geocode: Sendable, Equatable {
  /// Where the address is; nil when the geocoder found nothing.
  public var coordinates: Coordinates?
  /// When it was asked.
  public var askedAt: Date

  /// Creates an answer.
  public init(coordinates: Coordinates?, askedAt: Date) {
    self.coordinates = coordinates
    self.askedAt = askedAt
  }
}
