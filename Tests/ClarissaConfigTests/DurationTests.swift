import Channels
import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Sites
import Testing

/// Given durations as users write them, when read, then milliseconds work everywhere, zero is
/// allowed only where it means none, and units stay in order.
@Suite struct DurationTests {
  @Test(arguments: [
    ("500ms", 500), ("90s", 90_000), ("1h30m", 5_400_000), ("2s500ms", 2500), ("0s", 0),
    ("7d", 604_800_000), ("1m30s250ms", 90_250),
  ])
  func parses(text: String, milliseconds: Int) throws {
    #expect(try #require(Interval(parsing: text)).milliseconds == milliseconds)
  }

  @Test(arguments: ["15", "ms", "500ms1s", "30m2h", "1x", "1s1s", "", "5 m"])
  func refuses(text: String) {
    #expect(Interval(parsing: text) == nil)
  }

  @Test func printsTheShortestSpelling() {
    #expect(Interval(milliseconds: 2500).description == "2s500ms")
    #expect(Interval(milliseconds: 0).description == "0s")
    #expect(Interval.minutes(90).description == "1h30m")
    #expect(Interval(milliseconds: 2500).timeInterval == 2.5)
  }

  @Test func zeroDelayAndJitterAreReadAndTheFloorsAreExplained() throws {
    let url = Fixtures.root.appendingPathComponent("config/valid/zero-durations.yaml")
    let result = ConfigLoader.load(
      path: url.path, environment: Fixtures.environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
    let config = try #require(result.config)
    #expect(config.http.minimumDelay.milliseconds == 0)
    #expect(config.http.jitter.milliseconds == 0)
    #expect(config.http.timeout.milliseconds == 2500)
    let messages = result.diagnostics.map(\.message)
    #expect(messages.contains { $0.contains("below the sites' own floors (craigslist 3s") })
  }
}
