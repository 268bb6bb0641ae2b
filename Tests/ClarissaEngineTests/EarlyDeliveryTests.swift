import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// A search's new listings leave as soon as it is judged and recorded, while the run's other
/// searches are still being fetched: one slow source no longer holds back everyone's news.
@Suite struct EarlyDeliveryTests {
  @Test func theFirstSearchIsDeliveredWhileTheSecondIsStillBeingFetched() async throws {
    let receiver = try LoopbackServer { _, _ in .init(status: 200) }
    let quick = try LoopbackServer { _, _ in
      .text(PrimingRaceTests.rss(["quick-1"]), headers: ["Content-Type": "application/rss+xml"])
    }
    let deliveredFirst = Flag()
    let slow = try LoopbackServer { _, _ in
      // Answers once the quick search's listing has reached the receiver (or after 10 s: a
      // run that delivers only at its end makes this wait in vain).
      let deadline = Date().addingTimeInterval(10)
      while receiver.requests.isEmpty && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.02)
      }
      deliveredFirst.value = !receiver.requests.isEmpty
      return .text(
        PrimingRaceTests.rss(["slow-1"]), headers: ["Content-Type": "application/rss+xml"])
    }
    let config = try RunnerTests.config(
      """
      version: 1
      notify:
        hook: json://127.0.0.1:\(receiver.port)/hook
      defaults:
        site: feed
        notify: [hook]
      searches:
        - name: slow
          feeds: [\(slow.base)/feed.xml]
        - name: quick
          feeds: [\(quick.base)/feed.xml]
      """)
    let started = Date()
    let result = try await RunnerLoopbackTests.runner(config, state: RunnerTests.temporaryState())
      .delivering(to: config)
      .run(RunOptions(now: Date(), notifyFirstRun: true)).commit()
    #expect(deliveredFirst.value, "the quick search's listing arrived before the slow answered")
    #expect(Date().timeIntervalSince(started) < 8, "the slow source did not wait out its 10 s")
    #expect(result.searches.map { $0.new.map(\.id) } == [["slow-1"], ["quick-1"]])
    let bodies = receiver.requests.map(\.text)
    #expect(bodies.count == 2 && bodies[0].contains("quick-1") && bodies[1].contains("slow-1"))
  }
}
