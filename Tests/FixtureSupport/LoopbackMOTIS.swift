import ClarissaCore
import Foundation

/// A loopback server that answers as MOTIS's one-to-many transit endpoint does (openapi.yaml
/// of motis-project/motis, commit ed0360f, `/api/experimental/one-to-many-intermodal`; the
/// limits as src/endpoints/one_to_many.cc applies them): `one` and `many` as
/// `latitude;longitude` (the many joined by `,`), `arriveBy`, `time`; the answer
/// `{"street_durations": [{"duration": s} or {}], "transit_durations": [[{"duration": s,
/// "transfers": 0}] or []]}`, in the order of `many`; errors as `{"error": "..."}` with 400
/// (a coordinate not understood), 422 (more `many` than `maxMany`, the server's
/// `onetomany_max_many`) or 500. Durations follow ``LoopbackRoutingRule``: the direct walk
/// when it takes at most `maxDirectTime` (1,800 s, the API's default), transit in whole
/// minutes after a 5-minute wait. It counts requests and each request's `many`, keeps each
/// request's query, and can be told to answer otherwise.
public final class LoopbackMOTIS: Sendable {
  /// The server.
  public let server: LoopbackServer
  /// The server's `onetomany_max_many` (128 by default).
  public let maxMany: Int
  private let state: Scripted<[(many: Int, query: [String: String])]>

  /// `http://127.0.0.1:<port>`.
  public var base: String { server.base }
  /// Requests received.
  public var requests: Int { state.seen.count }
  /// Each request's number of `many` locations (homes), in order.
  public var homesPerRequest: [Int] { state.seen.map(\.many) }
  /// Each request's query parameters, decoded.
  public var queries: [[String: String]] { state.seen.map(\.query) }

  /// The direct walk's longest, in seconds (`maxDirectTime`'s default).
  public static let maxDirectTime = 1_800.0
  /// The wait before the first vehicle, in seconds.
  public static let wait = 300.0

  /// Starts a server.
  public init(maxMany: Int = 128) throws {
    let state = Scripted([(many: Int, query: [String: String])]())
    let limit = maxMany
    self.maxMany = maxMany
    server = try LoopbackServer { request, _ in
      let items = URLComponents(string: request.path)?.queryItems ?? []
      var query: [String: String] = [:]
      for item in items { query[item.name] = item.value ?? "" }
      let many = query["many"].map { $0.split(separator: ",").count } ?? 0
      let scripted = state.next { $0.append((many, query)) }
      if let scripted { return scripted.reply }
      return Self.answer(path: request.path, query: query, maxMany: limit)
    }
    self.state = state
  }

  /// Answers the next requests with `answers`, one each , then durations again.
  public func answer(_ answers: [LoopbackRoutingAnswer]) {
    state.add(answers)
  }

  /// The direct walk's seconds, when it is within `maxDirectTime` and joined.
  public static func walk(from: Coordinates, to: Coordinates) -> Double? {
    guard LoopbackRoutingRule.connected(from, to) else { return nil }
    let seconds = (LoopbackRoutingRule.metres(from, to) / LoopbackRoutingRule.speed(.foot))
      .rounded()
    return seconds <= maxDirectTime ? seconds : nil
  }

  /// The transit journey's seconds, in whole minutes.
  public static func ride(from: Coordinates, to: Coordinates) -> Double? {
    guard LoopbackRoutingRule.connected(from, to) else { return nil }
    let seconds = wait + LoopbackRoutingRule.metres(from, to) / LoopbackRoutingRule.speed(.transit)
    return (seconds / 60).rounded() * 60
  }

  /// The seconds clarissa should read for the journey: the shorter of walk and ride; nil
  /// when neither.
  public static func seconds(from: Coordinates, to: Coordinates) -> Double? {
    [walk(from: from, to: to), ride(from: from, to: to)].compactMap { $0 }.min()
  }

  static func error(_ status: Int, _ message: String) -> LoopbackServer.Reply {
    LoopbackRoutingAnswer.motis(status, message).reply
  }

  /// `latitude;longitude`, as MOTIS's parse_location reads it.
  static func position(_ text: String) -> Coordinates? {
    let parts = text.split(separator: ";", omittingEmptySubsequences: false)
    guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
      return nil
    }
    let at = Coordinates(latitude: lat, longitude: lon)
    return at.isOnGlobe ? at : nil
  }

  static func answer(path: String, query: [String: String], maxMany: Int) -> LoopbackServer.Reply {
    guard path.hasPrefix("/api/experimental/one-to-many-intermodal?") else {
      return LoopbackServer.Reply(status: 404)
    }
    guard let oneText = query["one"], let one = position(oneText) else {
      return error(400, "\(query["one"] ?? "") is not a valid geo coordinate")
    }
    let manyTexts = (query["many"] ?? "").split(separator: ",").map(String.init)
    var many: [Coordinates] = []
    for text in manyTexts {
      guard let at = position(text) else {
        return error(400, "\(text) is not a valid geo coordinate")
      }
      many.append(at)
    }
    guard many.count <= maxMany else {
      return error(
        422,
        "number of many locations too high (\(many.count) > \(maxMany)). The server admin can "
          + "change this limit in config.yml with 'onetomany_max_many'. See documentation for "
          + "details.")
    }
    if let time = query["time"], ISO8601DateFormatter().date(from: time) == nil {
      return error(400, "malformed URI or request")
    }
    // arriveBy=true: from each of many to one; false: from one to each.
    let manyToOne = query["arriveBy"] == "true"
    func ends(_ home: Coordinates) -> (Coordinates, Coordinates) {
      manyToOne ? (home, one) : (one, home)
    }
    let street = many.map { home -> String in
      let (from, to) = ends(home)
      return walk(from: from, to: to).map { "{\"duration\":\(Int($0))}" } ?? "{}"
    }
    let transit = many.map { home -> String in
      let (from, to) = ends(home)
      return ride(from: from, to: to).map { "[{\"duration\":\(Int($0)),\"transfers\":0}]" } ?? "[]"
    }
    return .text(
      "{\"street_durations\":[\(street.joined(separator: ","))],"
        + "\"transit_durations\":[\(transit.joined(separator: ","))]}",
      headers: ["Content-Type": "application/json"])
  }
}
