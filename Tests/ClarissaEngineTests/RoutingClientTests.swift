import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import Curl

/// The routing client against loopback engines that answer as OSRM's table service and
/// MOTIS's one-to-many endpoint document (Tests/FixtureSupport/LoopbackRouting.swift,
/// LoopbackMOTIS.swift): every time read is the one the test computes by the loopbacks' rule.
@Suite struct RoutingClientTests {
  /// Alexanderplatz.
  static let work = Coordinates(latitude: 52.5219, longitude: 13.4132)

  /// `count` homes on a spiral around `work`, 0.001° apart at least, out to about 12 km.
  static func homes(_ count: Int) -> [Coordinates] {
    (0..<count).map { index in
      let angle = Double(index) * 2.399963
      let reach = 0.004 + 0.0004 * Double(index)
      return Coordinates(
        latitude: ((work.latitude + reach * sin(angle)) * 1_000).rounded() / 1_000,
        longitude: ((work.longitude + reach * 1.6 * cos(angle)) * 1_000).rounded() / 1_000)
    }
  }

  static let heligoland = Coordinates(latitude: 54.182, longitude: 7.885)

  static func fetcher(timeout: Double = 10) -> CurlFetcher {
    CurlFetcher(limits: FetchLimits(timeout: timeout, maxBytes: 1 << 20))
  }

  static func client(
    _ kind: RoutingEngine.Kind, _ base: String, mode: TravelMode = .car, perRun: Int = 20,
    delay: Interval = Interval(milliseconds: 0), timeout: Double = 10
  ) -> RoutingClient {
    RoutingClient(
      mode: mode,
      engine: RoutingEngine(
        kind: kind, url: base, depart: kind == .motis ? Departure(weekday: 1, minutes: 510) : nil,
        perRun: perRun, delay: delay),
      fetcher: fetcher(timeout: max(timeout, 10)), userAgent: "clarissa-test (me@example.org)",
      timeout: timeout, timeZone: TimeZone(identifier: "Europe/Berlin") ?? .gmt)
  }

  static let now = Date(timeIntervalSince1970: 1_795_874_400)

  @Test func twoHundredFiftyHomesAreThreeOSRMRequestsAndEveryTimeIsTheRules() async throws {
    let osrm = try LoopbackOSRM()
    let homes = Self.homes(250)
    let client = Self.client(.osrm, osrm.base)
    let (times, notes) = await client.times(to: Self.work, from: homes, now: Self.now)
    #expect(osrm.requests == 3)
    #expect(osrm.homesPerRequest == [100, 100, 50])
    #expect(await client.requests == 3)
    #expect(notes.isEmpty)
    #expect(times.count == 250)
    for (index, home) in homes.enumerated() {
      let seconds = try #require(LoopbackOSRM.seconds(from: home, to: Self.work, mode: .car))
      #expect(times[index] == seconds / 60, "home \(index)")
    }
    let first = try #require(osrm.server.requests.first)
    #expect(first.headers["user-agent"] == "clarissa-test (me@example.org)")
    #expect(first.path.hasPrefix("/table/v1/driving/13.413200,52.521900;"))
  }

  @Test func theModeChoosesTheProfileAndTheIslandHasNoRoute() async throws {
    let osrm = try LoopbackOSRM()
    let homes = [Self.homes(1)[0], Self.heligoland, Self.homes(1)[0]]
    let client = Self.client(.osrm, osrm.base, mode: .bike)
    let (times, notes) = await client.times(to: Self.work, from: homes, now: Self.now)
    #expect(notes.isEmpty)
    // Two homes at one position: asked once.
    #expect(osrm.homesPerRequest == [2])
    #expect(osrm.server.requests.first?.path.hasPrefix("/table/v1/cycling/") == true)
    let seconds = try #require(LoopbackOSRM.seconds(from: homes[0], to: Self.work, mode: .bike))
    #expect(times[0] == seconds / 60 && times[2] == seconds / 60)
    // Present, and nil inside: the engine found no route.
    #expect(times.keys.contains(1))
    #expect(times[1] == .some(nil))
  }

  @Test func requestsKeepTheEnginesPace() async throws {
    let osrm = try LoopbackOSRM()
    let client = Self.client(.osrm, osrm.base, delay: Interval(milliseconds: 300))
    _ = await client.times(to: Self.work, from: Self.homes(250), now: Self.now)
    // The pace holds across calls of one run.
    _ = await client.times(to: Self.heligoland, from: Self.homes(1), now: Self.now)
    let arrivals = osrm.server.requests.map(\.arrived)
    #expect(arrivals.count == 4)
    for (earlier, later) in zip(arrivals, arrivals.dropFirst()) {
      #expect(later.timeIntervalSince(earlier) >= 0.29)
    }
  }

