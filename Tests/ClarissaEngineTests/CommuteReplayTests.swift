import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

@testable import ClarissaEngine
@testable import Curl

/// Given the recorded Craigslist answer of 360 iPads around the San Francisco Bay
/// (Fixtures/craigslist/sfbay-sss-sapi-1.json through Fixtures/replay/facts) and a search with
/// `commute:` limits to San Francisco City Hall by car (a loopback OSRM) and to Oakland City
/// Hall by transit (a loopback MOTIS), when it runs as `clarissa run --replay` does, then
/// every listing's verdict is the one the durations this test computes from the loopbacks'
/// rule give; a second run asks the engines nothing; and engines that fail leave the search
/// running, its listings kept, a note on its line, and no time guessed.
@Suite(.serialized) struct CommuteReplayTests {
  static let yaml = """
    version: 1
    places:
      office: [37.7793, -122.4193]       # San Francisco City Hall
      oakland: [37.8044, -122.2712]      # Oakland City Hall
    notify:
      terminal: stdout
    defaults:
      notify: [terminal]
      interval: 1h
    searches:
      - name: ipads
        query: ipad
        category: sss
        cities: [sfbay]
        price: {min: 20, max: 400}
    """
  static let office = Coordinates(latitude: 37.7793, longitude: -122.4193)
  static let oakland = Coordinates(latitude: 37.8044, longitude: -122.2712)
  static let noon = RunnerTests.date("2026-05-03T12:00:00-07:00")

