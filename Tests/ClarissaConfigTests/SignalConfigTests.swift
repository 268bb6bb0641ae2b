import Channels
import ClarissaConfig
import ClarissaCore
import Sites
import Testing

/// Given `signals:` in a search or in `defaults`, when the config is read, then the kinds to
/// drop and the added scam words are the search's, and an unknown kind is an error at its place
/// with a did-you-mean.
@Suite struct SignalConfigTests {
  static func loaded(_ yaml: String) -> ConfigLoadResult {
    ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "signals.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
  }

  @Test func theSearchDropsWhatItNamesAndDefaultsApplyElsewhere() throws {
    let result = Self.loaded(
      """
      version: 1
      defaults:
        signals: {words: ["nur per Überweisung"]}
      searches:
        - name: strict
          cities: [sfbay]
          signals:
            drop: [low-price, scam-words]
        - name: shown
          cities: [sfbay]
      """)
    let config = try #require(result.config, "\(result.diagnostics.map(\.message))")
    let strict = try #require(config.searches.first { $0.name == "strict" })
    #expect(strict.signals == SignalSettings(drop: [.lowPrice, .scamWords]))
    let shown = try #require(config.searches.first { $0.name == "shown" })
    #expect(shown.signals == SignalSettings(words: ["nur per Überweisung"]))
  }

  @Test func byDefaultNothingIsDropped() throws {
    let config = try #require(
      Self.loaded("version: 1\nsearches:\n  - name: s\n    cities: [sfbay]\n").config)
    #expect(config.searches[0].signals == SignalSettings())
  }

  @Test func anUnknownKindIsAnErrorWithADidYouMean() throws {
    let result = Self.loaded(
      "version: 1\nsearches:\n  - name: s\n    cities: [sfbay]\n"
        + "    signals: {drop: [low-prise], words: [\"ab\"]}\n")
    #expect(result.config == nil)
    let errors = result.diagnostics.filter { $0.severity == .error }
    let kind = try #require(errors.first { $0.message.contains("low-prise") })
    #expect(kind.message.contains("did you mean 'low-price'?"), "\(kind.message)")
    #expect(
      kind.location?.line == 5 && kind.location?.column == 22,
      "\(String(describing: kind.location))")
    #expect(errors.contains { $0.message.contains("'ab' in 'signals.words'") })
  }
}
