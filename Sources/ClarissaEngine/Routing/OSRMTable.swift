internal import ClarissaCore
internal import Foundation

/// OSRM's table service, as Project-OSRM/osrm-backend/docs/http.md describes it (commit
/// 4fc76ca, "Table service"): `GET /table/v1/{profile}/{lon,lat;lon,lat;...}` with `sources`
/// and `destinations` (indexes into the coordinates) and `annotations=duration`; the answer
/// `{"code": "Ok", "durations": [[seconds or null]], "sources": [...], "destinations": [...]}`
/// in row-major order, `null` where no route was found; an error is HTTP 400 with
/// `{"code": "InvalidQuery" | "InvalidOptions" | "NoSegment" | "TooBig" | "NoTable" | ...,
/// "message": ...}`. Coordinates are written longitude first.
///
/// The place is coordinate 0 and the destination; the homes follow and are the sources, so
/// each row is one home's journey to the place. osrm-routed refuses a table of more than
/// `--max-table-size` squared cells (100 by default: 10,000 cells,
/// src/engine/plugins/table.cpp) with `TooBig`, and a request line longer than its header
/// limit (25,024 bytes by default, include/server/header_size.hpp); ``batchSize`` homes make
/// about 2.5 KB and 100 cells, within both for any `--max-table-size` of 10 or more.
enum OSRMTable {
  /// Homes asked in one request.
  static let batchSize = 100

  /// The profile asked when the engine names none: the profiles osrm-backend ships
  /// (profiles/car.lua, bicycle.lua, foot.lua) as its docs' URLs name them.
  static func profile(for mode: TravelMode) -> String {
    switch mode {
    case .car, .transit: "driving"
    case .bike: "cycling"
    case .foot: "foot"
    }
  }

  /// The request for the journeys from each of `homes` to `place`; nil when the engine's URL
  /// is no `http(s)` base, the profile is not a plain name, or a position is off the globe.
  static func url(
    engine: RoutingEngine, mode: TravelMode, place: Coordinates, homes: [Coordinates]
  ) -> String? {
    guard let base = EngineNumber.base(engine.url), !homes.isEmpty,
      place.isOnGlobe, homes.allSatisfy(\.isOnGlobe)
    else { return nil }
    let profile = engine.profile ?? profile(for: mode)
    guard !profile.isEmpty, profile.utf8.count <= 64,
      profile.unicodeScalars.allSatisfy({
        CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_"
      })
    else { return nil }
    let coordinates = ([place] + homes).map {
      "\(EngineNumber.degrees($0.longitude)),\(EngineNumber.degrees($0.latitude))"
    }.joined(separator: ";")
    let sources = (1...homes.count).map(String.init).joined(separator: ";")
    return "\(base)/table/v1/\(profile)/\(coordinates)?sources=\(sources)&destinations=0"
      + "&annotations=duration"
  }

  /// The largest answer read: a waypoint of `sources` is about 200 bytes with its hint, so
  /// 100 homes answer in about 25 KB.
  static let maxAnswerBytes = 1 << 20

  /// The minutes of each of `expected` homes from an answer (HTTP 200, or the 400 of an error):
  /// nil where OSRM found no route. An error answer is its failure, by its `code`; an answer
  /// with the wrong number of rows or cells, or a duration that is not a number within 0 to
  /// two days, is not used at all.
  static func minutes(_ body: [UInt8], expected: Int) -> Result<[Double?], RoutingFailure> {
    guard body.count <= maxAnswerBytes else {
      return .failure(RoutingFailure("the answer is larger than \(maxAnswerBytes) bytes"))
    }
    guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
      let code = object["code"] as? String
    else { return .failure(RoutingFailure("the answer is not OSRM's JSON with a 'code'")) }
    guard code == "Ok" else {
      return .failure(failure(code: code, message: object["message"] as? String))
    }
    guard let rows = object["durations"] as? [Any] else {
      return .failure(RoutingFailure("the answer has no 'durations'"))
    }
    guard rows.count == expected else {
      return .failure(
        RoutingFailure("the answer has \(rows.count) rows of durations for \(expected) homes"))
    }
    var minutes: [Double?] = []
    minutes.reserveCapacity(expected)
    for row in rows {
      guard let cells = row as? [Any], cells.count == 1 else {
        return .failure(RoutingFailure("a row of durations is not one cell"))
      }
      if cells[0] is NSNull {
        minutes.append(nil)
      } else if let seconds = EngineNumber.seconds(cells[0]) {
        minutes.append(seconds / 60)
      } else {
        return .failure(RoutingFailure("a duration is not a number of seconds within two days"))
      }
    }
    return .success(minutes)
  }

  /// An answer other than 200: osrm-routed's errors are HTTP 400 with a JSON `code` (its
  /// failure by the code); anything else is the status's failure.
  static func failure(status: Int, body: [UInt8]) -> RoutingFailure {
    if status == 400, body.count <= 64 * 1024,
      let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
      let code = object["code"] as? String, code != "Ok"
    {
      return failure(code: code, message: object["message"] as? String)
    }
    return RoutingFailure("answered HTTP \(status)", RoutingFailure.blame(status: status))
  }

  /// An error answer's failure, by its code (osrm-backend/docs/http.md, "Responses" and
  /// "Table service").
  static func failure(code: String, message: String?) -> RoutingFailure {
    let said = RoutingFailure.words("\(code)" + (message.map { ": \($0)" } ?? ""))
    switch code {
    case "TooBig": return RoutingFailure("answered \(said)", .tooBig)
    case "NoTable": return RoutingFailure("found no table (\(said))", .positions)
    case "NoSegment":
      // "Could not find a matching segment for coordinate 3" (plugin_base.hpp).
      let index = message.flatMap { text in
        text.split(separator: " ").last.flatMap { Int($0) }
      }
      return RoutingFailure("could not place a position (\(said))", .positions, unplaced: index)
    case "InvalidUrl", "InvalidService", "InvalidVersion", "InvalidOptions", "InvalidQuery",
      "InvalidValue", "NotImplemented", "DisabledDataset":
      return RoutingFailure("refused the request (\(said))", .client)
    default:
      return RoutingFailure("answered \(said)", .service)
    }
  }
}
