import Channels
import ClarissaConfig
import ClarissaCore
import Sites
import Testing

/// Given the mistakes a newcomer makes, when the config is read, then each "did you mean" names
/// what was meant (issue 11, item 6) and Craigslist's own filters are checked (item 5).
@Suite struct HintTests {
  static func messages(_ yaml: String) -> [String] {
    ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "hints.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all
    ).diagnostics.map(\.message)
  }

  static func search(_ lines: String) -> String {
    "version: 1\nsearches:\n  - name: s\n" + lines
  }

  @Test func aRenamedKeyDoesNotSuggestItself() {
    let found = Self.messages(Self.search("    cities: [sfbay]\n    max_price: 2600\n"))
    #expect(found == ["unknown key 'max_price' in search 's' (write 'price: {max: ...}')"])
  }

  @Test(arguments: [
    ("America/Seattle", "America/Los_Angeles"), ("America/San_Francisco", "America/Los_Angeles"),
    ("Europe/Manchester", "Europe/London"), ("Europe/Pariss", "Europe/Paris"),
  ])
  func aCityInAZoneNameSuggestsTheZoneOfThatCity(written: String, meant: String) {
    let found = Self.messages(
      Self.search("    cities: [sfbay]\n    blackout: night\n")
        + "blackout:\n  night:\n    timezone: \(written)\n"
        + "    from: \"23:00\"\n    to: \"07:00\"\n")
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.contains("did you mean '\(meant)'?") == true, "\(found)")
  }

  @Test(arguments: ["US/Pacific", "Etc/GMT+8", "Asia/Calcutta", "America/Los_Angeles"])
  func everyTzdataNameIsAccepted(zone: String) {
    let found = Self.messages(
      Self.search("    cities: [sfbay]\n    blackout: night\n")
        + "blackout:\n  night:\n    timezone: \(zone)\n"
        + "    from: \"23:00\"\n    to: \"07:00\"\n")
    #expect(found.isEmpty, "\(found)")
  }

  @Test func aThousandsCommaInAFlowMappingSaysTheWholeAmount() {
    let found = Self.messages(Self.search("    cities: [sfbay]\n    price: {max: $2,600}\n"))
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.contains("found '$2,600'; write 2600 ") == true, "\(found)")
  }

  @Test func aMisspelledAreaKeepsItsSubarea() {
    let found = Self.messages(Self.search("    cities: [seatle/est]\n"))
    #expect(found.first?.contains("did you mean 'seattle/est'") == true, "\(found)")
  }

  @Test func aPlaceNameFindsItsAreaByDescription() {
    let found = Self.messages(Self.search("    cities: [\"san francisco\"]\n"))
    #expect(found.first?.contains("is read as 'sfbay/sfc'") == true, "\(found)")
  }

  /// The spellings people type: a nickname, a town inside an area, a name run together, a
  /// typo. Each is read as its area with a warning that names it, or suggests it first.
  @Test(arguments: [
    ("sf", "is read as 'sfbay' (SF bay area"), ("berkeley", "is read as 'sfbay/eby'"),
    ("sanfrancisco", "is read as 'sfbay/sfc'"), ("\"san fransisco\"", "did you mean 'sfbay/sfc'"),
  ])
  func aSpellingPeopleTypeFindsItsArea(typed: String, said: String) {
    let found = Self.messages(Self.search("    cities: [\(typed)]\n"))
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.contains(said) == true, "\(found)")
    #expect(found.first?.contains("south dakota") == false, "\(found)")
  }

  @Test func anAreaAndOneOfItsSubareasInOneSearchWarn() {
    let result = ConfigLoader.load(
      bytes: Array(Self.search("    cities: [seattle, seattle/est]\n").utf8), name: "h.yaml",
      environment: [:], sites: Registry.sites, channels: ChannelRegistry.all)
    #expect(!result.diagnostics.hasErrors)
    #expect(result.diagnostics.map(\.severity) == [.warning])
    #expect(result.diagnostics.first?.message.contains("listings would come twice") == true)
  }

  @Test func aCategoryWordSuggestsCodesThatSayWhatTheyMean() {
    let found = Self.messages(Self.search("    cities: [sfbay]\n    category: bikes\n"))
    #expect(
      found == [
        "unknown craigslist category 'bikes' in search 's'; did you mean 'bia' (all bicycles), "
          + "'bid' (bicycles - by dealer) or 'bik' (bicycles - by owner)?"
      ])
  }

  @Test func craigslistFiltersAreTypedAndMappedIntoTheURL() throws {
    let yaml = Self.search(
      "    cities: [sfbay]\n    category: apa\n    min_bedrooms: 2\n    max_bathrooms: 2\n"
        + "    min_sqft: 600\n    laundry: [in-unit, hookups]\n    parking: off-street\n"
        + "    furnished: true\n    no_smoking: false\n")
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "f.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.diagnostics.isEmpty)
    let search = try #require(result.config?.searches.first)
    let site = try #require(Registry.sites.site("craigslist"))
    let url = try #require(site.requests(for: search, in: search.cities.first).first?.url)
    #expect(
      url.hasSuffix(
        "&min_bedrooms=2&max_bathrooms=2&minSqft=600&laundry=1&laundry=4&parking=4"
          + "&is_furnished=1"), "\(url)")
  }

  @Test func craigslistFilterValuesAreCheckedWithAHint() {
    let found = Self.messages(
      Self.search("    cities: [sfbay]\n    condition: like new\n    min_bedrooms: 40\n"))
    #expect(found.count == 2, "\(found)")
    #expect(found.contains { $0.contains("did you mean 'like-new'?") })
    #expect(found.contains { $0.contains("must be from 0 to 20, found 40") })
  }
}

