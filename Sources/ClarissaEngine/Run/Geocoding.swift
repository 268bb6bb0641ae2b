import ClarissaCore
import Foundation
import ListingStore

/// Finds where listings are that give an address or a postcode and no coordinates, with the
/// user's geocoder (``GeocoderSettings``; none by default: nothing leaves the machine for it).
/// Every answer is kept in the store, so an address is asked once; a run asks at most
/// `per_run` addresses, one per `delay`; a geocoder that fails is not asked again in the run.
actor Geocoding {
  let settings: GeocoderSettings
  let fetcher: any Fetcher
  let userAgent: String
  let limits: FetchLimits
  /// Requests made in this run.
  private(set) var asked = 0
  /// When the last request left.
  private var lastAsked: ContinuousClock.Instant?
  /// Why the geocoder is not asked again in this run.
  private var broken: String?

  /// The largest answer read: one place is a few hundred bytes.
  static let maxAnswerBytes = 256 * 1024

  init(settings: GeocoderSettings, fetcher: any Fetcher, userAgent: String, timeout: Double) {
    self.settings = settings
    self.fetcher = fetcher
    self.userAgent = userAgent
    limits = FetchLimits(timeout: timeout, maxBytes: Self.maxAnswerBytes)
  }

  /// The text asked for a listing: its address and postcode; nil when it has coordinates or
  /// neither.
  static func query(_ listing: Listing) -> String? {
    guard listing.coordinates == nil else { return nil }
    let parts = [listing.address, listing.postcode].compactMap {
      $0?.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// `reading` with the coordinates the store or the geocoder knows filled in, and a note for
  /// addresses left for a later run or a geocoder that failed. With `asking` false (a dry run)
  /// only the store's answers are used and nothing is written.
  func locate(
    _ reading: SearchReading, memory: any ListingMemory, now: Date, asking: Bool
  ) async -> SearchReading {
    var reading = reading
    let queries = Set(reading.batches.flatMap { $0.listings.compactMap(Self.query) })
    guard !queries.isEmpty else { return reading }
    let retryBefore = now.addingTimeInterval(-settings.retryNotFound.timeInterval)
    var known: [String: Coordinates?] = [:]
    do {
      for (query, answer) in try memory.geocodes(Array(queries), retryingBefore: retryBefore) {
        known[query] = answer.coordinates
      }
    } catch {
      reading.notes.append("geocoder: the store's answers could not be read: \(error)")
      return reading
    }
    var waiting = 0
    for query in queries.sorted() where known[query] == nil {
      guard asking, broken == nil, asked < settings.perRun else {
        waiting += 1
        continue
      }
      switch await ask(query) {
      case .success(let coordinates):
        known[query] = coordinates
        try? memory.rememberGeocode(query, coordinates, at: now)
      case .failure(let failure):
        broken = failure.why
        reading.notes.append("geocoder: \(failure.why); not asked again in this run")
        waiting += 1
      }
    }
    if waiting > 0, asking, broken == nil {
      reading.notes.append(
        "geocoder: \(waiting) \(waiting == 1 ? "address waits" : "addresses wait") for the next "
          + "run (geocoder.per_run \(settings.perRun))")
    }
    for batch in reading.batches.indices {
      for index in reading.batches[batch].listings.indices {
        let listing = reading.batches[batch].listings[index]
        if let query = Self.query(listing), let found = known[query] ?? nil {
          reading.batches[batch].listings[index].coordinates = found
        }
      }
    }
    return reading
  }

  /// One request, `delay` after the last: the first place's coordinates, nil when none was
  /// found, or why the geocoder could not answer.
  private func ask(_ query: String) async -> Result<Coordinates?, GeocodingFailure> {
    if let lastAsked {
      let wait = Duration.milliseconds(settings.delay.milliseconds) - (.now - lastAsked)
      if wait > .zero { try? await Task.sleep(for: wait) }
    }
    lastAsked = .now
    asked += 1
    guard let url = Self.url(settings, query) else {
      return .failure(GeocodingFailure("'\(settings.url)' is no URL to ask"))
    }
    let request = RequestSpec(
      url: url, headers: ["Accept": "application/json", "User-Agent": userAgent],
      mode: "geocode", allowsConditionalGET: false, allowsPrivateRedirects: true)
    switch await fetcher.fetch(request, headers: [:]) {
    case .failure(let error):
      return .failure(GeocodingFailure("\(SafeText.line(settings.url)): \(error.message)"))
    case .success(let response):
      guard response.status == 200 else {
        return .failure(
          GeocodingFailure("\(SafeText.line(settings.url)) answered HTTP \(response.status)"))
      }
      return Self.place(response.body).mapError {
        GeocodingFailure("\(SafeText.line(settings.url)): \($0.why)")
      }
    }
  }

  /// The request for `query`: the endpoint with `q`, `format=jsonv2`, `limit=1` and the email.
  static func url(_ settings: GeocoderSettings, _ query: String) -> String? {
    guard var components = URLComponents(string: settings.url),
      ["http", "https"].contains(components.scheme?.lowercased() ?? "")
    else { return nil }
    var items = components.queryItems ?? []
    items += [
      URLQueryItem(name: "q", value: query), URLQueryItem(name: "format", value: "jsonv2"),
      URLQueryItem(name: "limit", value: "1"),
    ]
    if let email = settings.email { items.append(URLQueryItem(name: "email", value: email)) }
    components.queryItems = items
    // `+` stays itself in a query item; a geocoder would read it as a space.
    components.percentEncodedQuery = components.percentEncodedQuery?
      .replacingOccurrences(of: "+", with: "%2B")
    return components.string
  }

  /// The first place of a Nominatim answer (`[{"lat": "52.5", "lon": "13.4", ...}]`); nil when
  /// the list is empty. Numbers as text or as numbers, within the globe's ranges.
  static func place(_ body: [UInt8]) -> Result<Coordinates?, GeocodingFailure> {
    guard body.count <= maxAnswerBytes,
      let places = (try? JSONSerialization.jsonObject(with: Data(body))) as? [Any]
    else { return .failure(GeocodingFailure("the answer is not a JSON list of places")) }
    guard let first = places.first else { return .success(nil) }
    guard let place = first as? [String: Any], let latitude = degrees(place["lat"]),
      let longitude = degrees(place["lon"]),
      (-90...90).contains(latitude), (-180...180).contains(longitude)
    else { return .failure(GeocodingFailure("the first place has no 'lat' and 'lon' in range")) }
    return .success(Coordinates(latitude: latitude, longitude: longitude))
  }

  private static func degrees(_ value: Any?) -> Double? {
    let number: Double? =
      switch value {
      case let text as String: text.utf8.count <= 32 ? Double(text) : nil
      case let number as NSNumber: number.doubleValue
      default: nil
      }
    return number.flatMap { $0.isFinite ? $0 : nil }
  }
}

/// Why the geocoder gave no answer.
struct GeocodingFailure: Error, Sendable {
  let why: String
  init(_ why: String) { self.why = why }
}