  @Test func aRunAsksAtMostPerRunAndSaysHowManyWait() async throws {
    let osrm = try LoopbackOSRM()
    let client = Self.client(.osrm, osrm.base, perRun: 2)
    let (times, notes) = await client.times(to: Self.work, from: Self.homes(250), now: Self.now)
    #expect(osrm.requests == 2)
    #expect(times.count == 200)
    #expect(notes.count == 1)
    #expect(
      notes.first
        == "OSRM \(osrm.base) (car): waiting for the next run (2 requests a run) "
        + "(50 positions without a time)")
    // The cap is the run's: a second call asks nothing.
    let (more, again) = await client.times(to: Self.work, from: Self.homes(3), now: Self.now)
    #expect(more.isEmpty && again.count == 1 && osrm.requests == 2)
  }

  @Test func aSmallerTableLimitHalvesTheBatches() async throws {
    // --max-table-size 7: 49 cells, so 100 homes are TooBig, then 50, then 25 fit.
    let osrm = try LoopbackOSRM(maxTableSize: 7)
    let client = Self.client(.osrm, osrm.base)
    let homes = Self.homes(120)
    let (times, notes) = await client.times(to: Self.work, from: homes, now: Self.now)
    #expect(osrm.homesPerRequest == [100, 50, 25, 25, 25, 25, 20])
    #expect(times.count == 120)
    #expect(await client.batchSize == 25)
    #expect(notes.count == 2)
    #expect(notes.allSatisfy { $0.contains("TooBig: Too many table coordinates; asking") })
  }

  @Test func twoHundredFiftyHomesAreTwoMOTISRequestsArrivingByTheNextDeparture() async throws {
    let motis = try LoopbackMOTIS()
    let homes = Self.homes(249) + [Self.heligoland]
    let client = Self.client(.motis, motis.base, mode: .transit)
    let (times, notes) = await client.times(to: Self.work, from: homes, now: Self.now)
    #expect(notes.isEmpty)
    #expect(motis.homesPerRequest == [128, 122])
    #expect(times.count == 250)
    for (index, home) in homes.enumerated() {
      let seconds = LoopbackMOTIS.seconds(from: home, to: Self.work)
      #expect(times[index] == seconds.map { $0 / 60 }, "home \(index)")
    }
    #expect(times[249] == .some(nil))
    // Walked near the place, ridden farther out: both kinds of answer were read.
    #expect(
      homes.contains {
        LoopbackMOTIS.walk(from: $0, to: Self.work)
          == LoopbackMOTIS.seconds(from: $0, to: Self.work)
      })
    #expect(
      homes.contains {
        LoopbackMOTIS.walk(from: $0, to: Self.work) == nil
          && LoopbackMOTIS.ride(from: $0, to: Self.work) != nil
      })
    let query = try #require(motis.queries.first)
    #expect(query["one"] == "52.521900;13.413200")
    #expect(query["arriveBy"] == "true")
    // Monday 08:30 in Berlin after Saturday 28 November 2026.
    #expect(query["time"] == "2026-11-30T07:30:00Z")
    #expect(motis.server.requests.first?.headers["user-agent"] == "clarissa-test (me@example.org)")
  }

  @Test func aSmallerManyLimitHalvesTheBatches() async throws {
    let motis = try LoopbackMOTIS(maxMany: 100)
    let client = Self.client(.motis, motis.base, mode: .transit)
    let (times, notes) = await client.times(to: Self.work, from: Self.homes(250), now: Self.now)
    #expect(motis.homesPerRequest == [128, 64, 64, 64, 58])
    #expect(times.count == 250)
    #expect(notes.count == 1)
    #expect(
      notes.first?.contains("answered HTTP 422: number of many locations too high (128 > 100)")
        == true)
    #expect(notes.first?.hasSuffix("; asking 64 at a time") == true)
  }

  @Test func motisErrorsAreNotesAndNothingIsGuessed() async throws {
    let motis = try LoopbackMOTIS()
    motis.answer([.motis(500, "internal error"), .motis(400, "malformed URI or request")])
    let client = Self.client(.motis, motis.base, mode: .transit)
    let (times, notes) = await client.times(to: Self.work, from: Self.homes(300), now: Self.now)
    #expect(motis.requests == 2 && times.isEmpty)
    let name = "MOTIS \(motis.base) (transit)"
    #expect(
      notes == [
        "\(name): answered HTTP 500: internal error (128 positions without a time)",
        "\(name): answered HTTP 400: malformed URI or request; not asked again in this run "
          + "(172 positions without a time)",
      ])
  }
}
