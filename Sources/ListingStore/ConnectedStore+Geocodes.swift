public import ClarissaCore
public import Foundation

/// The geocoder's answers and failures, per geocoder (its URL) and address, kept so that an
/// address is asked once and one that failed waits for its back-off (``GeocoderSettings``).
extension ConnectedStore {
  public func geocodes(_ queries: [String], geocoder: String, retryingBefore: Date) throws
    -> [String: Geocode]
  {
    try locked { database in
      try database.reading {
        var found: [String: Geocode] = [:]
        for query in Set(queries) {
          try database.run(
            "SELECT latitude, longitude, asked_at, failures, retry_at, last_error FROM geocodes "
              + "WHERE geocoder = ? AND query = ?", [.text(geocoder), .text(query)]
          ) { row in
            var answer = Geocode(
              coordinates: nil, askedAt: row.date(GeocodeColumn.askedAt),
              failures: row.int(GeocodeColumn.failures),
              retryAt: row.optionalDate(GeocodeColumn.retryAt),
              lastError: row.optionalText(GeocodeColumn.lastError))
            if let latitude = row.optionalDouble(GeocodeColumn.latitude),
              let longitude = row.optionalDouble(GeocodeColumn.longitude)
            {
              answer.coordinates = Coordinates(latitude: latitude, longitude: longitude)
            }
            // Nothing found long ago: absent, so asked again. A failure is kept with its back-off.
            guard
              answer.coordinates != nil || answer.failures > 0
                || answer.askedAt >= retryingBefore
            else { return }
            found[query] = answer
          }
        }
        return found
      }
    }
  }

  public func rememberGeocode(_ query: String, geocoder: String, _ answer: Geocode) throws {
    try locked { database in
      try database.run(
        "INSERT INTO geocodes(geocoder, query, latitude, longitude, asked_at, failures, "
          + "retry_at, last_error) VALUES(?, ?, ?, ?, ?, ?, ?, ?) "
          + "ON CONFLICT(geocoder, query) DO UPDATE SET latitude = excluded.latitude, "
          + "longitude = excluded.longitude, asked_at = excluded.asked_at, "
          + "failures = excluded.failures, retry_at = excluded.retry_at, "
          + "last_error = excluded.last_error",
        [
          .text(geocoder), .text(query), .doubleOrNull(answer.coordinates?.latitude),
          .doubleOrNull(answer.coordinates?.longitude), .time(answer.askedAt),
          .int(answer.failures), .time(answer.retryAt), .textOrNull(answer.lastError),
        ])
    }
  }
}

/// What the geocoder answered for an address: its coordinates, none found, or a failure that
/// waits for its back-off.
public struct Geocode: Sendable, Equatable {
  /// Where the address is; nil when the geocoder found nothing or failed.
  public var coordinates: Coordinates?
  /// When it was asked.
  public var askedAt: Date
  /// How many times in a row asking failed (a refusal, an error, an answer not understood); 0
  /// for an answer.
  public var failures: Int
  /// When a failed address may be asked again; nil for an answer.
  public var retryAt: Date?
  /// Why asking last failed, for messages.
  public var lastError: String?

  /// Creates an answer (coordinates, or nil: none found).
  public init(coordinates: Coordinates?, askedAt: Date) {
    self.init(coordinates: coordinates, askedAt: askedAt, failures: 0, retryAt: nil, lastError: nil)
  }

  /// Creates an answer or a failure.
  public init(
    coordinates: Coordinates?, askedAt: Date, failures: Int, retryAt: Date?, lastError: String?
  ) {
    self.coordinates = coordinates
    self.askedAt = askedAt
    self.failures = failures
    self.retryAt = retryAt
    self.lastError = lastError
  }

  /// The `failures`-th failure in a row at `now`: asked again after an hour, then 2, 4, 8...
  /// hours, at most a week later.
  public static func failure(_ why: String, after previous: Geocode?, at now: Date) -> Geocode {
    let failures = min((previous?.failures ?? 0) + 1, 64)
    let wait = min(backOffBase * pow(2, Double(failures - 1)), backOffLongest)
    return Geocode(
      coordinates: nil, askedAt: now, failures: failures,
      retryAt: now.addingTimeInterval(wait), lastError: why)
  }

  /// The first back-off: an hour.
  public static let backOffBase: TimeInterval = 3_600
  /// The longest back-off: a week.
  public static let backOffLongest: TimeInterval = 7 * 86_400
}
