import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// One listing a service refuses (a 4xx that names the message: ntfy's 400 for a header it
/// cannot take) fails that listing alone: the batch's other listings are sent and recorded
/// in the same run, and only the refused one is tried again, until it is given up.
@Suite(.serialized) struct MessageRefusalTests {
  static let ids = (1...15).map { String(format: "b%02d", $0) }

  static func config(_ receiver: LoopbackServer, _ feed: LoopbackServer) throws -> Config {
    try RunnerTests.config(
      """
      version: 1
      notify:
        phone: ntfy://127.0.0.1:\(receiver.port)/deals
      searches:
        - name: bikes
          site: feed
          feeds: [\(feed.base)/feed.xml]
          interval: 1m
          notify: [phone]
      """)
  }

  @Test func oneRefusedListingFailsAloneAndIsGivenUpAfterItsLimit() async throws {
    // The first listing of the batch is the one refused, the worst place for it.
    let receiver = try LoopbackServer { request, _ in
      request.headers["title"]?.contains("b01") == true
        ? .text(#"{"code":40000,"error":"invalid request"}"#, status: 400)
        : .text("{}")
    }
    let feed = try LoopbackServer { _, _ in .text(RunnerLoopbackTests.feed(Self.ids)) }
    let config = try Self.config(receiver, feed)
    let state = RunnerTests.temporaryState()
    let runner = RunnerLoopbackTests.runner(config, state: state).delivering(to: config)
    var results: [RunResult] = []
    for run in 0..<OwedDelivery.maxAttempts {
      let now = RunnerTests.noon.addingTimeInterval(Double(run) * 120)
      results.append(
        try await runner.run(RunOptions(now: now, notifyFirstRun: true)).commit())
    }
    let first = try #require(results.first)
    #expect(first.channels["phone"]?.delivered == 14, "the other 14 in the first run")
    #expect(first.channels["phone"]?.failed == 1)
    #expect(first.deliveryFailures.first?.contains("HTTP 400") == true)
    for id in Self.ids.dropFirst() {
      #expect(try Stored(state).deliveredTo("bikes", site: "feed", id: id) == ["phone"])
    }
    let titles = receiver.requests.compactMap { $0.headers["title"] }
    for id in Self.ids.dropFirst() {
      #expect(titles.filter { $0.contains(id) }.count == 1, "\(id) sent once, never again")
    }
    #expect(titles.filter { $0.contains("b01") }.count == OwedDelivery.maxAttempts)
    #expect(results.dropFirst().allSatisfy { $0.channels["phone"]?.failed == 1 })
    let last = try #require(results.last)
    #expect(
      last.deliveryFailures.contains {
        $0.hasPrefix("gave up on 'Bike b01' (bikes) after \(OwedDelivery.maxAttempts) attempts")
      })
    #expect(try Stored(state).owed().isEmpty, "given up: owed no more")
  }

  @Test func aServerErrorStillStopsTheBatch() async throws {
    let receiver = try LoopbackServer { request, _ in
      request.headers["title"]?.contains("b02") == true
        ? .text("upstream down", status: 502) : .text("{}")
    }
    let feed = try LoopbackServer { _, _ in .text(RunnerLoopbackTests.feed(Self.ids)) }
    let config = try Self.config(receiver, feed)
    let state = RunnerTests.temporaryState()
    let result = try await RunnerLoopbackTests.runner(config, state: state).delivering(
      to: config
    ).run(RunOptions(now: RunnerTests.noon, notifyFirstRun: true)).commit()
    #expect(result.channels["phone"]?.delivered == 1)
    #expect(receiver.requests.count == 2, "nothing sent after the 502")
    #expect(Set(try Stored(state).owed().map(\.listing.id)) == Set(Self.ids.dropFirst()))
  }
}
