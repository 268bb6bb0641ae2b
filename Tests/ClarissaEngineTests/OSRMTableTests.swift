import ClarissaCore
import Foundation
import Testing

@testable import ClarissaEngine

/// OSRM's table service read as Project-OSRM/osrm-backend documents it:
/// osrm-backend/docs/http.md at commit 4fc76cad0d9d481463e2ed91dd6dd1585e70a200 ("Table
/// service", "Responses"), and the messages src/engine/plugins/table.cpp and plugin_base.hpp
/// send.
@Suite struct OSRMTableTests {
  static let place = Coordinates(latitude: 52.517037, longitude: 13.388860)
  static let homes = [
    Coordinates(latitude: 52.529407, longitude: 13.397634),
    Coordinates(latitude: 52.523219, longitude: 13.428555),
  ]

  static func engine(_ url: String = "http://127.0.0.1:5000", profile: String? = nil)
    -> RoutingEngine
  {
    RoutingEngine(kind: .osrm, url: url, profile: profile)
  }

  @Test func theRequestIsTheTableFromEachHomeToThePlaceLongitudeFirst() {
    let url = OSRMTable.url(
      engine: Self.engine("http://127.0.0.1:5000/"), mode: .car, place: Self.place,
      homes: Self.homes)
    // The docs' Berlin coordinates; the place first and the one destination.
    #expect(
      url
        == "http://127.0.0.1:5000/table/v1/driving/13.388860,52.517037;13.397634,52.529407;"
        + "13.428555,52.523219?sources=1;2&destinations=0&annotations=duration")
  }

  @Test func theProfileFollowsTheModeUnlessTheEngineNamesOne() {
    let bike = OSRMTable.url(
      engine: Self.engine(), mode: .bike, place: Self.place, homes: Self.homes)
    #expect(bike?.contains("/table/v1/cycling/") == true)
    let foot = OSRMTable.url(
      engine: Self.engine(), mode: .foot, place: Self.place, homes: Self.homes)
    #expect(foot?.contains("/table/v1/foot/") == true)
    let named = OSRMTable.url(
      engine: Self.engine(profile: "car"), mode: .bike, place: Self.place, homes: Self.homes)
    #expect(named?.contains("/table/v1/car/") == true)
  }

  @Test func noRequestIsMadeOfWhatCannotBeOne() {
    // Not http(s), a query in the base, a profile that would change the path, no homes, a
    // position off the globe.
    for engine in [
      Self.engine("ftp://127.0.0.1"), Self.engine("http://127.0.0.1:5000?x=1"),
      Self.engine("not a url"), Self.engine(profile: "driving/../x"), Self.engine(profile: ""),
    ] {
      #expect(
        OSRMTable.url(engine: engine, mode: .car, place: Self.place, homes: Self.homes) == nil)
    }
    #expect(OSRMTable.url(engine: Self.engine(), mode: .car, place: Self.place, homes: []) == nil)
    for bad in [
      Coordinates(latitude: .nan, longitude: 13), Coordinates(latitude: 91, longitude: 13),
      Coordinates(latitude: 52, longitude: .infinity),
    ] {
      #expect(
        OSRMTable.url(engine: Self.engine(), mode: .car, place: bad, homes: Self.homes) == nil)
      #expect(
        OSRMTable.url(engine: Self.engine(), mode: .car, place: Self.place, homes: [bad]) == nil)
    }
  }

  /// The docs' example answer, asked as clarissa asks it (sources=1;2, destinations=0): the
  /// first column of its matrix, with its waypoints.
  static let documented = #"""
    {
      "sources": [
        {"location": [13.397631, 52.529432], "hint": "WIQBgL6mAoAEAAAABgAAAAAAAAA7AAAAhU6PQHvHj0IAAAAAQbyYQgQAAAAGAAAAAAAAADsAAADMAAAAf27MABiJIQOCbswA_4ghAwAAXwVs52D3", "name": "Torstraße"},
        {"location": [13.428554, 52.523239], "hint": "7UcAgP___38fAAAAUQAAACYAAABTAAAAhSQKQrXq5kKRbiZCWJo_Qx8AAABRAAAAJgAAAFMAAADMAAAASufMAOdwIQNL58wA03AhAwMAvxBs52D3", "name": "Platz der Vereinten Nationen"}
      ],
      "durations": [[199], [344.7]],
      "destinations": [
        {"location": [13.3888, 52.517033], "hint": "PAMAgEVJAoAUAAAAIAAAAAcAAAAAAAAArss0Qa7LNEHiVIRA4lSEQAoAAAAQAAAABAAAAAAAAADMAAAAAEzMAKlYIQM8TMwArVghAwEA3wps52D3", "name": "Friedrichstraße"}
      ],
      "code": "Ok"
    }
    """#

  @Test func theDocumentedAnswerIsReadAsMinutes() throws {
    let minutes = try OSRMTable.minutes(Array(Self.documented.utf8), expected: 2).get()
    let expected: [Double?] = [199.0 / 60, 344.7 / 60]
    #expect(minutes == expected)
  }

  @Test func nullIsNoRoute() throws {
    let body = #"{"code": "Ok", "durations": [[null], [0], [120.5]]}"#
    let expected: [Double?] = [nil, 0, 120.5 / 60]
    #expect(try OSRMTable.minutes(Array(body.utf8), expected: 3).get() == expected)
  }

  /// Every code of osrm-backend/docs/http.md's "Responses" and the table service's own, with
  /// what the client does about it.
  @Test(arguments: [
    ("InvalidUrl", RoutingFailure.Blame.client), ("InvalidService", .client),
    ("InvalidVersion", .client), ("InvalidOptions", .client), ("InvalidQuery", .client),
    ("InvalidValue", .client), ("NoSegment", .positions), ("TooBig", .tooBig),
    ("DisabledDataset", .client), ("NoTable", .positions), ("NotImplemented", .client),
    ("SomethingNew", .service),
  ])
  func everyDocumentedErrorIsAFailureOfItsKind(code: String, blame: RoutingFailure.Blame) {
    let body = #"{"code": "\#(code)", "message": "said \u001b[31mred"}"#
    guard case .failure(let failure) = OSRMTable.minutes(Array(body.utf8), expected: 1) else {
      Issue.record("\(code) read as durations")
      return
    }
    #expect(failure.blame == blame)
    #expect(failure.why.contains(code))
    // The engine's words, without the escape character.
    #expect(failure.why.contains("said [31mred"))
    #expect(!failure.why.contains("\u{1b}"))
  }

  @Test func anAnswerOtherThan200IsItsCodesOrItsStatussFailure() {
    let documented = OSRMTable.failure(
      status: 400, body: Array(#"{"code": "TooBig", "message": "Too many table coordinates"}"#.utf8)
    )
    #expect(documented.blame == .tooBig)
    #expect(documented.why == "answered TooBig: Too many table coordinates")
    // A 400 that says Ok, or is no JSON, is the status; 429 refuses the client.
    let ok = OSRMTable.failure(
      status: 400, body: Array(#"{"code": "Ok", "durations": [[1]]}"#.utf8))
    #expect(ok.why == "answered HTTP 400" && ok.blame == .service)
    #expect(OSRMTable.failure(status: 400, body: Array("<html>".utf8)).why == "answered HTTP 400")
    #expect(OSRMTable.failure(status: 429, body: []).blame == .client)
    #expect(OSRMTable.failure(status: 503, body: []).blame == .service)
  }

  @Test func noSegmentNamesTheCoordinate() {
    let body =
      #"{"code":"NoSegment","message":"Could not find a matching segment for coordinate 2"}"#
    guard case .failure(let failure) = OSRMTable.minutes(Array(body.utf8), expected: 3) else {
      Issue.record("read as durations")
      return
    }
    #expect(failure.unplaced == 2)
    let bare = OSRMTable.failure(code: "NoSegment", message: nil)
    #expect(bare.unplaced == nil && bare.blame == .positions)
  }

  /// Answers no OSRM gives: each is refused whole, nothing of it used.
  @Test(arguments: [
    "", "<html>502 Bad Gateway</html>", "[]", "null", #"{"durations": [[1], [2]]}"#,
    #"{"code": "Ok"}"#, #"{"code": "Ok", "durations": [[1]]}"#,
    #"{"code": "Ok", "durations": [[1], [2], [3]]}"#,
    #"{"code": "Ok", "durations": [[1, 2], [3, 4]]}"#,
    #"{"code": "Ok", "durations": [1, 2]}"#, #"{"code": "Ok", "durations": [[-1], [2]]}"#,
    #"{"code": "Ok", "durations": [[NaN], [2]]}"#, #"{"code": "Ok", "durations": [[1e400], [2]]}"#,
    #"{"code": "Ok", "durations": [[1e9], [2]]}"#, #"{"code": "Ok", "durations": [[true], [2]]}"#,
    #"{"code": "Ok", "durations": [["60"], [2]]}"#, #"{"code": 1, "durations": [[1], [2]]}"#,
  ])
  func aHostileAnswerIsRefusedWhole(body: String) {
    guard case .failure(let failure) = OSRMTable.minutes(Array(body.utf8), expected: 2) else {
      Issue.record("'\(body)' was read as durations")
      return
    }
    #expect(failure.blame == .service)
  }

  @Test func aHugeAnswerIsNotParsed() {
    let huge =
      #"{"code": "Ok", "durations": ["# + String(repeating: "[1],", count: 300_000) + "[1]]}"
    guard case .failure(let failure) = OSRMTable.minutes(Array(huge.utf8), expected: 300_001)
    else {
      Issue.record("a 1.2 MB answer was read")
      return
    }
    #expect(failure.why.contains("larger than"))
  }

  @Test func twoDaysIsTheLongestBelieved() throws {
    let edge = #"{"code": "Ok", "durations": [[172800]]}"#
    let expected: [Double?] = [2_880]
    #expect(try OSRMTable.minutes(Array(edge.utf8), expected: 1).get() == expected)
    let past = #"{"code": "Ok", "durations": [[172800.1]]}"#
    #expect((try? OSRMTable.minutes(Array(past.utf8), expected: 1).get()) == nil)
  }
}
