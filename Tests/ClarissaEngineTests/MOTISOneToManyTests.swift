import ClarissaCore
import Foundation
import Testing

@testable import ClarissaEngine

/// MOTIS's one-to-many transit endpoint read as motis-project/motis documents it:
/// openapi.yaml at commit ed0360fd09e12688683b5737462d913b3dc14c8f
/// (`/api/experimental/one-to-many-intermodal`, `OneToManyIntermodalResponse`, `Duration`,
/// `ParetoSetEntry`, `Error`), and the limits of src/endpoints/one_to_many.cc.
@Suite struct MOTISOneToManyTests {
  static let place = Coordinates(latitude: 52.52, longitude: 13.405)
  static let homes = [
    Coordinates(latitude: 52.4989, longitude: 13.4407),
    Coordinates(latitude: 52.5, longitude: -0.1275),
  ]
  static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
  /// Saturday 28 November 2026, 15:00 in Berlin.
  static let saturday = Date(timeIntervalSince1970: 1_795_874_400)

  static func engine(_ url: String = "https://api.transitous.org", depart: Departure? = nil)
    -> RoutingEngine
  {
    RoutingEngine(kind: .motis, url: url, depart: depart)
  }

  @Test func theRequestAsksEachHomesJourneyToThePlaceArrivingByTheNextDeparture() {
    let url = MOTISOneToMany.url(
      engine: Self.engine(depart: Departure(weekday: 1, minutes: 8 * 60 + 30)),
      place: Self.place, homes: Self.homes, now: Self.saturday, timeZone: Self.berlin)
    #expect(
      url
        == "https://api.transitous.org/api/experimental/one-to-many-intermodal"
        + "?one=52.520000;13.405000&many=52.498900;13.440700,52.500000;-0.127500&arriveBy=true"
        + "&time=2026-11-30T07:30:00Z")
    let now = MOTISOneToMany.url(
      engine: Self.engine("http://127.0.0.1:8080/"), place: Self.place, homes: [Self.homes[0]],
      now: Self.saturday, timeZone: Self.berlin)
    #expect(
      now
        == "http://127.0.0.1:8080/api/experimental/one-to-many-intermodal"
        + "?one=52.520000;13.405000&many=52.498900;13.440700&arriveBy=true")
  }

  @Test func theNextDepartureIsInTheConfiguredTimeZone() {
    let monday = Departure(weekday: 1, minutes: 8 * 60 + 30)
    let next = MOTISOneToMany.next(monday, after: Self.saturday, in: Self.berlin)
    #expect(MOTISOneToMany.timestamp(next) == "2026-11-30T07:30:00Z")
    let tokyo = MOTISOneToMany.next(
      monday, after: Self.saturday, in: TimeZone(identifier: "Asia/Tokyo") ?? .gmt)
    #expect(MOTISOneToMany.timestamp(tokyo) == "2026-11-29T23:30:00Z")
    // The moment itself is not "next": a week later.
    #expect(
      MOTISOneToMany.timestamp(MOTISOneToMany.next(monday, after: next, in: Self.berlin))
        == "2026-12-07T07:30:00Z")
    // Sunday 29 March 2026, 02:30 does not exist in Berlin: the first moment after it.
    let skipped = MOTISOneToMany.next(
      Departure(weekday: 7, minutes: 2 * 60 + 30),
      after: Date(timeIntervalSince1970: 1_774_566_000),
      in: Self.berlin)
    #expect(MOTISOneToMany.timestamp(skipped) == "2026-03-29T01:00:00Z")
  }

  @Test func noRequestIsMadeOfWhatCannotBeOne() {
    for engine in [Self.engine("file:///etc"), Self.engine("https://x.org/?a=b"), Self.engine("")] {
      #expect(
        MOTISOneToMany.url(
          engine: engine, place: Self.place, homes: Self.homes, now: Self.saturday,
          timeZone: Self.berlin) == nil)
    }
    let off = Coordinates(latitude: 52, longitude: 181)
    #expect(
      MOTISOneToMany.url(
        engine: Self.engine(), place: Self.place, homes: [off], now: Self.saturday,
        timeZone: Self.berlin) == nil)
  }

  /// An answer shaped as `OneToManyIntermodalResponse`: a home reached on foot and by
  /// transit (the shorter counts), one by transit only (its Pareto set: more transfers,
  /// less time), one not at all (`{}` and `[]`).
  static let documented = #"""
    {
      "street_durations": [{"duration": 1500}, {}, {}],
      "transit_durations": [
        [{"duration": 1620, "transfers": 0}],
        [{"duration": 2700, "transfers": 0}, {"duration": 2400, "transfers": 1}],
        []
      ]
    }
    """#

  @Test func theDocumentedAnswerIsReadAsTheShorterJourney() throws {
    let minutes = try MOTISOneToMany.minutes(Array(Self.documented.utf8), expected: 3).get()
    let expected: [Double?] = [25, 40, nil]
    #expect(minutes == expected)
  }

  @Test func eitherListAloneIsAnAnswer() throws {
    let street = #"{"street_durations": [{"duration": 60.5, "distance": 80}]}"#
    let walked: [Double?] = [60.5 / 60]
    #expect(try MOTISOneToMany.minutes(Array(street.utf8), expected: 1).get() == walked)
    let transit = #"{"transit_durations": [[{"duration": 600, "transfers": 0}]]}"#
    let ridden: [Double?] = [10]
    #expect(try MOTISOneToMany.minutes(Array(transit.utf8), expected: 1).get() == ridden)
  }

  /// The `Error` answers of the endpoint (400, 422, 500), as MOTIS's query router sends them,
  /// and the refusals in front of it.
  @Test(arguments: [
    (400, #"{"error": "52.5;x is not a valid geo coordinate"}"#, RoutingFailure.Blame.client),
    (
      422,
      #"{"error": "number of many locations too high (200 > 128). The server admin can change this limit in config.yml with 'onetomany_max_many'. See documentation for details."}"#,
      .tooBig
    ),
    (500, #"{"error": "internal error"}"#, .service), (429, "", .client), (403, "", .client),
    (502, "<html>bad gateway</html>", .service), (404, "", .service),
  ])
  func everyErrorAnswerIsAFailureOfItsKind(status: Int, body: String, blame: RoutingFailure.Blame) {
    let failure = MOTISOneToMany.failure(status: status, body: Array(body.utf8))
    #expect(failure.blame == blame)
    #expect(failure.why.hasPrefix("answered HTTP \(status)"))
    if body.hasPrefix("{") { #expect(failure.why.contains(": ")) }
  }

  @Test(arguments: [
    "", "[]", "{}", "not json", #"{"street_durations": {}}"#,
    #"{"street_durations": [{}, {}]}"#, #"{"street_durations": [{}, {}, {}, {}]}"#,
    #"{"transit_durations": [[], [], 7]}"#, #"{"street_durations": [1, 2, 3]}"#,
    #"{"street_durations": [{"duration": -5}, {}, {}]}"#,
    #"{"street_durations": [{"duration": "600"}, {}, {}]}"#,
    #"{"street_durations": [{"duration": true}, {}, {}]}"#,
    #"{"street_durations": [{"duration": 1e308}, {}, {}]}"#,
    #"{"transit_durations": [[{"transfers": 0}], [], []]}"#,
    #"{"transit_durations": [[{"duration": NaN}], [], []]}"#,
    #"{"transit_durations": [[{"duration": 9e99, "transfers": 0}], [], []]}"#,
  ])
  func aHostileAnswerIsRefusedWhole(body: String) {
    guard case .failure(let failure) = MOTISOneToMany.minutes(Array(body.utf8), expected: 3)
    else {
      Issue.record("'\(body)' was read as durations")
      return
    }
    #expect(failure.blame == .service)
  }

  @Test func aHugeAnswerIsNotParsed() {
    let huge = #"{"street_durations": ["# + String(repeating: "{},", count: 400_000) + "{}]}"
    #expect((try? MOTISOneToMany.minutes(Array(huge.utf8), expected: 400_001).get()) == nil)
    let error = MOTISOneToMany.failure(
      status: 500,
      body: Array((#"{"error": ""# + String(repeating: "x", count: 100_000) + "\"}").utf8))
    #expect(error.why == "answered HTTP 500")
  }
}
