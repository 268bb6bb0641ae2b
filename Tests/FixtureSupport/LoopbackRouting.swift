import ClarissaCore
import Foundation
import Synchronization

/// What a loopback routing engine answers instead of its durations.
public enum LoopbackRoutingAnswer: Sendable {
  /// An error as osrm-routed answers it: HTTP 400, `{"code": code, "message": message}`.
  case osrm(String, String)
  /// An error as MOTIS answers it: `{"error": message}` with `status`.
  case motis(Int, String)
  /// A status with an empty body (429, 500).
  case status(Int)
  /// Bytes as they are, with a status.
  case body(Int, [UInt8])
  /// No answer (the connection is held for 30 s).
  case hang

  /// The server's reply.
  var reply: LoopbackServer.Reply {
    switch self {
    case .osrm(let code, let message): json(400, ["code": code, "message": message])
    case .motis(let status, let message): json(status, ["error": message])
    case .status(let status): LoopbackServer.Reply(status: status)
    case .body(let status, let bytes): LoopbackServer.Reply(status: status, body: bytes)
    case .hang: LoopbackServer.Reply(hang: true)
    }
  }

  func json(_ status: Int, _ object: [String: String]) -> LoopbackServer.Reply {
    let body = try? JSONSerialization.data(withJSONObject: object)
    return LoopbackServer.Reply(
      status: status, headers: ["Content-Type": "application/json; charset=UTF-8"],
      body: Array(body ?? Data()))
  }
}

/// A loopback engine's scripted answers and what it saw of each request, in a `Mutex`.
final class Scripted<Seen: Sendable>: Sendable {
  private let state: Mutex<(script: [LoopbackRoutingAnswer], seen: Seen)>

  init(_ seen: Seen) { state = Mutex((script: [], seen: seen)) }

  /// What was seen.
  var seen: Seen { state.withLock { $0.seen } }

  /// Queues `answers`.
  func add(_ answers: [LoopbackRoutingAnswer]) { state.withLock { $0.script += answers } }

  /// Notes a request with `see`; the next scripted answer, nil when none is left.
  func next(_ see: (inout Seen) -> Void) -> LoopbackRoutingAnswer? {
    state.withLock { state in
      see(&state.seen)
      return state.script.isEmpty ? nil : state.script.removeFirst()
    }
  }
}

/// The rule the loopback routing engines answer by, public so a test computes the same
/// durations itself: the great-circle distance (``Coordinates/distance(to:)``) times a detour
/// of 1.3, at a mode's speed (car 36, bike 15, foot 4.8 km/h; transit 25 km/h after a 5-minute
/// wait, in whole minutes, as MOTIS counts). No route crosses the water around the island
/// (Heligoland, ``isOnTheIsland(_:)``): a journey with exactly one end on it has none.
public enum LoopbackRoutingRule {
  /// Heligoland's box: latitude 54.17 to 54.19, longitude 7.87 to 7.90.
  public static func isOnTheIsland(_ at: Coordinates) -> Bool {
    (54.17...54.19).contains(at.latitude) && (7.87...7.90).contains(at.longitude)
  }

  /// The road's length for a straight line.
  public static let detour = 1.3

  /// Metres a second by mode.
  public static func speed(_ mode: TravelMode) -> Double {
    switch mode {
    case .car: 10
    case .bike: 15 / 3.6
    case .foot: 4.8 / 3.6
    case .transit: 25 / 3.6
    }
  }

  /// Whether a route joins `from` and `to`.
  public static func connected(_ from: Coordinates, _ to: Coordinates) -> Bool {
    isOnTheIsland(from) == isOnTheIsland(to)
  }

  /// Metres along the way.
  public static func metres(_ from: Coordinates, _ to: Coordinates) -> Double {
    from.distance(to: to).metres * detour
  }
}

/// A loopback server that answers as osrm-routed's table service does
/// (Project-OSRM/osrm-backend/docs/http.md, commit 4fc76ca, "Table service" and
/// "Responses"; the limits as src/engine/plugins/table.cpp and
/// src/server/service/table_service.cpp apply them):
/// `GET /table/v1/{profile}/{lon,lat;...}?sources=..&destinations=..&annotations=duration`,
/// `{"code": "Ok", "durations": [[...]], "sources": [...], "destinations": [...]}` with
/// durations in seconds to one decimal, `null` where no route; errors with HTTP 400 and
/// `{"code": ..., "message": ...}`; `TooBig` for a table of more than `maxTableSize` squared
/// cells. It counts requests and each request's sources, and can be told to answer otherwise.
public final class LoopbackOSRM: Sendable {
  /// Every code osrm-backend/docs/http.md documents for the table service, with
  /// osrm-routed's message.
  public static let documentedErrors: [(code: String, message: String)] = [
    ("InvalidUrl", "URL string malformed close to position 9: \"/tabl\""),
    ("InvalidService", "Service tabl not found!"),
    ("InvalidVersion", "Service table not found!"),
    ("InvalidOptions", "Number of coordinates needs to be at least two."),
    ("InvalidQuery", "Query string malformed close to position 28"),
    ("InvalidValue", "Invalid value"),
    ("NoSegment", "Could not find a matching segment for coordinate 2"),
    ("TooBig", "Too many table coordinates"),
    ("DisabledDataset", "Dataset disabled"),
    ("NoTable", "No table found"),
    ("NotImplemented", "Many to many search is not implemented for the chosen search algorithm."),
  ]

  /// The server.
  public let server: LoopbackServer
  /// osrm-routed's `--max-table-size`.
  public let maxTableSize: Int
  private let state: Scripted<[Int]>