/// A `\b` in double quotes is a backspace to YAML: the filter validates, then matches nothing.
@Suite struct ControlCharacterFilterTests {
  /// A search with one regex filter, its pattern written as `written` (quotes included).
  static func load(_ written: String) -> ConfigLoadResult {
    let yaml =
      "version: 1\nsearches:\n  - name: s\n    cities: [sfbay]\n    filters:\n"
      + "      - include: \(written)\n        regex: true\n"
    return ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "flats.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test func aBackspaceInADoubleQuotedRegexIsAWarningThatShowsTheSingleQuotedForm() {
    let loaded = Self.load("\"\\b[12][- ]?zimmer\\b\"")
    let warning = loaded.diagnostics.first { $0.message.contains("control character") }
    #expect(warning?.severity == .warning)
    #expect(
      warning?.location?.line == 6 && warning?.location?.column == 18, "\(loaded.diagnostics)")
    #expect(
      warning?.message.hasSuffix("single quotes: include: '\\b[12][- ]?zimmer\\b'") == true,
      "\(warning?.message ?? "none")")
    #expect(loaded.config != nil, "a warning, not an error")
  }

  @Test func theSameInSingleQuotesIsClean() {
    let loaded = Self.load("'\\b[12][- ]?zimmer\\b'")
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics.map(\.message))")
  }
}

/// Craigslist's housing filters on a for-sale category (and the reverse) are sent for nothing.
@Suite struct CraigslistSectionTests {
  static func messages(category: String, filter: String) -> [String] {
    HintTests.messages(
      HintTests.search("    cities: [sfbay]\n    category: \(category)\n    \(filter)\n"))
  }

  @Test func aHousingFilterOnBicyclesIsAWarning() {
    let found = Self.messages(category: "bia", filter: "min_bedrooms: 2")
    #expect(
      found == [
        "'min_bedrooms' narrows housing searches, and category 'bia' (all bicycles) is for sale: "
          + "Craigslist ignores it ('min_bedrooms' in search 's')"
      ], "\(found)")
  }

  @Test func aForSaleFilterOnApartmentsIsAWarning() throws {
    let filter = try #require(
      Registry.sites.site("craigslist")?.parameters.first { $0.summary.hasPrefix("for sale: ") })
    let found = Self.messages(category: "apa", filter: "\(filter.name): \(filter.example)")
    #expect(found.count == 1 && found[0].contains("is housing: Craigslist ignores it"), "\(found)")
  }

  @Test func aHousingFilterOnHousingIsClean() {
    #expect(Self.messages(category: "apa", filter: "min_bedrooms: 2").isEmpty)
    #expect(Self.messages(category: "hhh", filter: "min_bedrooms: 2").isEmpty)
  }
}
