import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore
@testable import Presentation

/// `serve`'s kept markets (``DealMarketCache``): a page reads a search's market once while the
/// store's stamp stays, and again when a run moves it or the kept one grows old.
@Suite struct DealMarketCacheTests {
  @Test func aKeptMarketServesUntilTheStampMovesOrItAges() throws {
    let store = try StoreSamples.store()
    let day = 86_400.0
    let cheap = (1...6).map { StoreSamples.flat("c\($0)", 100 * Double($0)) }
    try DealContextTests.record(store, day: 119, cheap)
    let asked = StoreSamples.flat("c1", 100)
    let cache = DealMarketCache()
    let now = DealContextTests.now
    func lines(stamp: Date, at moment: Date) throws -> [String]? {
      try DealContextBook(memory: store, now: moment, cache: cache, stamp: stamp)
        .lines(for: [asked], search: "flats")[asked.key]
    }
    func expectLines(
      stamp: Date, at moment: Date, _ expected: [String],
      at place: Testing.SourceLocation = #_sourceLocation
    ) throws {
      // The comparison; the time on the market follows it.
      let said = try lines(stamp: stamp, at: moment).map { Array($0.prefix(1)) }
      #expect(said == expected, "said: \(said ?? [])", sourceLocation: place)
    }
    let first = Date(timeIntervalSince1970: 1)
    // The other five: 200 to 600; median 400.
    try expectLines(stamp: first, at: now, ["75% below the median of 5 (€400)"])
    // Five dearer flats join the search; with the same stamp the kept market still answers.
    let dear = (1...5).map { StoreSamples.flat("d\($0)", 1_000 * Double($0)) }
    try DealContextTests.record(store, day: 119.5, dear)
    try expectLines(stamp: first, at: now, ["75% below the median of 5 (€400)"])
    // A run moved the stamp: read again (ten others, median 800).
    let moved = Date(timeIntervalSince1970: 2)
    try expectLines(stamp: moved, at: now, ["88% below the median of 10 (€800)"])
    // Kept no longer than maxAge, whatever the stamp: a sixth dear flat shows after it.
    try DealContextTests.record(store, day: 119.6, [StoreSamples.flat("d6", 6_000)])
    try expectLines(stamp: moved, at: now, ["88% below the median of 10 (€800)"])
    let later = now.addingTimeInterval(DealMarketCache.maxAge + 1)
    try expectLines(stamp: moved, at: later, ["90% below the median of 11 (€1,000)"])
    #expect(DealMarketCache.maxAge < day)
  }
}
