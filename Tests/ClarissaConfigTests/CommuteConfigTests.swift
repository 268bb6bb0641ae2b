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

  @Test func aMOTISEngineMayServeEveryModeAndDepartsMondayMorningByDefault() throws {
    let result = Self.load(
      """
      version: 1
      routing:
        car: {motis: "http://[::1]:8080", delay: 0s}
        foot: {motis: "${MOTIS}"}
      places:
        work: [37.7793, -122.4193]
      searches:
        - name: flats
          query: apartment
          cities: [sfbay]
          commute: {work: [{by: car, max: 1 h}, {by: foot, max: 15 min}]}
      """.replacingOccurrences(of: "${MOTIS}", with: "http://127.0.0.1:8080"))
    let config = try #require(result.config, "\(result.diagnostics)")
    let car = try #require(config.routing.engines[.car])
    #expect(car.kind == .motis && car.profile == nil && car.delay == .seconds(0))
    #expect(car.depart?.description == "Mon 08:30")
    #expect(config.searches[0].facts.commute.map(\.maxMinutes) == [60, 15])
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
          + "(every mode), as in '{osrm: \"http://127.0.0.1:5000\"}'",
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
        transit: {motis: "https://api.transitous.org", depart: "\(text)"}
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