  /// The recorded answers from the replay, the routing engines' requests to the loopbacks.
  struct SplitFetcher: Fetcher {
    let replay: ReplayFetcher
    let loopback = CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 21))

    func fetch(_ request: RequestSpec, headers: [String: String]) async -> Result<
      HTTPResponse, FetchError
    > {
      request.url.hasPrefix("http://127.0.0.1:")
        ? await loopback.fetch(request, headers: headers)
        : await replay.fetch(request, headers: headers)
    }
  }

  /// The config, with `routing:` and the search's `commute:` set as the YAML would
  /// (`commute: {office: {by: car, max: 30 min}, oakland: {by: transit, max: 60 min}}`).
  static func config(osrm: String, motis: String) throws -> (Config, [CommuteLimit]) {
    var config = try RunnerTests.config(yaml)
    config.routing = RoutingSettings(engines: [
      .car: RoutingEngine(
        kind: .osrm, url: osrm, profile: "driving", delay: Interval(milliseconds: 0)),
      .transit: RoutingEngine(
        kind: .motis, url: motis, depart: Departure(weekday: 1, minutes: 510),
        delay: Interval(milliseconds: 0)),
    ])
    let places = Dictionary(uniqueKeysWithValues: config.places.map { ($0.name, $0) })
    let limits = [
      CommuteLimit(place: try #require(places["office"]), mode: .car, maxMinutes: 30),
      CommuteLimit(place: try #require(places["oakland"]), mode: .transit, maxMinutes: 60),
    ]
    config.searches[0].facts.commute = limits
    return (config, limits)
  }

  static func runner(_ config: Config, state: String) throws -> Runner {
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    let replay = try ReplayFetcher(
      folder: Fixtures.root.appendingPathComponent("replay/facts").path)
    return Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: SplitFetcher(replay: replay), settings: settings),
      statePath: state)
  }

  /// The minutes this test expects from the loopbacks' rule for a listing at `at` (the grid
  /// cell's point is what is asked): OSRM's seconds to one decimal by car; MOTIS's shorter of
  /// the walk (within 30 minutes, whole seconds) and the ride (a 5-minute wait, whole
  /// minutes). Nil: no route, or beyond the straight-line bound (not asked).
  static func expected(_ at: Coordinates, _ limit: CommuteLimit) -> Double? {
    let cell = CommuteGrid.cell(at)
    let place = limit.place.coordinates
    guard place.distance(to: at) <= limit.reach else { return nil }
    let metres = LoopbackRoutingRule.metres(cell, place)
    switch limit.mode {
    case .car:
      return (metres / LoopbackRoutingRule.speed(.car) * 10).rounded() / 10 / 60
    default:
      let walk = (metres / LoopbackRoutingRule.speed(.foot)).rounded()
      let ride = ((300 + metres / LoopbackRoutingRule.speed(.transit)) / 60).rounded() * 60
      return min(walk <= 1_800 ? walk : .infinity, ride) / 60
    }
  }

  @Test func everyVerdictIsTheOneTheRulesDurationsGive() async throws {
    let osrm = try LoopbackOSRM()
    let motis = try LoopbackMOTIS()
    let (config, limits) = try Self.config(osrm: osrm.base, motis: motis.base)
    let state = RunnerTests.temporaryState()
    let pending = try await Self.runner(config, state: state).run(
      RunOptions(now: Self.noon, notifyFirstRun: true))
    let judgements = try #require(pending.judgements["ipads"])
    let result = try pending.commit()
    #expect(judgements.count == 360)
    let search = config.searches[0]
    var (kept, dropped, located) = (0, 0, 0)
    for judgement in judgements {
      let listing = judgement.listing
      guard let at = listing.coordinates else {
        #expect(listing.commute.isEmpty)
        continue
      }
      located += 1
      #expect(listing.commute.map(\.place) == ["office", "oakland"])
      // The price range comes first (the recorded answer holds a few outside it).
      var accepted = listing.price.map { (20...400).contains($0) } ?? true
      // explain's words for the decision: the first limit that fails is named.
      let reason = ListingFilter.verdict(listing, for: search).1
      for (limit, time) in zip(limits, listing.commute) {
        let minutes = Self.expected(at, limit)
        if let minutes {
          #expect(abs((time.minutes ?? -1) - minutes) < 0.002, "\(listing.id) \(time.words)")
        } else {
          #expect(time.minutes == nil && time.note?.hasPrefix("beyond") == true)
        }
        guard accepted else { continue }
        if minutes == nil {
          accepted = false
          #expect(reason.contains("from \(limit.place.name) in a straight line >"), "\(reason)")
        } else if let minutes, minutes > limit.maxMinutes {
          accepted = false
          #expect(reason.contains(" to \(limit.place.name) > "), "\(listing.id): \(reason)")
        }
      }
      #expect((judgement.verdict != .filtered) == accepted, "\(listing.id) \(reason)")
      if accepted { kept += 1 } else { dropped += 1 }
    }
    #expect(located == 360 && kept == 25 && dropped == 335, "\(kept) kept, \(dropped) dropped")
    // One request a batch of cells within reach, per engine.
    let reachable = limits.map { limit in
      Set(
        judgements.compactMap(\.listing.coordinates).filter {
          limit.place.coordinates.distance(to: $0) <= limit.reach
        }.map(CommuteGrid.key))
    }
    #expect(osrm.homesPerRequest.reduce(0, +) == reachable[0].count)
    #expect(motis.homesPerRequest.reduce(0, +) == reachable[1].count)
    // 122 cells within 60 km of City Hall, 167 within 70 km of Oakland's: 2 requests each.
    #expect(osrm.homesPerRequest == [100, 22] && motis.homesPerRequest == [128, 39])
    let outcome = try #require(result.searches.first)
    #expect(outcome.notes.isEmpty, "\(outcome.notes)")
    // Every listing kept is new (the first run told to notify), and the report says its times.
    #expect(outcome.new.count == kept)
    let json = RunReport.json(result)
    #expect(json.contains("\"commute\""))
    // The second run asks the engines nothing: every time is in the store.
    let asked = (osrm.requests, motis.requests)
    let again = try await Self.runner(config, state: state).run(
      RunOptions(now: Self.noon.addingTimeInterval(3_600), force: true))
    _ = try again.commit()
    #expect(osrm.requests == asked.0 && motis.requests == asked.1)
    let timedAgain = try #require(again.judgements["ipads"]).map(\.listing.commute)
    #expect(timedAgain == judgements.map(\.listing.commute))
  }

  @Test func failingEnginesLeaveTheSearchRunningWithANoteAndNothingGuessed() async throws {
    let osrm = try LoopbackOSRM()
    osrm.answer(Array(repeating: .status(500), count: 3))
    let motis = try LoopbackMOTIS()
    motis.answer([.status(429)])
    let (config, limits) = try Self.config(osrm: osrm.base, motis: motis.base)
    let pending = try await Self.runner(config, state: RunnerTests.temporaryState()).run(
      RunOptions(now: Self.noon, notifyFirstRun: true))
    let judgements = try #require(pending.judgements["ipads"])
    let result = try pending.commit()
    let search = try #require(result.searches.first)
    #expect(search.status == .ran || search.status == .primed)
    #expect(search.notes.contains { $0.contains("answered HTTP 500") }, "\(search.notes)")
    #expect(search.notes.contains { $0.contains("answered HTTP 429") }, "\(search.notes)")
    // OSRM failed on each batch of its cells (3 failures in a row pause it); MOTIS refused us
    // at once (429) and was not asked again.
    let cells = Set(
      judgements.compactMap(\.listing.coordinates).filter {
        limits[0].place.coordinates.distance(to: $0) <= limits[0].reach
      }.map(CommuteGrid.key))
    #expect(osrm.requests == min(3, (cells.count + 99) / 100) && motis.requests == 1)
    let text = RunReport.text(result, colored: false, timeZone: .gmt)
    #expect(text.contains("answered HTTP 500"), "\(text)")
    // No time guessed: unknown within reach, kept; only the straight-line bound drops.
    for judgement in judgements {
      let at = try #require(judgement.listing.coordinates)
      let beyond = limits.contains { $0.place.coordinates.distance(to: at) > $0.reach }
      let priced = judgement.listing.price.map { (20...400).contains($0) } ?? true
      #expect(judgement.listing.commute.allSatisfy { $0.minutes == nil })
      #expect((judgement.verdict == .filtered) == (beyond || !priced))
      if !beyond {
        #expect(judgement.listing.commute.allSatisfy { $0.note == "engine failed" })
      }
    }
    #expect(judgements.contains { $0.verdict != .filtered })
  }
}
