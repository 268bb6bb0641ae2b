import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Curl

/// The loopback engines answer the documentation's own example requests as the
/// documentation says: Project-OSRM/osrm-backend/docs/http.md (commit 4fc76ca, "Table
/// service", "Example Request") and MOTIS's openapi.yaml (commit ed0360f,
/// `oneToManyIntermodal`).
@Suite struct LoopbackRoutingTests {
  static func get(_ url: String) async throws -> (status: Int, json: [String: Any]) {
    let fetcher = CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20))
    let response = try await fetcher.fetch(RequestSpec(url: url, mode: "api"), headers: [:]).get()
    let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
    return (response.status, try #require(json))
  }

  static let berlin = "13.388860,52.517037;13.397634,52.529407;13.428555,52.523219"

  @Test func osrmAnswersTheDocumentedTables() async throws {
    let osrm = try LoopbackOSRM()
    // "Returns a 3x3 duration matrix".
    let all = try await Self.get("\(osrm.base)/table/v1/driving/\(Self.berlin)")
    #expect(all.status == 200 && all.json["code"] as? String == "Ok")
    let rows = try #require(all.json["durations"] as? [[Double]])
    #expect(rows.count == 3 && rows.allSatisfy { $0.count == 3 })
    #expect(rows[0][0] == 0 && rows[1][1] == 0)
    #expect((all.json["sources"] as? [Any])?.count == 3)
    #expect((all.json["destinations"] as? [Any])?.count == 3)
    let from = Coordinates(latitude: 52.529407, longitude: 13.397634)
    let to = Coordinates(latitude: 52.523219, longitude: 13.428555)
    #expect(rows[1][2] == LoopbackOSRM.seconds(from: from, to: to, mode: .car))
    // "Returns a 1x3 duration matrix".
    let one = try await Self.get("\(osrm.base)/table/v1/driving/\(Self.berlin)?sources=0")
    #expect((one.json["durations"] as? [[Double]])?.map(\.count) == [3])
  }

  @Test func osrmAnswersItsDocumentedErrorsWithHTTP400() async throws {
    let osrm = try LoopbackOSRM(maxTableSize: 2)
    let cases: [(String, String)] = [
      ("/table/v1/driving/13.388860,52.517037", "InvalidOptions"),
      ("/table/v1/driving/\(Self.berlin)?sources=0;5", "InvalidOptions"),
      ("/table/v1/driving/13.3,52.5;200,52.5", "InvalidOptions"),
      ("/table/v1/driving/13.3,52.5;x", "InvalidUrl"),
      ("/table/v1/driving/\(Self.berlin)?sources=a", "InvalidQuery"),
      ("/tabl/v1/driving/\(Self.berlin)", "InvalidService"),
      ("/table/v2/driving/\(Self.berlin)", "InvalidVersion"),
      // 3 x 3 cells > 2 squared.
      ("/table/v1/driving/\(Self.berlin)", "TooBig"),
    ]
    for (path, code) in cases {
      let answer = try await Self.get(osrm.base + path)
      #expect(answer.status == 400, "\(path)")
      #expect(answer.json["code"] as? String == code, "\(path)")
      #expect(answer.json["message"] is String)
    }
    // 2 sources x 2 destinations fit.
    let fits = try await Self.get(
      "\(osrm.base)/table/v1/driving/\(Self.berlin)?sources=0;1&destinations=1;2")
    #expect(fits.json["code"] as? String == "Ok")
  }

  @Test func osrmFindsNoRouteToTheIsland() async throws {
    let osrm = try LoopbackOSRM()
    let answer = try await Self.get(
      "\(osrm.base)/table/v1/driving/13.388860,52.517037;7.885,54.182;7.886,54.183?sources=0;1")
    let rows = try #require(answer.json["durations"] as? [[Any]])
    #expect(rows[0][1] is NSNull && rows[0][2] is NSNull && rows[1][0] is NSNull)
    #expect(
      rows[1][2] as? Double
        == LoopbackOSRM.seconds(
          from: Coordinates(latitude: 54.182, longitude: 7.885),
          to: Coordinates(latitude: 54.183, longitude: 7.886), mode: .car))
  }

  @Test func motisAnswersTheDocumentedShapeAndErrors() async throws {
    let motis = try LoopbackMOTIS(maxMany: 2)
    let path = "\(motis.base)/api/experimental/one-to-many-intermodal?one=52.52;13.405"
    let answer = try await Self.get("\(path)&many=52.5;13.44,54.182;7.885&arriveBy=true")
    #expect(answer.status == 200)
    let street = try #require(answer.json["street_durations"] as? [[String: Any]])
    let transit = try #require(answer.json["transit_durations"] as? [[[String: Any]]])
    #expect(street.count == 2 && transit.count == 2)
    #expect(street[1].isEmpty && transit[1].isEmpty)
    let home = Coordinates(latitude: 52.5, longitude: 13.44)
    let work = Coordinates(latitude: 52.52, longitude: 13.405)
    #expect(transit[0].first?["duration"] as? Double == LoopbackMOTIS.ride(from: home, to: work))
    #expect(transit[0].first?["transfers"] as? Int == 0)
    let tooMany = try await Self.get("\(path)&many=52.5;13.44,52.5;13.45,52.5;13.46")
    #expect(tooMany.status == 422)
    #expect(
      (tooMany.json["error"] as? String)?.hasPrefix("number of many locations too high (3 > 2)")
        == true)
    let bad = try await Self.get("\(path)&many=52.5;x")
    #expect(
      bad.status == 400 && bad.json["error"] as? String == "52.5;x is not a valid geo coordinate")
  }
}
