import ClarissaConfig
import ClarissaCore
import FixtureSupport
import Foundation
import Sites
import Synchronization
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// The pipeline end to end on recorded answers: priming, exactly-once reporting, dry runs,
/// quiet hours, due searches and state safety.
@Suite(.serialized) struct RunnerTests {
  static let repository = Fixtures.root.deletingLastPathComponent()
  static let noon = date("2026-05-03T12:00:00-07:00")

  static func date(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
  }

  static func config(_ yaml: String? = nil) throws -> Config {
    let result: ConfigLoadResult
    if let yaml {
      result = ConfigLoader.load(
        bytes: Array(yaml.utf8), name: "test.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all)
    } else {
      result = ConfigLoader.load(
        path: repository.appendingPathComponent("searches.yaml").path, environment: [:],
        sites: Registry.sites, channels: ChannelRegistry.all)
    }
    return try #require(
      result.config, "\(DiagnosticRenderer(sources: result.sources).render(result.diagnostics))")
  }

  static func temporaryState() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "clarissa-test-\(UUID().uuidString)/clarissa.db"
    ).path
  }

  static func runner(
    _ config: Config, replay: String, state: String, channels: [String: any DeliveryChannel] = [:]
  ) throws -> Runner {
    var settings = SchedulerSettings()
    settings.delayOverride = 0
    let fetcher = try ReplayFetcher(
      folder: Fixtures.root.appendingPathComponent("replay/\(replay)").path)
    return Runner(
      config: config, sites: Registry.sites,
      scheduler: RequestScheduler(fetcher: fetcher, settings: settings), statePath: state,
      channels: channels)
  }

  static func run(_ runner: Runner, _ options: RunOptions) async throws -> RunResult {
    try await runner.run(options).commit()
  }

  @Test func firstRunPrimesSecondReportsTheOneNewListingThirdNothing() async throws {
    let config = try Self.config()
    let state = Self.temporaryState()
    let first = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: Self.noon))
    #expect(first.newListings.isEmpty)
    #expect(first.searches.filter { $0.status == .primed }.count == 3)
    #expect(try Stored(state).seenCount("ipads") > 100)

    let later = Self.noon.addingTimeInterval(3 * 3600)
    let second = try await Self.run(
      try Self.runner(config, replay: "next", state: state), RunOptions(now: later))
    #expect(second.newListings.map(\.id) == ["7931742798"])
    #expect(second.newListings.first?.title == "iPad Air 5th gen 64GB, like new")

    let third = try await Self.run(
      try Self.runner(config, replay: "next", state: state),
      RunOptions(now: later.addingTimeInterval(3 * 3600)))
    #expect(third.newListings.isEmpty)
    #expect(try Stored(state).deliveredTo("ipads", id: "7931742798") == ["terminal"])
  }

  @Test func dryRunLeavesTheStateByteIdentical() async throws {
    let config = try Self.config()
    let state = Self.temporaryState()
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: Self.noon))
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    let dry = try await Self.run(
      try Self.runner(config, replay: "next", state: state),
      RunOptions(now: Self.noon.addingTimeInterval(7200), force: true, dryRun: true))
    #expect(dry.newListings.map(\.id) == ["7931742798"], "a dry run shows what would be new")
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before)
  }

  @Test func notifyFirstRunReportsEverythingMatching() async throws {
    let result = try await Self.run(
      try Self.runner(try Self.config(), replay: "default", state: Self.temporaryState()),
      RunOptions(now: Self.noon, notifyFirstRun: true))
    let ipads = try #require(result.searches.first { $0.name == "ipads" })
    #expect(ipads.fetched == 360)
    #expect(!ipads.new.isEmpty && ipads.new.count + ipads.folded.count == ipads.matched)
    #expect(
      ipads.new.allSatisfy { ($0.price ?? 0) >= 20 && ($0.price ?? 0) <= 400 || $0.price == nil })
    #expect(!ipads.new.contains { $0.title.lowercased().contains("we buy") })
  }

  @Test func onlyDueSearchesRunUnlessForcedOrNamed() async throws {
    let config = try Self.config()
    let state = Self.temporaryState()
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: Self.noon))
    let soon = Self.noon.addingTimeInterval(20 * 60)
    let due = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: soon))
    #expect(due.searches.first { $0.name == "ipads" }?.status == .ran, "15 min interval")
    #expect(due.searches.first { $0.name == "arkansas-land" }?.status == .notDue, "2 h interval")
    let named = try await Self.run(
      try Self.runner(config, replay: "default", state: state),
      RunOptions(now: soon, only: "arkansas-land"))
    #expect(named.searches.first { $0.name == "arkansas-land" }?.status == .ran)
    #expect(named.searches.first { $0.name == "ipads" }?.status == .notSelected)
    let forced = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: soon, force: true))
    #expect(forced.searches.filter { $0.status == .ran }.count == 3)
    #expect(forced.searches.first { $0.name == "bay-area-bikes" }?.status == .disabled)
  }

  @Test func aListingFoundInQuietHoursIsHeldThenDeliveredAfterTheWindow() async throws {
    let config = try Self.config()
    let state = Self.temporaryState()
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: Self.noon))
    let night = Self.date("2026-05-03T23:30:00-07:00")
    let held = try await Self.run(
      try Self.runner(config, replay: "next", state: state), RunOptions(now: night, force: true))
    let ipads = try #require(held.searches.first { $0.name == "ipads" })
    #expect(ipads.new.map(\.id) == ["7931742798"])
    #expect(ipads.held == 1)
    #expect(try Stored(state).held().map(\.listing.id) == ["7931742798"])
    let stillNight = try await Self.run(
      try Self.runner(config, replay: "next", state: state),
      RunOptions(now: Self.date("2026-05-04T06:59:00-07:00"), force: true))
    let quiet = stillNight.searches.allSatisfy { $0.delivered.isEmpty }
    #expect(quiet, "06:59 is still inside 23:00-07:00")
    let morning = try await Self.run(
      try Self.runner(config, replay: "next", state: state),
      RunOptions(now: Self.date("2026-05-04T07:01:00-07:00")))
    #expect(morning.searches.first { $0.name == "ipads" }?.delivered.map(\.id) == ["7931742798"])
    #expect(morning.newListings.isEmpty)
    #expect(try Stored(state).held().isEmpty)
    #expect(try Stored(state).deliveredTo("ipads", id: "7931742798") == ["terminal"])
  }

  @Test func skipModeQuietHoursDoNotRun() async throws {
    let yaml = """
      version: 1
      blackout:
        office: {timezone: America/Chicago, days: weekdays, from: "09:00", to: "17:00", mode: skip}
      searches:
        - name: land
          query: land
          category: rea
          cities: [littlerock]
          search_in: title
          purveyor: owner
          price: {max: 150000}
          blackout: [office]
      """
    let monday10 = Self.date("2026-05-04T10:00:00-05:00")
    let result = try await Self.run(
      try Self.runner(try Self.config(yaml), replay: "default", state: Self.temporaryState()),
      RunOptions(now: monday10))
    #expect(result.searches.first?.status == .quietHours)
    let saturday = Self.date("2026-05-02T10:00:00-05:00")
    let weekend = try await Self.run(
      try Self.runner(try Self.config(yaml), replay: "default", state: Self.temporaryState()),
      RunOptions(now: saturday))
    #expect(weekend.searches.first?.status == .primed)
  }

  @Test func anUnrecordedRequestIsAFailureNamingTheURL() async throws {
    let yaml = """
      version: 1
      searches:
        - name: elsewhere
          cities: [boston]
      """
    let result = try await Self.run(
      try Self.runner(try Self.config(yaml), replay: "default", state: Self.temporaryState()),
      RunOptions(now: Self.noon))
    let failure = try #require(result.searches.first?.failures.first)
    #expect(
      failure.contains(
        "no recorded response for https://sapi.craigslist.org/web/v8/postings/search/full?batch=4-0-360-1-0"
      ))
    #expect(result.sourcesFailed)
  }

  @Test func aDamagedOrNewerStoreStopsTheRunAndIsNotOverwritten() async throws {
    let state = Self.temporaryState()
    try FileManager.default.createDirectory(
      atPath: (state as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    let garbage = Data(repeating: 0x5A, count: 8192)
    try garbage.write(to: URL(fileURLWithPath: state))
    do {
      _ = try await Self.run(
        try Self.runner(try Self.config(), replay: "default", state: state),
        RunOptions(now: Self.noon))
      Issue.record("a damaged store must stop the run")
    } catch let error as RunError {
      #expect(error.kind == .state)
      #expect(error.message.contains("is damaged or not a clarissa database"), "\(error.message)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == garbage)
    // A store a newer clarissa wrote: a real database whose schema version is ahead.
    try FileManager.default.removeItem(atPath: state)
    _ = try await Self.run(
      try Self.runner(try Self.config(), replay: "default", state: state),
      RunOptions(now: Self.noon))
    try ListingStore.open(path: state, readOnly: false).locked { database in
      try database.execute("PRAGMA user_version = 99")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: state))
    do {
      _ = try await Self.run(
        try Self.runner(try Self.config(), replay: "next", state: state),
        RunOptions(now: Self.noon.addingTimeInterval(7200)))
      Issue.record("a newer store must stop the run")
    } catch let error as RunError {
      #expect(error.message.contains("is version 99, newer than this clarissa reads"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: state)) == before, "not changed")
  }

  @Test func aSecondRunWaitsForTheLockThenGivesUp() throws {
    let state = Self.temporaryState()
    let holder = try RunLock(path: state)
    let start = Date()
    #expect(throws: RunLock.Problem.self) { _ = try RunLock(path: state, wait: 0.5) }
    #expect(Date().timeIntervalSince(start) >= 0.45)
    holder.release()
    let other = try RunLock(path: state, wait: 0.5)
    other.release()
  }

  @Test func retentionForgetsByAgeSinceLastSeenNeverByCount() async throws {
    let config = try Self.config()
    let state = Self.temporaryState()
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state), RunOptions(now: Self.noon))
    let count = try Stored(state).seenCount("ipads")
    // 91 days later every listing is still in the answer: seen again, so kept.
    let later = Self.noon.addingTimeInterval(91 * 86_400)
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state),
      RunOptions(now: later, only: "ipads"))
    #expect(try Stored(state).seenCount("ipads") == count)
    // The Arkansas search did not run: its listings were last seen 91 days ago, past 90 days.
    #expect(try Stored(state).seenCount("arkansas-land") == 0)
  }

  @Test func aRefusedDeliveryIsRetriedOnTheNextRunAndThenMarked() async throws {
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
    let state = Self.temporaryState()
    let config = try Self.config(yaml)
    _ = try await Self.run(
      try Self.runner(config, replay: "default", state: state, channels: ["hook": channel]),
      RunOptions(now: Self.noon))
    let failed = try await Self.run(
      try Self.runner(config, replay: "next", state: state, channels: ["hook": channel]),
      RunOptions(now: Self.noon.addingTimeInterval(3600)))
    #expect(failed.deliveryFailures.count == 1)
    #expect(try Stored(state).deliveredTo("ipads", id: "7931742798") == [])
    #expect(try Stored(state).owed().map(\.listing.id) == ["7931742798"])
    channel.healthy = true
    let retried = try await Self.run(
      try Self.runner(config, replay: "next", state: state, channels: ["hook": channel]),
      RunOptions(now: Self.noon.addingTimeInterval(7200)))
    #expect(retried.deliveryFailures.isEmpty)
    #expect(retried.searches.first?.delivered.map(\.id) == ["7931742798"])
    #expect(try Stored(state).owed().isEmpty)
    #expect(try Stored(state).deliveredTo("ipads", id: "7931742798") == ["hook"])
    #expect(
      channel.received.map(\.id) == ["7931742798"], "delivered exactly once, after the failure")
  }
}

/// A channel that refuses until told otherwise.
final class FlakyChannel: DeliveryChannel {
  let name: String
  /// Whether it takes deliveries, and what it took.
  private let state = Mutex((healthy: false, received: [Listing]()))

  init(name: String) { self.name = name }

  var healthy: Bool {
    get { state.withLock { $0.healthy } }
    set { state.withLock { $0.healthy = newValue } }
  }

  var received: [Listing] { state.withLock { $0.received } }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    guard healthy else { throw DeliveryError("the receiver answered 500") }
    state.withLock { $0.received += listings }
    try receipt(listings)
  }
}
