import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing

/// The text report in the situations where it used to contradict itself, each from a real run on
/// recorded answers, compared with a golden file (Fixtures/reports/text; `CLARISSA_RECORD=1`
/// re-records) and checked against the JSON report's counts.
@Suite(.serialized) struct TextReportTests {
  static let utc = TimeZone(identifier: "UTC") ?? .current
  static let folder = Fixtures.root.appendingPathComponent("reports/text")

  static func options(_ minutes: Double, notifyFirstRun: Bool = false) -> RunOptions {
    var options = RunOptions(
      now: RunnerTests.noon.addingTimeInterval(minutes * 60), notifyFirstRun: notifyFirstRun)
    options.timeZone = utc
    return options
  }

  /// Compares with the golden file, and checks the text's counts are the JSON report's.
  static func expectReport(_ result: RunResult, golden name: String) throws {
    let text = RunReport.text(result, colored: false, timeZone: utc)
    // The replay folder's absolute path differs between checkouts: the golden file says where
    // it is inside the repository.
    let portable = text.replacingOccurrences(of: Fixtures.root.path, with: "Fixtures")
    try Fixtures.expectGolden(portable, at: folder.appendingPathComponent(name + ".txt"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(RunReport.json(result).utf8)) as? [String: Any])
    let searches = try #require(json["searches"] as? [[String: Any]])
    for search in searches {
      let name = try #require(search["name"] as? String)
      let new = (search["new"] as? [Any])?.count ?? 0
      let held = search["held"] as? Int ?? 0
      let delivered = (search["delivered"] as? [Any])?.count ?? 0
      #expect(text.contains("\(name): \(new) new") == (new > 0 && held == 0), "\(name)")
      #expect(
        text.contains("\(name): \(delivered) found earlier, delivered now") == (delivered > 0))
    }
    #expect(text.hasSuffix((json["summary"] as? String ?? "?") + "\n"))
  }

  @Test func aFirstRunSaysHowManyListingsItRecorded() async throws {
    let runner = try RunnerTests.runner(
      try RunnerTests.config(), replay: "default", state: RunnerTests.temporaryState())
    let result = try await RunnerTests.run(runner, Self.options(0))
    try Self.expectReport(result, golden: "first-run")
  }

  @Test func notDueSaysWhenNext() async throws {
    let state = RunnerTests.temporaryState()
    let config = try RunnerTests.config()
    _ = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "default", state: state), Self.options(0))
    let result = try await RunnerTests.run(
      try RunnerTests.runner(config, replay: "default", state: state), Self.options(5))
    try Self.expectReport(result, golden: "not-due")
  }

  @Test func everySourceFailedIsNotARun() async throws {
    let yaml = """
      version: 1
      searches:
        - name: boston-bikes
          category: bia
          cities: [boston]
        - name: denver-bikes
          category: bia
          cities: [denver]
      """
    let runner = try RunnerTests.runner(
      try RunnerTests.config(yaml), replay: "default", state: RunnerTests.temporaryState())
    let result = try await RunnerTests.run(runner, Self.options(0))
    try Self.expectReport(result, golden: "all-failed")
  }

  @Test func oneSearchIsOneSearch() async throws {
    let yaml = """
      version: 1
      searches:
        - name: ipads
          query: ipad
          category: sss
          cities: [sfbay]
          price: {min: 20, max: 400}
          filters:
            - include: 'air 5th'
              on: title
      """
    let runner = try RunnerTests.runner(
      try RunnerTests.config(yaml), replay: "default", state: RunnerTests.temporaryState())
    let result = try await RunnerTests.run(runner, Self.options(0, notifyFirstRun: true))
    try Self.expectReport(result, golden: "one-search")
  }

  @Test func aRetriedDeliveryIsNotNewAgain() async throws {
    let yaml = """
      version: 1
      notify:
        hook: json://127.0.0.1:9/hook
      searches:
        - name: ipads
          query: ipad
          category: sss
          cities: [sfbay]
          price: {min: 20, max: 400}
          notify: [hook]
      """
    let channel = FlakyChannel(name: "hook")
    let state = RunnerTests.temporaryState()
    let config = try RunnerTests.config(yaml)
    func runner(_ replay: String) throws -> Runner {
      try RunnerTests.runner(config, replay: replay, state: state, channels: ["hook": channel])
    }
    _ = try await RunnerTests.run(try runner("default"), Self.options(0))
    let refused = try await RunnerTests.run(try runner("next"), Self.options(60))
    try Self.expectReport(refused, golden: "delivery-refused")
    channel.healthy = true
    let retried = try await RunnerTests.run(try runner("next"), Self.options(120))
    try Self.expectReport(retried, golden: "delivery-retried")
  }
}
