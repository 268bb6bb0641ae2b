import Channels
import ClarissaConfig
import ClarissaCore
import Sites
import Testing

/// Given a config whose searches repeat what a load works out once (a site's parameter defaults
/// and keys, a site's verdict on a city, the names used), when it is read, then every search gets
/// what it would get alone.
@Suite struct ReadOnceTests {
  static func load(_ searches: String) -> ConfigLoadResult {
    let yaml = "version: 1\nnotify:\n  a: stdout\n  b: stdout\nsearches:\n" + searches
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "once.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test func aSearchsOwnValueNeverBecomesTheNextSearchsDefault() throws {
    let result = Self.load(
      """
        - {name: a, cities: [sfbay], purveyor: owner, mode: html, notify: a}
        - {name: b, cities: [sfbay], notify: a}
        - {name: c, cities: [sfbay], purveyor: dealer, notify: a}
      """)
    let searches = try #require(result.config?.searches)
    #expect(
      searches.map { $0.parameters["purveyor"] } == [.text("owner"), .text("any"), .text("dealer")])
    #expect(searches.map { $0.parameters["mode"] } == [.text("html"), .text("api"), .text("api")])
    #expect(searches[1].parameters["sort"] == .text("date"))
  }

  @Test func aValueThatDoesNotReadLeavesNoDefaultBehind() {
    let result = Self.load(
      """
        - {name: a, cities: [sfbay], mode: fax, notify: a}
        - {name: b, cities: [sfbay], mode: fax, notify: a}
      """)
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.map(\.location?.line) == [6, 7])
    #expect(errors.allSatisfy { $0.message.hasPrefix("'fax' is not a valid value for 'mode'") })
  }

  @Test func eachSiteChecksItsOwnKeysWhicheverComesFirst() {
    let found = Self.load(
      """
        - {name: a, site: feed, feeds: ["https://example.org/a.xml"], purveyor: owner}
        - {name: b, cities: [sfbay], feeds: ["https://example.org/b.xml"]}
        - {name: c, site: feed, feeds: ["https://example.org/c.xml"], purveyor: owner}
      """
    ).diagnostics.filter { $0.severity == .error }.map(\.message)
    #expect(
      found == [
        "'purveyor' is a parameter of site 'craigslist', not of 'feed' (search 'a')",
        "'feeds' is a parameter of site 'feed', not of 'craigslist' (search 'b')",
        "'purveyor' is a parameter of site 'craigslist', not of 'feed' (search 'c')",
      ])
  }

  @Test func anUnknownCityIsReportedInEverySearchThatNamesIt() {
    let found = Self.load(
      """
        - {name: a, cities: [sfbya], notify: a}
        - {name: b, cities: [sfbay, sfbya], notify: a}
      """
    ).diagnostics.filter { $0.severity == .error }
    #expect(found.map(\.location?.line) == [6, 7])
    #expect(found.allSatisfy { $0.message.hasPrefix("unknown craigslist city 'sfbya'") })
  }

  @Test func aChannelUsedByOneSearchIsUsedAndTheOtherIsNot() {
    let found = Self.load("  - {name: a, cities: [sfbay], notify: b}\n").diagnostics
    #expect(found.map(\.message) == ["channel 'a' is not used by any search"])
  }
}
