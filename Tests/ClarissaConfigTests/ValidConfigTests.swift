import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Testing

/// Given valid configs, when they are read, then they load with only their expected warnings and
/// mean what docs/configuration.md says.
@Suite struct ValidConfigTests {
  static let folder = "config/valid"
  static let names = Fixtures.yamlFiles(in: folder)

  static func load(_ name: String) -> ConfigLoadResult {
    let url = Fixtures.root.appendingPathComponent(folder).appendingPathComponent(name)
    return ConfigLoader.load(
      path: url.path, displayName: name, environment: Fixtures.environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test(arguments: names)
  func loadsWithExpectedWarnings(name: String) throws {
    let result = Self.load(name)
    #expect(result.config != nil)
    #expect(
      !result.diagnostics.hasErrors,
      "\(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))")
    let url = Fixtures.root.appendingPathComponent(Self.folder).appendingPathComponent(name)
    let rendered = DiagnosticRenderer(sources: result.sources).render(result.diagnostics)
    try Fixtures.expectGolden(
      rendered, at: url.deletingPathExtension().appendingPathExtension("expected"))
  }

  @Test func aSharedStoreIsReadWithItsLeaseAndPoliteness() throws {
    let state = try #require(Self.load("shared-store.yaml").config?.state)
    #expect(state.url == "postgres://clarissa@db.lan/clarissa?sslmode=verify-full")
    #expect(state.passwordFile == "secrets/pg-password")
    #expect(state.lease == .seconds(5))
    #expect(state.politeness == .perWorker)
    let plain = try #require(Self.load("minimal.yaml").config?.state)
    #expect(plain.url == nil && plain.lease == .minutes(5) && plain.politeness == .shared)
  }

  @Test func theBundledSearchesFileIsValidWithoutWarnings() {
    let path = Fixtures.root.deletingLastPathComponent().appendingPathComponent("searches.yaml")
      .path
    let result = ConfigLoader.load(
      path: path, environment: Fixtures.environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.config?.searches.count ?? 0 >= 3)
    #expect(
      result.diagnostics.isEmpty,
      "\(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))")
  }

  @Test func defaultsApplyUnlessASearchSetsTheKey() throws {
    let config = try #require(Self.load("full.yaml").config)
    let aeron = try #require(config.searches.first { $0.name == "aeron" })
    let norway = try #require(config.searches.first { $0.name == "norway" })
    #expect(aeron.interval == Interval(seconds: 5400))
    #expect(norway.interval == .minutes(20))
    #expect(norway.notify == ["terminal"])
    #expect(norway.blackout == ["night"])
    #expect(aeron.filters.count == 5, "two default excludes, then the search's three filters")
    #expect(aeron.filters.first?.pattern == "wanted")
  }

  @Test func scalarsAreTypedByTheFieldThatReadsThem() throws {
    let config = try #require(Self.load("full.yaml").config)
    let norway = try #require(config.searches.first { $0.name == "norway" })
    #expect(norway.query == "no", "'query: no' stays the text \"no\"")
    let aeron = try #require(config.searches.first { $0.name == "aeron" })
    #expect(aeron.parameters["postal"] == .text("94110"))
    #expect(aeron.parameters["search_distance"] == .integer(25))
    #expect(aeron.price == PriceRange(min: 100, max: 650.5))
  }

  @Test func cityGroupsExpandInOrderWithoutRepeats() throws {
    let config = try #require(Self.load("full.yaml").config)
    let aeron = try #require(config.searches.first { $0.name == "aeron" })
    #expect(aeron.cities.map(\.name) == ["sfbay", "santabarbara", "seattle", "sfbay/eby"])
    #expect(aeron.cities.map(\.group) == ["west", "west", "west", nil])
  }

