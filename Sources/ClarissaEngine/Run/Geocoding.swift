internal import ClarissaCore
internal import Curl
internal import Foundation
internal import ListingStore
internal import Presentation

/// Finds where listings are that give an address or a postcode and no coordinates, with the
/// user's geocoder (``GeocoderSettings``; none by default: nothing leaves the machine for it).
/// Every answer is kept in the store under the geocoder's URL, so an address is asked once; a
/// run asks at most `per_run` addresses, one per `delay`. An address the geocoder refuses or
/// fails on is kept too, with a back-off (``Geocode/failure(_:after:at:)``), and does not stop
/// the others; a geocoder that refuses the client (401, 403, 429) or fails
/// ``failuresToPause`` times in a row (5xx, no answer) is not asked again in the run.
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
  /// The geocoder's failures in a row (5xx, no answer, an answer not understood).
  private var failingInARow = 0

  /// The largest answer read: one place is a few hundred bytes.
  static let maxAnswerBytes = 256 * 1024
  /// Failures in a row that pause the geocoder for the run.
  static let failuresToPause = 3
  /// Failed addresses named in a note; the rest are counted.
  static let failuresNamed = 3

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

  /// `reading` with the coordinates the store or the geocoder knows filled in, and notes for
  /// addresses left for a later run, addresses that failed and a geocoder that failed. With
  /// `asking` false (a dry run) only the store's answers are used and nothing is written.
  func locate(
    _ reading: SearchReading, memory: any ListingMemory, now: Date, asking: Bool
  ) async -> SearchReading {
    var reading = reading
    let queries = Set(reading.batches.flatMap { $0.listings.compactMap(Self.query) })
    guard !queries.isEmpty else { return reading }
    let retryBefore = now.addingTimeInterval(-settings.retryNotFound.timeInterval)
    let stored: [String: Geocode]
    do {
      stored = try memory.geocodes(
        Array(queries), geocoder: settings.url, retryingBefore: retryBefore)
    } catch {
      reading.notes.append("geocoder: the store's answers could not be read: \(error)")
      return reading
    }
    var known = stored.filter { $0.value.failures == 0 }.mapValues(\.coordinates)
    var tally = Tally()
    // Never failed first, then by failures: an address that failed waits behind the others.
    let due = queries.filter { known[$0] == nil }.sorted {
      (stored[$0]?.failures ?? 0, $0) < (stored[$1]?.failures ?? 0, $1)
    }
    for query in due {
      if let retryAt = stored[query]?.retryAt, retryAt > now {
        tally.backingOff += 1
        continue
      }
      guard asking, broken == nil, asked < settings.perRun else {
        tally.waiting += 1
        continue
      }
      switch await ask(query) {
      case .success(let coordinates):
        known[query] = coordinates
        try? memory.rememberGeocode(
          query, geocoder: settings.url, Geocode(coordinates: coordinates, askedAt: now))
      case .failure(let failure):
        if failure.isTheAddress {
          let kept = Geocode.failure(failure.why, after: stored[query], at: now)
          try? memory.rememberGeocode(query, geocoder: settings.url, kept)
          tally.failed.append((query, failure.why, kept))
        } else {
          tally.waiting += 1
        }
        if let pause = failure.pause(after: failingInARow) {
          broken = pause
          reading.notes.append("geocoder: \(pause); not asked again in this run")
        }
        failingInARow = failure.isTheService ? failingInARow + 1 : 0
        continue
      }
      failingInARow = 0
    }
    reading.notes += tally.notes(asking: asking && broken == nil, perRun: settings.perRun)
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
    let name = SafeText.line(settings.url)
    guard let url = Self.url(settings, query) else {
      return .failure(GeocodingFailure("'\(name)' is no URL to ask", .client))
    }
    let request = RequestSpec(
      url: url, headers: ["Accept": "application/json", "User-Agent": userAgent],
      mode: "geocode", allowsConditionalGET: false, allowsPrivateRedirects: true)
    switch await fetcher.fetch(request, headers: [:]) {
    case .failure(let error):
      return .failure(GeocodingFailure("\(name): \(error.message)", .service))
    case .success(let response):
      guard response.status == 200 else {
        return .failure(
          GeocodingFailure(
            "\(name) answered HTTP \(response.status)", GeocodingFailure.blame(response.status)))
      }
      return Self.place(response.body).mapError {
        GeocodingFailure("\(name): \($0.why)", .service)
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

/// Why the geocoder gave no answer, and whose fault it is.
struct GeocodingFailure: Error, Sendable {
  /// Who a failure is held against.
  enum Blame: Sendable {
    /// The address: the geocoder refused it (a 4xx other than those below); the others are
    /// asked.
    case address
    /// The geocoder: a 5xx, no answer, or an answer not understood. The address waits for its
    /// back-off; ``Geocoding/failuresToPause`` in a row pause the geocoder for the run.
    case service
    /// The client: the geocoder refuses us (401, 403, 407, 429) or its URL is wrong. Not the
    /// address's fault; the geocoder is not asked again in the run.
    case client
  }

  let why: String
  let blame: Blame

  init(_ why: String, _ blame: Blame = .service) {
    self.why = why
    self.blame = blame
  }

  /// Who an HTTP status other than 200 blames.
  static func blame(_ status: Int) -> Blame {
    switch status {
    case 401, 403, 407, 429: .client
    case 400..<500: .address
    default: .service
    }
  }

  /// Whether the address is kept as failed, with a back-off.
  var isTheAddress: Bool { blame != .client }
  /// Whether it counts among the geocoder's failures in a row.
  var isTheService: Bool { blame == .service }

  /// Why the geocoder is paused for the run after this failure and `inARow` before it; nil
  /// when it is asked on.
  func pause(after inARow: Int) -> String? {
    switch blame {
    case .address: nil
    case .client: why
    case .service:
      inARow + 1 >= Geocoding.failuresToPause
        ? "\(why) (\(inARow + 1) failures in a row)" : nil
    }
  }
}

/// What a run's geocoding left undone, for the search's notes.
private struct Tally {
  /// Addresses past `per_run`, or not asked since the geocoder was paused.
  var waiting = 0
  /// Addresses that failed before and wait for their back-off.
  var backingOff = 0
  /// Addresses that failed in this run: the address, why, what was kept.
  var failed: [(query: String, why: String, kept: Geocode)] = []

  func notes(asking: Bool, perRun: Int) -> [String] {
    var notes: [String] = []
    if !failed.isEmpty {
      let named = failed.prefix(Geocoding.failuresNamed).map {
        let wait = ($0.kept.retryAt ?? $0.kept.askedAt).timeIntervalSince($0.kept.askedAt)
        return "'\(SafeText.line(String($0.query.prefix(80))))' (\($0.why); asked again in "
          + "\(ReportClock.span(wait)))"
      }
      let more = failed.count - named.count
      notes.append(
        "geocoder: \(failed.count == 1 ? "an address" : "\(failed.count) addresses") failed: "
          + named.joined(separator: ", ") + (more > 0 ? " and \(more) more" : ""))
    }
    if backingOff > 0 {
      notes.append(
        "geocoder: \(backingOff) \(backingOff == 1 ? "address" : "addresses") that failed "
          + "before \(backingOff == 1 ? "waits" : "wait") for \(backingOff == 1 ? "its" : "their") "
          + "back-off")
    }
    if waiting > 0, asking {
      notes.append(
        "geocoder: \(waiting) \(waiting == 1 ? "address waits" : "addresses wait") for the next "
          + "run (geocoder.per_run \(perRun))")
    }
    return notes
  }
}

extension Runner {
  /// The user's geocoder for one run (or explanation), nil when the config names none.
  func geocoding() -> Geocoding? {
    config.geocoder.map {
      Geocoding(
        settings: $0, fetcher: scheduler.fetcher, userAgent: config.http.userAgent,
        timeout: config.http.timeout.timeInterval)
    }
  }

  /// `reading` with the coordinates `geocoding` finds (``Geocoding/locate``), only where a place
  /// decides or is shown: a search with `near` or `within`, or named places. `run` and
  /// `explain` both place listings here, so they cannot disagree about one.
  func located(
    _ reading: SearchReading, for search: Search, by geocoding: Geocoding?,
    memory: any ListingMemory, now: Date, asking: Bool
  ) async -> SearchReading {
    guard let geocoding,
      !search.facts.near.isEmpty || !search.facts.within.isEmpty || !config.places.isEmpty
    else { return reading }
    return await geocoding.locate(reading, memory: memory, now: now, asking: asking)
  }
}