  /// `http://127.0.0.1:<port>`.
  public var base: String { server.base }
  /// Requests received.
  public var requests: Int { state.seen.count }
  /// Each request's number of sources (homes), in order.
  public var homesPerRequest: [Int] { state.seen }

  /// Starts a server; `maxTableSize` as osrm-routed's option (100 by default).
  public init(maxTableSize: Int = 100) throws {
    let state = Scripted([Int]())
    let limit = maxTableSize
    self.maxTableSize = maxTableSize
    server = try LoopbackServer { request, _ in
      let scripted = state.next { $0.append(Self.sourceCount(request.path)) }
      if let scripted { return scripted.reply }
      return Self.table(request.path, maxTableSize: limit)
    }
    self.state = state
  }

  /// Answers the next requests with `answers`, one each, then tables again.
  public func answer(_ answers: [LoopbackRoutingAnswer]) {
    state.add(answers)
  }

  /// The seconds OSRM answers for the journey, to one decimal: nil when no route.
  public static func seconds(from: Coordinates, to: Coordinates, mode: TravelMode) -> Double? {
    guard LoopbackRoutingRule.connected(from, to) else { return nil }
    let seconds = LoopbackRoutingRule.metres(from, to) / LoopbackRoutingRule.speed(mode)
    return (seconds * 10).rounded() / 10
  }

  /// The mode of a profile of the URL: `driving` (or anything else) car, `cycling` bike,
  /// `foot` foot.
  static func mode(_ profile: Substring) -> TravelMode {
    switch profile {
    case "cycling", "bike", "bicycle": .bike
    case "foot", "walking": .foot
    default: .car
    }
  }

  static func sourceCount(_ path: String) -> Int {
    let query = path.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
    for pair in query.split(separator: "&") where pair.hasPrefix("sources=") {
      return pair.dropFirst(8).split(separator: ";").count
    }
    return 0
  }

  static func error(_ code: String, _ message: String) -> LoopbackServer.Reply {
    LoopbackRoutingAnswer.osrm(code, message).reply
  }

  /// The table for a path, or the error osrm-routed gives for it.
  static func table(_ path: String, maxTableSize: Int) -> LoopbackServer.Reply {
    let halves = path.split(separator: "?", maxSplits: 1)
    let parts = halves[0].split(separator: "/")
    guard parts.count == 4, parts[0] == "table" else {
      return error("InvalidService", "Service \(parts.first ?? "") not found!")
    }
    guard parts[1] == "v1" else { return error("InvalidVersion", "Service table not found!") }
    let mode = mode(parts[2])
    var coordinates: [Coordinates] = []
    for pair in parts[3].split(separator: ";", omittingEmptySubsequences: false) {
      let numbers = pair.split(separator: ",", omittingEmptySubsequences: false)
      guard numbers.count == 2, let lon = Double(numbers[0]), let lat = Double(numbers[1]) else {
        return error("InvalidUrl", "URL string malformed close to position \(path.count)")
      }
      coordinates.append(Coordinates(latitude: lat, longitude: lon))
    }
    var options: [Substring: [Int]] = [:]
    for pair in (halves.count > 1 ? halves[1] : "").split(separator: "&") {
      let nameValue = pair.split(separator: "=", maxSplits: 1)
      guard nameValue.count == 2 else {
        return error("InvalidQuery", "Query string malformed close to position 0")
      }
      if nameValue[0] == "annotations" {
        guard ["duration", "distance", "duration,distance"].contains(nameValue[1]) else {
          return error("InvalidQuery", "Query string malformed close to position 0")
        }
        continue
      }
      guard nameValue[0] == "sources" || nameValue[0] == "destinations" else {
        return error("InvalidQuery", "Query string malformed close to position 0")
      }
      let indexes = nameValue[1].split(separator: ";").map { Int($0) }
      guard indexes.allSatisfy({ $0 != nil }) else {
        return error("InvalidQuery", "Query string malformed close to position 0")
      }
      options[nameValue[0]] = indexes.compactMap { $0 }
    }
    let all = Array(coordinates.indices)
    let sources = options["sources"] ?? all
    let destinations = options["destinations"] ?? all
    guard coordinates.count >= 2,
      (sources + destinations).allSatisfy({ coordinates.indices.contains($0) })
    else { return error("InvalidOptions", "Number of coordinates needs to be at least two.") }
    guard coordinates.allSatisfy(\.isOnGlobe) else {
      return error("InvalidOptions", "Coordinates are invalid")
    }
    guard sources.count * destinations.count <= maxTableSize * maxTableSize else {
      return error("TooBig", "Too many table coordinates")
    }
    let rows = sources.map { source in
      "["
        + destinations.map { destination in
          seconds(from: coordinates[source], to: coordinates[destination], mode: mode)
            .map(tenths) ?? "null"
        }.joined(separator: ",") + "]"
    }
    func waypoints(_ indexes: [Int]) -> String {
      "["
        + indexes.map {
          "{\"hint\":\"PAMAgEVJAoAUAAAAIAAAAAcAAAAAAAAArss0Qa7LNEHiVIRA4lSEQAoAAAAQAAAABAAAAAAAAADMAAAAAEzMAKlYIQM8TMwArVghAwEA3wps52D3\",\"distance\":0,\"name\":\"\",\"location\":["
            + "\(coordinates[$0].longitude),\(coordinates[$0].latitude)]}"
        }.joined(separator: ",") + "]"
    }
    let body =
      "{\"code\":\"Ok\",\"durations\":[\(rows.joined(separator: ","))],"
      + "\"sources\":\(waypoints(sources)),\"destinations\":\(waypoints(destinations))}"
    return .text(body, headers: ["Content-Type": "application/json; charset=UTF-8"])
  }

  /// Seconds to one decimal as OSRM writes them: `192.6`.
  static func tenths(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
