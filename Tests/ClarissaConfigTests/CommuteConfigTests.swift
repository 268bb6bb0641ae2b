import Channels
import ClarissaConfig
import ClarissaCore
import Foundation
import Sites
import Testing

/// Given `routing:` and a search's `commute:`, when the config is read, then each mode has its
/// engine with the defaults docs/configuration.md names, each search its limits in minutes
/// (`defaults:` applying as to any key), and a mode without an engine is a warning that says
/// only the straight-line bound applies. (Every error, with its line and column, is in
/// Fixtures/config/invalid/routing-problems.expected and routing-depart.expected.)
@Suite struct CommuteConfigTests {
  static func config() throws -> Config {
    try #require(ValidConfigTests.load("commute.yaml").config)
  }

  static func load(_ text: String) -> ConfigLoadResult {
    ConfigLoader.load(
      bytes: Array(text.utf8), name: "c.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test func eachModeHasItsEngineWithTheDefaults() throws {
    let engines = try Self.config().routing.engines
    #expect(Set(engines.keys) == [.car, .bike, .transit])
    let car = try #require(engines[.car])
    #expect(car.kind == .osrm && car.url == "http://127.0.0.1:5000")
    #expect(car.profile == "driving", "OSRM's car profile by default")
    #expect(car.depart == nil && car.perRun == 20 && car.delay == .seconds(1))
    let bike = try #require(engines[.bike])
    #expect(bike.profile == "bike", "as written")
    #expect(bike.perRun == 5)
    #expect(bike.delay == .seconds(0), "an engine on 127.0.0.1 may be asked without a pause")
    let transit = try #require(engines[.transit])
    #expect(transit.kind == .motis && transit.url == "https://api.transitous.org")
    #expect(transit.profile == nil)
    #expect(transit.depart == Departure(weekday: 2, minutes: 7 * 60 + 45))
    #expect(transit.perRun == 10 && transit.delay == .seconds(2))
    #expect(transit.cacheName == "motis https://api.transitous.org  Tue 07:45")
  }

  @Test func aSearchHasItsLimitsInMinutesAndDefaultsApply() throws {
    let searches = try Self.config().searches
    let flats = try #require(searches.first { $0.name == "flats" }).facts.commute
    #expect(flats.map(\.place.name) == ["work", "work", "gym"])
    #expect(flats.map(\.mode) == [.transit, .bike, .car])
    #expect(flats.map(\.maxMinutes) == [30, 30, 90])
    #expect(flats[0].place.coordinates == Coordinates(latitude: 37.7793, longitude: -122.4193))
    // 30 minutes at 70 km/h: 35 km in a straight line.
    #expect(flats[0].reach.metres == 35_000)
    let inherited = try #require(searches.first { $0.name == "flats-default" }).facts
    #expect(inherited.commute.map(\.maxMinutes) == [45])
    #expect(!inherited.isEmpty, "a commute limit is a fact filter")
  }

  @Test func aModeWithoutAnEngineIsAWarningThatSaysWhatStillHolds() throws {
    let result = ValidConfigTests.load("commute.yaml")
    let warnings = result.diagnostics.filter { $0.severity == .warning }
    #expect(warnings.count == 1)
    let warning = try #require(warnings.first)
    #expect(warning.location?.description == "commute.yaml:25:25")
    // 20 minutes on foot at 7 km/h: 2.3 km.
    #expect(warning.message.contains("listings farther than 2.3 km from gym are dropped"))
    #expect(warning.message.hasSuffix("add 'routing: {foot: ...}'"))
  }

  @Test func withoutRoutingNothingIsAsked() throws {
    let result = Self.load(
      """
      version: 1
      places:
        work: [37.7793, -122.4193]
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
      """)
    #expect(try #require(result.config).routing.engines.isEmpty)
    #expect(result.diagnostics.isEmpty)
  }

  /// MOTIS is asked for transit alone; its moment is the arrival at the place (`arrive`, Monday
  /// 08:30 unless written), and `depart` is read as that moment with a warning that says so.
  @Test func motisServesTransitAndItsMomentIsTheArrival() throws {
    let result = Self.load(
      """
      version: 1
      routing:
        car: {motis: "http://[::1]:8080", delay: 0s}
        transit: {motis: "http://127.0.0.1:8080", depart: "Tue 07:45"}
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
      """)
    let said = result.diagnostics.map {
      "\($0.severity) \($0.location?.description ?? "?"): \($0.message)"
    }
    #expect(
      said == [
        "error c.yaml:3:9: clarissa asks MOTIS for transit journeys only (its one-to-many "
          + "endpoint, timed by timetable); route 'car' with 'osrm: URL' (an OSRM server with its "
          + "driving profile)",
        "warning c.yaml:4:45: MOTIS times the journeys from many homes to one place by their "
          + "arrival there, so 'depart: Tue 07:45' asks for journeys arriving at the place by "
          + "Tue 07:45; write 'arrive: Tue 07:45' to say so",
      ], "\(said)")
    let arriving = Self.load(
      """
      version: 1
      routing:
        transit: {motis: "http://127.0.0.1:8080"}
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
      """)
    #expect(arriving.diagnostics.isEmpty, "\(arriving.diagnostics)")
    let transit = try #require(arriving.config?.routing.engines[.transit])
    #expect(transit.depart?.description == "Mon 08:30")
  }

  @Test func anEngineWithoutItsURLSaysHowToWriteIt() {
    let result = Self.load(
      """
      version: 1
      routing:
        car: {url: "http://127.0.0.1:5000", per_run: 5}
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
      """)
    let errors = result.diagnostics.filter { $0.severity == .error }.map {
      "\($0.location?.description ?? "?"): \($0.message)"
    }
    #expect(
      errors == [
        "c.yaml:3:8: 'routing.car' needs an engine: 'osrm: URL' (car, bike, foot) or 'motis: URL' "
          + "(transit), as in '{osrm: \"http://127.0.0.1:5000\"}'",
        "c.yaml:3:9: unknown key 'url' in 'routing.car'",
      ], "\(errors)")
  }

  @Test(arguments: [
    ("Mon 08:30", Departure(weekday: 1, minutes: 510)),
    ("Sun 23:59", Departure(weekday: 7, minutes: 1439)),
    ("Fri 7:05", Departure(weekday: 5, minutes: 425)),
  ])
  func departuresAreReadAsWritten(text: String, expected: Departure) throws {
    let result = Self.load(
      """
      version: 1
      routing:
        transit: {motis: "https://api.transitous.org", arrive: "\(text)"}
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
      """)
    let engine = try #require(result.config?.routing.engines[.transit], "\(result.diagnostics)")
    #expect(engine.depart == expected)
  }

  /// A site that gives no coordinates, with no geocoder, leaves `commute` only `missing`.
  @Test func aCommuteOnASiteWithoutCoordinatesIsWarnedAbout() throws {
    let site = try #require(Registry.sites.all.first { !$0.givesCoordinates })
    let result = Self.load(
      """
      version: 1
      routing:
        transit: {motis: "https://api.transitous.org"}
      places:
        work: [52.520, 13.405]
      searches:
        - name: flats
          site: \(site.id)
          commute: {work: {by: transit, max: 30 min}}
      """)
    let messages = result.diagnostics.filter { $0.severity == .warning }.map(\.message)
    #expect(
      messages.contains { $0.hasPrefix("'commute' in search 'flats' decides nothing") },
      "\(messages)")
  }
}
