import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine

/// What the routing client does when an engine does not answer with times: each documented
/// error, refusals, failures in a row, no answer, hostile answers. Nothing is guessed: a home
/// without an answer is absent from the times, and a note says why.
@Suite struct RoutingFailureTests {
  typealias Setup = RoutingClientTests

  static let work = Setup.work
  static let now = Setup.now

  /// OSRM's own refusals of every request alike: the engine is paused at once.
  @Test(arguments: [
    "InvalidUrl", "InvalidService", "InvalidVersion", "InvalidOptions", "InvalidQuery",
    "InvalidValue", "DisabledDataset", "NotImplemented",
  ])
  func aRefusalOfTheRequestPausesTheEngine(code: String) async throws {
    let osrm = try LoopbackOSRM()
    let message = try #require(LoopbackOSRM.documentedErrors.first { $0.code == code }?.message)
    osrm.answer([.osrm(code, message)])
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(150), now: Self.now)
    #expect(osrm.requests == 1)
    #expect(times.isEmpty)
    #expect(await client.broken == "refused the request (\(code): \(message))")
    #expect(
      notes == [
        "OSRM \(osrm.base) (car): refused the request (\(code): \(message)); not asked again in "
          + "this run (150 positions without a time)"
      ])
  }

  @Test func noTableLeavesThatRequestsHomesAndTheOthersAreAsked() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.osrm("NoTable", "No table found")])
    let homes = Setup.homes(150)
    let (times, notes) = await Setup.client(.osrm, osrm.base).times(
      to: Self.work, from: homes, now: Self.now)
    #expect(osrm.homesPerRequest == [100, 50])
    #expect(times.count == 50)
    #expect(times.keys.allSatisfy { $0 >= 100 })
    #expect(
      notes == [
        "OSRM \(osrm.base) (car): found no table (NoTable: No table found) (100 positions without "
          + "a time)"
      ])
  }

  @Test func aHomeOSRMCannotPlaceHasNoRouteAndTheOthersAreAskedAgain() async throws {
    let osrm = try LoopbackOSRM()
    // Coordinate 2 is the second home (the place is 0).
    osrm.answer([.osrm("NoSegment", "Could not find a matching segment for coordinate 2")])
    let homes = Setup.homes(5)
    let (times, notes) = await Setup.client(.osrm, osrm.base).times(
      to: Self.work, from: homes, now: Self.now)
    #expect(osrm.homesPerRequest == [5, 4])
    #expect(times.count == 5)
    #expect(times[1] == .some(nil))
    for index in [0, 2, 3, 4] {
      let seconds = try #require(
        LoopbackOSRM.seconds(from: homes[index], to: Self.work, mode: .car))
      #expect(times[index] == seconds / 60)
    }
    #expect(notes.count == 1)
    #expect(notes.first?.hasSuffix("coordinate 2): no route for it") == true)
  }

  /// A NoSegment naming no home of the request: that request's homes go unasked.
  @Test(arguments: ["-3", "6", "99999999999999999999", "x", ""])
  func aNoSegmentNamingNoHomeLeavesTheRequest(index: String) async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.osrm("NoSegment", "Could not find a matching segment for coordinate \(index)")])
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(5), now: Self.now)
    #expect(osrm.requests == 1 && times.isEmpty)
    #expect(await client.broken == nil)
    #expect(notes.first?.hasSuffix("(5 positions without a time)") == true)
  }

  @Test func aPlaceOSRMCannotPlacePausesTheEngine() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.osrm("NoSegment", "Could not find a matching segment for coordinate 0")])
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(5), now: Self.now)
    #expect(osrm.requests == 1 && times.isEmpty)
    #expect(await client.broken?.hasSuffix("the place itself") == true)
    #expect(notes.count == 1)
  }

  @Test(arguments: [401, 403, 407, 429])
  func aRefusalOfTheClientPausesTheEngineForTheRun(status: Int) async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.status(status)])
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(120), now: Self.now)
    #expect(times.isEmpty && osrm.requests == 1)
    #expect(
      notes == [
        "OSRM \(osrm.base) (car): answered HTTP \(status); not asked again in this run "
          + "(120 positions without a time)"
      ])
    // Later calls of the run ask nothing.
    let (later, again) = await client.times(to: Self.work, from: Setup.homes(3), now: Self.now)
    #expect(later.isEmpty && osrm.requests == 1 && again.count == 1)
  }

  @Test func threeFailuresInARowPauseTheEngine() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.status(500), .status(502), .status(500)])
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(450), now: Self.now)
    #expect(osrm.requests == 3 && times.isEmpty)
    #expect(await client.broken == "answered HTTP 500 (3 failures in a row)")
    let name = "OSRM \(osrm.base) (car)"
    #expect(
      notes == [
        "\(name): answered HTTP 500 (200 positions without a time)",
        "\(name): answered HTTP 502 (100 positions without a time)",
        "\(name): answered HTTP 500 (3 failures in a row); not asked again in this run "
          + "(150 positions without a time)",
      ])
  }

  @Test func anAnswerInBetweenStartsTheCountAgain() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.status(500), .status(500), .osrm("NoTable", "No table found"), .status(500)])
    let client = Setup.client(.osrm, osrm.base)
    let (times, _) = await client.times(to: Self.work, from: Setup.homes(500), now: Self.now)
    #expect(osrm.requests == 5)
    #expect(times.count == 100)
    #expect(await client.broken == nil)
  }

  @Test func anEngineThatDoesNotAnswerCostsTheTimeout() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer([.hang])
    let client = Setup.client(.osrm, osrm.base, timeout: 1)
    let started = Date()
    let (times, notes) = await client.times(to: Self.work, from: Setup.homes(150), now: Self.now)
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(osrm.requests == 2)
    #expect(times.count == 50)
    #expect(notes == ["OSRM \(osrm.base) (car): no answer in 1 s (100 positions without a time)"])
  }

  /// Answers no engine should give: refused whole, each a failure of the engine, its words
  /// cleaned before a note shows them.
  @Test func hostileAnswersAreRefusedAndTheirWordsCleaned() async throws {
    let osrm = try LoopbackOSRM()
    let huge =
      Array(#"{"code":"Ok","durations":["#.utf8)
      + Array(repeating: UInt8(ascii: " "), count: 2 << 20)
    osrm.answer([
      .body(200, Array(#"{"code":"Ok","durations":[[NaN]]}"#.utf8)),
      .body(200, Array(#"{"code":"Ok","durations":[[1],[2],[-60],[4],[5]]}"#.utf8)),
      .body(400, Array("<html>\u{1b}]0;owned\u{07}</html>".utf8)),
      .osrm("Weird\u{1b}[2J", "\u{9b}cleared"),
      .body(200, huge),
    ])
    // One call of the run per answer: a failed request's homes are not asked again.
    let client = Setup.client(.osrm, osrm.base)
    var notes: [String] = []
    for _ in 0..<4 {
      let (times, said) = await client.times(to: Self.work, from: Setup.homes(5), now: Self.now)
      #expect(times.isEmpty)
      notes += said
    }
    #expect(osrm.requests == 3)
    let controls = notes.filter {
      $0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
    #expect(controls.isEmpty)
    #expect(notes.count == 4)
    #expect(notes[0].contains("the answer is not OSRM's JSON"))
    #expect(notes[1].contains("a duration is not a number of seconds within two days"))
    #expect(notes[2].contains("answered HTTP 400 (5 positions without a time)"))
    #expect(notes[3].contains("answered HTTP 400 (3 failures in a row); not asked again"))
    // The next two: an unknown code is the engine's failure, its words cleaned; a body past
    // the fetcher's limit is no answer.
    let other = Setup.client(.osrm, osrm.base)
    let unknown = await other.times(to: Self.work, from: Setup.homes(5), now: Self.now)
    #expect(unknown.times.isEmpty)
    #expect(
      unknown.notes == [
        "OSRM \(osrm.base) (car): answered Weird[2J: cleared (5 positions without a time)"
      ])
    let large = await other.times(to: Self.work, from: Setup.homes(5), now: Self.now)
    #expect(large.times.isEmpty && osrm.requests == 5)
    #expect(large.notes.first?.contains("the limit is 1048576") == true, "\(large.notes)")
  }

  @Test func positionsOffTheGlobeAreNotAsked() async throws {
    let osrm = try LoopbackOSRM()
    let homes = [
      Setup.homes(1)[0], Coordinates(latitude: .nan, longitude: 13),
      Coordinates(latitude: 95, longitude: 0),
    ]
    let client = Setup.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: homes, now: Self.now)
    #expect(osrm.homesPerRequest == [1])
    #expect(Array(times.keys) == [0])
    #expect(
      notes == [
        "OSRM \(osrm.base) (car): positions off the globe are not asked (2 positions without a time)"
      ])
    let (none, placeNote) = await client.times(
      to: Coordinates(latitude: 0, longitude: 200), from: homes, now: Self.now)
    #expect(none.isEmpty && osrm.requests == 1)
    #expect(placeNote.first?.contains("the place is not a position on the globe") == true)
  }
}