  @Test func privateRedirectsAreAllowedPerSearchOrByTheDefaults() throws {
    let config = try #require(Self.load("private-redirects.yaml").config)
    let allowed = Dictionary(
      uniqueKeysWithValues: config.searches.map { ($0.name, $0.allowPrivateRedirects) })
    #expect(allowed == ["nas": true, "market": false])
    let nas = try #require(config.searches.first { $0.name == "nas" })
    let requests = try #require(Registry.sites.site("feed")).requests(for: nas)
    #expect(!requests.isEmpty && requests.allSatisfy(\.allowsPrivateRedirects))
    let plain = try #require(Self.load("minimal.yaml").config?.searches.first)
    #expect(!plain.allowPrivateRedirects, "refused unless a search allows it")
  }

  @Test func siteParametersGetTheirDeclaredDefaults() throws {
    let config = try #require(Self.load("minimal.yaml").config)
    let search = try #require(config.searches.first)
    #expect(search.site == "craigslist")
    #expect(search.parameters["mode"] == .text("api"))
    #expect(search.parameters["include_nearby"] == .bool(false))
    #expect(search.interval == .minutes(30))
  }

  @Test func environmentReferencesAreExpanded() throws {
    let config = try #require(Self.load("full.yaml").config)
    #expect(config.channels["phone"]?.url == "ntfys://ntfy.sh/deals?priority=high&tags=chair")
    #expect(config.http.userAgent == "clarissa/0.1 (personal use)")
    #expect(
      config.channels["mail"]?.redactedURL == "smtps://***@mail.example.com:465?to=me@example.com")
  }

  @Test func channelKindsComeFromTheirURLs() throws {
    let config = try #require(Self.load("full.yaml").config)
    let kinds = config.channels.mapValues(\.kind)
    #expect(
      kinds == [
        "terminal": .stdout, "phone": .ntfy, "team": .json, "slack": .slack, "discord": .discord,
        "mail": .smtp, "script": .exec, "everything-else": .apprise,
      ])
    #expect(config.channels["mail"]?.grouping == .digest)
    #expect(config.channels["phone"]?.titleTemplate == "{price} {title}")
  }

  @Test func blackoutWindowsReadDaysTimesAndModes() throws {
    let config = try #require(Self.load("full.yaml").config)
    let night = try #require(config.blackouts["night"])
    #expect(night.wrapsMidnight)
    #expect(night.days.count == 7)
    let office = try #require(config.blackouts["office"])
    #expect(office.days == [.mon, .tue, .wed, .thu, .fri])
    #expect(office.from == TimeOfDay(minutes: 540))
    #expect(office.to == TimeOfDay(minutes: 1050))
    #expect(office.mode == .skip)
    #expect(!office.wrapsMidnight)
  }

  @Test func filtersAreCompiledOnceAndMatchAsDocumented() throws {
    let config = try #require(Self.load("full.yaml").config)
    let aeron = try #require(config.searches.first { $0.name == "aeron" })
    let include = aeron.filters[2]
    #expect(
      include.matches(title: "Herman Miller AERON", description: ""), "text is case-insensitive")
    let regex = aeron.filters[3]
    #expect(regex.matches(title: "size B", description: "Size B, fully loaded"))
    #expect(!regex.matches(title: "size B", description: "no size given"), "on: description")
    let caseSensitive = aeron.filters[4]
    #expect(caseSensitive.matches(title: "Replica chair", description: ""))
    #expect(!caseSensitive.matches(title: "replica chair", description: ""))
  }

  @Test func mergeKeysShareFieldsBetweenSearches() throws {
    let config = try #require(Self.load("anchors-and-merges.yaml").config)
    #expect(config.searches.map(\.interval) == [.minutes(45), .hours(2)])
    #expect(
      config.searches.allSatisfy { $0.cities.map(\.name) == ["sfbay"] && $0.filters.count == 1 })
  }

  @Test func feedSearchesListURLsInsteadOfCities() throws {
    let config = try #require(Self.load("full.yaml").config)
    let feed = try #require(config.searches.first { $0.site == "feed" })
    #expect(feed.cities.isEmpty)
    guard case .urls(let urls)? = feed.parameters["feeds"] else {
      Issue.record("feeds not read")
      return
    }
    #expect(urls.count == 2)
  }
}
