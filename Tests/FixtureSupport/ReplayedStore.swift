import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Foundation
import ListingStore
import Sites
import Testing

/// A store filled by real runs: the ipads search of the bundled config played through
/// `Fixtures/replay/default` and then `Fixtures/replay/changes/1` to `5` (the real sfbay capture,
/// then its later answers: a price going 100 -> 96 -> 90 -> 100 -> 90, a repost, a listing gone
/// and back; the folder's README), at the times `ReplaySequenceTests` plays them.
public enum ReplayedStore {
  /// The first run: noon in San Francisco, 3 May 2026.
  public static let noon = Date(timeIntervalSince1970: 1_777_834_800)
  /// The listing whose price changes.
  public static let priced = "7930621188"
  /// The ipads search as the bundled config has it (its filters too), alone.
  public static let config = """
    searches:
      - name: ipads
        site: craigslist
        query: ipad
        category: sss
        cities: [sfbay]
        price: {min: 20, max: 400}
        filters:
          - include: '\\bipad\\b'
            regex: true
            on: title
          - exclude: '\\b(broken|for parts|icloud lock(ed)?)\\b'
            regex: true
    """

  /// When each replay is played: the first three changes an hour apart, the fourth eight days
  /// after the first run, the fifth an hour after it.
  public static let runs: [(replay: String, at: Date)] =
    [("default", noon)]
    + (1...3).map { ("changes/\($0)", noon.addingTimeInterval(Double($0) * 3600)) }
    + [
      ("changes/4", noon.addingTimeInterval(8 * 86_400)),
      ("changes/5", noon.addingTimeInterval(8 * 86_400 + 3600)),
    ]

  /// A new store file with the six runs recorded; its path.
  public static func changes() async throws -> String {
    let loaded = ConfigLoader.load(
      bytes: Array(config.utf8), name: "replayed.yaml", environment: [:], sites: Registry.sites,
      channels: [])
    let config = try #require(loaded.config, "\(loaded.diagnostics)")
    let state = FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-replayed-\(UUID().uuidString)/clarissa.db"
    ).path
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    for run in runs {
      let fetcher = try ReplayFetcher(
        folder: Fixtures.root.appendingPathComponent("replay/\(run.replay)").path)
      let runner = Runner(
        config: config, sites: Registry.sites,
        scheduler: RequestScheduler(fetcher: fetcher, settings: settings), statePath: state)
      _ = try await runner.run(RunOptions(now: run.at)).commit()
    }
    return state
  }
}
