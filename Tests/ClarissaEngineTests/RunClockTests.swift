import ClarissaCore
import ClarissaEngine
import FixtureSupport
import Foundation
import ListingStore
import Testing

/// The run's clock moves: what a run records is stamped when it happened, not when the run
/// began. Through the real fetcher, against a loopback feed that answers a second after it is
/// asked, on both stores (on PostgreSQL through the workers' leases).
@Suite(.serialized) struct RunClockTests {
  @Test(arguments: StoreKind.built)
  func aListingIsFirstSeenWhenItsAnswerCameNotWhenTheRunBegan(kind: StoreKind) async throws {
    let server = try LoopbackServer { _, _ in
      Thread.sleep(forTimeInterval: 1)
      return .init(body: RunnerLoopbackTests.feed)
    }
    let config = try RunnerLoopbackTests.config([server.base + "/feed.xml"])
    let location = kind == .sqlite ? RunnerLoopbackTests.state() : try kind.location()
    let options = RunOptions(notifyFirstRun: true)
    let result = try await RunnerLoopbackTests.runner(config, state: location).run(options)
      .commit()
    let asked = try #require(server.requests.first?.arrived)
    let keys = result.searches[0].new.map(\.key)
    #expect(keys.count == 2)
    let store = try StoreSamples.open(kind, at: location)
    let seen = try store.lookUp(search: "s0", keys: keys)
    for key in keys {
      // Served a second after it was asked: not there before, and not seen before.
      let sighting = try #require(seen[key])
      #expect(sighting.firstSeen >= asked.addingTimeInterval(1), "\(sighting) asked \(asked)")
      #expect(sighting.firstSeen > options.now.addingTimeInterval(0.9))
      #expect(sighting.lastSeen >= sighting.firstSeen)
      let history = try #require(try store.history(key))
      #expect(history.firstSeen == sighting.firstSeen)
    }
  }
}
