import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// Whether a search's source is new (so primed: recorded without notifying) is decided when its
/// answer is recorded, from the store as it is then, not from what the run read when it began.
/// Workers sharing a store under a round longer than the interval lost new listings that way:
/// another worker primed the source while this one worked through its share, and this one then
/// recorded the source's new items silently as "first run".
@Suite struct PrimingRaceTests {
  static func rss(_ ids: [String]) -> String {
    let items = ids.map {
      "<item><title>Lamp \($0)</title><link>https://feeds.example.org/\($0)</link>"
        + "<guid>\($0)</guid><description>20 EUR</description></item>"
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>lamps</title>"
      + items.joined() + "</channel></rss>"
  }

  @Test func aSourcePrimedByAnotherWorkerWhileThisRunFetchedIsNotPrimedAgain() async throws {
    let path = RunnerLoopbackTests.state()
    let primedElsewhere = Flag()
    let server = try LoopbackServer { request, _ in
      // Another worker's run records this source's answer (two listings) between this run's
      // plan and its own answer, which holds a third, new one.
      let host = request.headers.first { $0.key.lowercased() == "host" }?.value ?? ""
      if let store = try? ListingStore.open(path: path, readOnly: false) {
        let seen = ["x-1", "x-2"].map {
          Listing(id: $0, site: "feed", url: "https://feeds.example.org/\($0)", title: "Lamp \($0)")
        }
        let source = "http://\(host)/feed.xml"
        try? store.record(
          SearchRecord(
            search: "s0", now: Date(), seen: seen, answered: [source], asked: [source],
            reached: true))
        primedElsewhere.value = true
      }
      return .text(
        Self.rss(["x-1", "x-2", "x-3"]), headers: ["Content-Type": "application/rss+xml"])
    }
    let config = try RunnerLoopbackTests.config([server.base + "/feed.xml"])
    let result = try await RunnerLoopbackTests.runner(config, state: path).run(
      RunOptions(now: Date())
    ).commit()
    #expect(primedElsewhere.value, "the other worker's record was written")
    let search = try #require(result.searches.first)
    #expect(search.status == .ran, "not this run's first: \(search.detail ?? "")")
    #expect(search.new.map(\.id) == ["x-3"], "the new listing is announced, not primed")
    #expect(search.primed == 0)
  }
}
