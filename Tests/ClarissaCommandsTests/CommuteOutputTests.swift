import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaCommands
@testable import ClarissaEngine
@testable import ListingStore

/// Given a listing with travel times (filled in here, as the commute stage and the store's
/// lookup do), when `listings`, `show` and `explain` print it, then the times are said where
/// the distances are; and `validate` names each search's limits and each mode's engine.
@Suite struct CommuteOutputTests {
  static let work = NamedPlace(
    name: "work", coordinates: Coordinates(latitude: 52.520, longitude: 13.405))
  static let now = Date(timeIntervalSince1970: 1_777_834_800)

  static func listing(minutes: Double = 24.4) -> Listing {
    var listing = Listing(
      id: "1", site: "test", url: "https://example.com/1", title: "Flat", price: 1_000,
      coordinates: Coordinates(latitude: 52.5096, longitude: 13.3759))
    listing.rooms = 2
    listing.commute = [CommuteTime(place: "work", by: .transit, minutes: minutes)]
    return listing
  }

  static func search() -> Search {
    var search = Search(name: "flats", site: "test")
    search.places = [work]
    search.facts.commute = [CommuteLimit(place: work, mode: .transit, maxMinutes: 30)]
    return search
  }

  @Test func listingsSaysTheTimeAfterTheDistance() {
    let found = FoundListing(
      search: "flats", listing: Self.listing(), firstSeen: Self.now, lastSeen: Self.now,
      event: "new", repostOf: nil, deliveredTo: [])
    let text = ListingsOutput.text([found], now: Self.now, searches: ["flats": Self.search()])
    #expect(
      text.contains("\n    2 rooms · 2.3 km from work · 24 min by transit to work\n"), "\(text)")
  }

  @Test func showHasALineOfTravelTimes() {
    let history = ListingHistory(
      listing: Self.listing(), firstSeen: Self.now, lastSeen: Self.now, prices: [],
      searches: [
        ListingHistory.SearchSighting(
          search: "flats", firstSeen: Self.now, lastSeen: Self.now, repostOf: nil,
          alsoPostedAs: [], deliveries: [])
      ])
    let text = ListingsOutput.show(history, now: Self.now, searches: ["flats": Self.search()])
    #expect(text.contains("\n  distances: 2.3 km from work\n"), "\(text)")
    #expect(text.contains("\n  travel times: 24 min by transit to work\n"), "\(text)")
    var plain = history
    plain.listing.commute = []
    #expect(!ListingsOutput.show(plain, now: Self.now).contains("travel times"))
  }

  @Test func explainSaysTheTimeAgainstTheLimit() {
    let late = Self.listing(minutes: 31)
    let (accepted, reason) = ListingFilter.verdict(late, for: Self.search())
    let explanation = Explanation(
      search: "flats",
      entries: [
        Explanation.Entry(listing: late, accepted: accepted, reason: reason, verdict: .filtered)
      ], failures: [])
    let lines = Explain.lines(explanation, onlyKept: false)
    #expect(lines.contains("    31 min by transit to work > 30 min; ignored"), "\(lines)")
  }

  @Test func validateNamesTheLimitsAndTheEngines() throws {
    let config = Fixtures.root.appendingPathComponent("config/valid/commute.yaml").path
    let outcome = try CommandLineTests.run(["validate", "--config", config])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains(
        "facts: commute work by transit ≤ 30 min, commute work by bike ≤ 30 min, commute gym by "
          + "car ≤ 90 min  report only"), "\(outcome.stdout)")
    #expect(
      outcome.stdout.contains(
        """
        routing:
          car: osrm http://127.0.0.1:5000 (driving), 20 requests a run, 1s apart
          bike: osrm http://127.0.0.1:5001 (bike), 5 requests a run, 0s apart
          transit: motis https://api.transitous.org (Tue 07:45), 10 requests a run, 2s apart

        """), "\(outcome.stdout)")
  }
}
