internal import ClarissaCore
internal import Foundation

/// MOTIS's one-to-many transit endpoint, as openapi.yaml of motis-project/motis describes it
/// (commit ed0360f, `/api/experimental/one-to-many-intermodal`, operationId
/// `oneToManyIntermodal`): "Computes the minimal duration from one place to many or vice
/// versa", `one` and `many` as `latitude;longitude` (the many joined by `,`), `arriveBy`
/// (true: many to one), `time` (RFC 3339). The answer is an `OneToManyIntermodalResponse`:
/// `street_durations` (a `Duration` per many location, `{"duration": seconds}` or `{}` when
/// no direct walk was found) and `transit_durations` (a Pareto set per many location,
/// `[{"duration": seconds, "transfers": n}, ...]`, empty when no transit journey was found).
/// Errors are `{"error": "..."}` with 400 (a coordinate not understood), 422 (more `many`
/// than the server's `onetomany_max_many`, 128 by default, motis/docs/setup.md) or 500.
///
/// Why this endpoint: it is the API's only one that answers many places' transit times in
/// one request (`plan` answers one journey a request; `one-to-all` answers stops, not
/// addresses, and leaves the walk to each listing to us). The journey asked is from each
/// home to the place, as OSRM's: `one` is the place, `many` the homes, `arriveBy=true`. In
/// that direction MOTIS reads `time` as the arrival (openapi.yaml: "Departure time
/// ($arriveBy=false) / arrival date ($arriveBy=true)"), so `depart: "Mon 08:30"` asks for
/// the journeys that arrive by the next Monday 08:30; the minutes are counted back from
/// then (src/endpoints/one_to_many.cc), so a journey that arrives early counts its wait to
/// that moment. A home's minutes are the shorter of its direct walk and its fastest transit
/// journey. The endpoint is under `/api/experimental/`: MOTIS may change it without a new
/// API version.
///
/// Transitous (`https://api.transitous.org`, the public MOTIS) is a volunteer service, best
/// effort and not for commercial use; its usage policy (https://transitous.org/api, "Usage
/// Policy") asks every request to carry a `User-Agent` (or `X-Client-Identification`)
/// naming the application, its version and a way to reach its operator, and asks to be
/// told before resource-intensive use, routing among it. clarissa sends `http.user_agent`
/// (set it to say who you are), keeps the engine's `delay` and `per_run`, and asks each
/// grid cell once (the store's cache); a large search is better served by a MOTIS of one's
/// own.
enum MOTISOneToMany {
  /// Homes asked in one request: `onetomany_max_many`'s default.
  static let batchSize = 128

  /// The endpoint's path under the engine's base URL.
  static let path = "/api/experimental/one-to-many-intermodal"

  /// The request for the journeys from each of `homes` to `place`, arriving by the next
  /// `engine.depart` after `now` in `timeZone` (no `time` without a `depart`: MOTIS then asks
  /// now); nil when the engine's URL is no `http(s)` base or a position is off the globe.
  static func url(
    engine: RoutingEngine, place: Coordinates, homes: [Coordinates], now: Date,
    timeZone: TimeZone
  ) -> String? {
    guard let base = EngineNumber.base(engine.url), !homes.isEmpty,
      place.isOnGlobe, homes.allSatisfy(\.isOnGlobe)
    else { return nil }
    func position(_ at: Coordinates) -> String {
      "\(EngineNumber.degrees(at.latitude));\(EngineNumber.degrees(at.longitude))"
    }
    var url =
      "\(base)\(path)?one=\(position(place))"
      + "&many=\(homes.map(position).joined(separator: ","))&arriveBy=true"
    if let depart = engine.depart {
      url += "&time=\(timestamp(next(depart, after: now, in: timeZone)))"
    }
    return url
  }

  /// The next moment after `now` that is `departure`'s weekday and time in `timeZone` (a time
  /// a clock change skips is the first moment after it).
  static func next(_ departure: Departure, after now: Date, in timeZone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let wanted = DateComponents(
      hour: departure.minutes / 60, minute: departure.minutes % 60, second: 0,
      weekday: departure.weekday % 7 + 1)  // ISO's Monday 1 is the calendar's 2.
    return calendar.nextDate(after: now, matching: wanted, matchingPolicy: .nextTime) ?? now
  }

  /// `date` as RFC 3339 in UTC: `2026-11-30T07:30:00Z`.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }

  /// The largest answer read: 128 homes answer in a few KB.
  static let maxAnswerBytes = 1 << 20

  /// The minutes of each of `expected` homes from a 200 answer: the shorter of the direct
  /// walk and the fastest transit journey; nil where MOTIS found neither. An answer with the
  /// wrong number of entries, or a duration that is not a number within 0 to two days, is
  /// not used at all.
  static func minutes(_ body: [UInt8], expected: Int) -> Result<[Double?], RoutingFailure> {
    guard body.count <= maxAnswerBytes else {
      return .failure(RoutingFailure("the answer is larger than \(maxAnswerBytes) bytes"))
    }
    guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    else { return .failure(RoutingFailure("the answer is not a JSON object")) }
    let street = object["street_durations"]
    let transit = object["transit_durations"]
    guard street != nil || transit != nil else {
      return .failure(
        RoutingFailure("the answer has neither 'street_durations' nor 'transit_durations'"))
    }
    var best = [Double?](repeating: nil, count: expected)
    func keep(_ seconds: Double, at index: Int) {
      best[index] = min(best[index] ?? seconds, seconds)
    }
    if let street {
      guard let entries = street as? [Any], entries.count == expected else {
        return .failure(RoutingFailure("'street_durations' is not a list of \(expected)"))
      }
      for (index, entry) in entries.enumerated() {
        guard let duration = entry as? [String: Any] else {
          return .failure(RoutingFailure("a street duration is not an object"))
        }
        guard let value = duration["duration"] else { continue }
        guard let seconds = EngineNumber.seconds(value) else {
          return .failure(RoutingFailure("a duration is not a number of seconds within two days"))
        }
        keep(seconds, at: index)
      }
    }
    if let transit {
      guard let sets = transit as? [Any], sets.count == expected else {
        return .failure(RoutingFailure("'transit_durations' is not a list of \(expected)"))
      }
      for (index, set) in sets.enumerated() {
        guard let entries = set as? [Any] else {
          return .failure(RoutingFailure("a transit Pareto set is not a list"))
        }
        for entry in entries {
          guard let value = (entry as? [String: Any])?["duration"],
            let seconds = EngineNumber.seconds(value)
          else {
            return .failure(
              RoutingFailure("a duration is not a number of seconds within two days"))
          }
          keep(seconds, at: index)
        }
      }
    }
    return .success(best.map { $0.map { $0 / 60 } })
  }

  /// An answer other than 200: its failure, with MOTIS's `error` text when it sent one.
  static func failure(status: Int, body: [UInt8]) -> RoutingFailure {
    let error =
      body.count <= 64 * 1024
      ? ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["error"]
        as? String : nil
    let said = "answered HTTP \(status)" + (error.map { ": \(RoutingFailure.words($0))" } ?? "")
    switch status {
    case 422: return RoutingFailure(said, .tooBig)
    // A 400 is our request: built alike for every batch, so every batch would fail.
    case 400: return RoutingFailure(said, .client)
    default: return RoutingFailure(said, RoutingFailure.blame(status: status))
    }
  }
}
