import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// The bundled ipads search played through `Fixtures/replay/changes/`: the real sfbay capture
/// first, then later answers derived from it (a repost under a new id, a price going
/// 100 -> 96 -> 90 -> 100 -> 90, a listing gone eight days and back). See the folder's README.
@Suite(.serialized) struct ReplaySequenceTests {
  static let priced = "7930621188"

  /// The bundled config's ipads search alone, announcing `notifyOn`.
  static func config(_ notifyOn: Set<ListingEventKind>) throws -> Config {
    var config = try RunnerTests.config()
    config.searches = config.searches.filter { $0.name == "ipads" }
    config.searches[0].notifyOn = notifyOn
    return config
  }

  /// Each run's verdicts in words: `new <id>`, `repost <id> of <id>`, `<event> <id> <change>`.
  static func play(_ notifyOn: Set<ListingEventKind>) async throws -> [[String]] {
    let config = try Self.config(notifyOn)
    let state = RunnerTests.temporaryState()
    let hour: TimeInterval = 3600
    let runs: [(replay: String, at: Date)] =
      [("default", RunnerTests.noon)]
      + (1...3).map { ("changes/\($0)", RunnerTests.noon.addingTimeInterval(Double($0) * hour)) }
      + [
        ("changes/4", RunnerTests.noon.addingTimeInterval(8 * 24 * hour)),
        ("changes/5", RunnerTests.noon.addingTimeInterval(8 * 24 * hour + hour)),
      ]
    var said: [[String]] = []
    for run in runs {
      let runner = try RunnerTests.runner(config, replay: run.replay, state: state)
      let result = try await runner.run(RunOptions(now: run.at)).commit()
      let search = result.searches[0]
      said.append(
        search.new.map { "new \($0.id)" }
          + search.folded.map { "repost \($0.id) of \($0.repostOf)" }
          + search.changed.map {
            "\($0.event?.kind.rawValue ?? "?") \($0.id) \(Change.describe($0) ?? "")"
          })
    }
    return said
  }

  @Test func dropsOnlyTheRepostFoldedOneDropAndTheReturn() async throws {
    let said = try await Self.play([.new, .priceDrop, .back])
    #expect(said[0].isEmpty, "the first run primes")
    #expect(said[1] == ["repost 7931800000 of 7921078389"], "and $100 -> $96 is below 5%")
    #expect(said[2] == ["price_drop 7930621188 $100 → $90 (-10%)"])
    #expect(said[3].isEmpty, "back to $100 is no drop")
    // Eight days without a run: nothing is "back" for that (every listing was there before).
    #expect(said[4].isEmpty, "$90 again is no change from the $90 announced")
    // Gone from the answers of 1 to 4, the last eight days after it was seen: back.
    #expect(said[5] == ["back 7915059614 back at $85"])
  }

  @Test func dropsAndRisesEachChangeOnce() async throws {
    let said = try await Self.play([.new, .priceDrop, .priceRise])
    #expect(
      said.flatMap { $0 }.filter { $0.contains(Self.priced) } == [
        "price_drop 7930621188 $100 → $90 (-10%)", "price_rise 7930621188 $90 → $100 (+11%)",
        "price_drop 7930621188 $100 → $90 (-10%)",
      ])
    #expect(!said[5].contains { $0.hasPrefix("back") }, "back is not asked for")
  }
}
