/// A geocoder that answers like Nominatim's search API (`GET URL?q=...&format=jsonv2&limit=1`
/// with a JSON array of places, each with `lat` and `lon` as text): used for listings that give
/// an address or a postcode and no coordinates, at most one request per ``delay``, every answer
/// (none found included) kept in the store.
public struct GeocoderSettings: Sendable, Equatable {
  /// The search endpoint (`https://nominatim.openstreetmap.org/search`, or one's own).
  public var url: String
  /// Sent as `email=` (Nominatim's usage policy asks heavy users to say who they are).
  public var email: String?
  /// Requests one run makes at most; the rest wait for the next run.
  public var perRun: Int
  /// The least time between two requests (Nominatim's policy: one a second).
  public var delay: Interval
  /// How long an address that found nothing is not asked again.
  public var retryNotFound: Interval

  /// The fewest seconds between requests that the config may ask for.
  public static let leastDelay = Interval.seconds(1)

  /// Creates settings.
  public init(
    url: String, email: String? = nil, perRun: Int = 30, delay: Interval = .seconds(1),
    retryNotFound: Interval = .days(30)
  ) {
    self.url = url
    self.email = email
    self.perRun = perRun
    self.delay = delay
    self.retryNotFound = retryNotFound
  }
}
