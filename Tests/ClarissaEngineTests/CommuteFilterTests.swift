import ClarissaCore
import ClarissaEngine
import Testing

/// Given a search with `commute` limits, when listings with a travel time, too far in a
/// straight line, without coordinates or without an engine's answer are judged, then each is
/// kept or dropped as the limit and `missing` say, and `explain`'s reason says why in minutes.
@Suite struct CommuteFilterTests {
  static let work = FactFilterTests.work

  static func search(max: Double, by mode: TravelMode = .transit, missing: MissingFacts = .keep)
    -> Search
  {
    FactFilterTests.search {
      $0.commute = [CommuteLimit(place: work, mode: mode, maxMinutes: max)]
      $0.missing = missing
    }
  }

  /// A listing at `place` whose stage gave `minutes` (nil: no answer, with `note`).
  static func listing(
    at place: (Double, Double)? = (52.5, 13.4), minutes: Double?, note: String? = nil
  ) -> Listing {
    var listing = FactFilterTests.listing(at: place)
    if place != nil {
      listing.commute = [CommuteTime(place: "work", by: .transit, minutes: minutes, note: note)]
    }
    return listing
  }

  @Test func aTimeIsComparedWithTheLimitInWholeMinutes() {
    let search = Self.search(max: 30)
    #expect(FactFilterTests.verdict(Self.listing(minutes: 24.2), search).0)
    #expect(
      FactFilterTests.verdict(Self.listing(minutes: 24.2), search).1.hasSuffix(
        "24 min by transit to work ≤ 30 min"))
    let late = FactFilterTests.verdict(Self.listing(minutes: 31), search)
    #expect(!late.0)
    #expect(late.1 == "31 min by transit to work > 30 min")
    // Over by seconds: the words tell the two apart rather than say "30 min > 30 min".
    #expect(
      FactFilterTests.verdict(Self.listing(minutes: 30.3), search).1
        == "30.3 min by transit to work > 30 min")
    #expect(FactFilterTests.verdict(Self.listing(minutes: 30), search).0)
  }

  @Test func aListingBeyondTheStraightLineBoundIsDroppedWithoutATime() {
    // Potsdam Hbf is 27.2 km from the place (haversine, computed apart with Python); at 70 km/h,
    // 15 minutes reach 17.5 km.
    let far = Self.listing(at: (52.3906, 13.0645), minutes: nil, note: "beyond 17.5 km")
    let (accepted, reason) = FactFilterTests.verdict(far, Self.search(max: 15))
    #expect(!accepted)
    #expect(
      reason
        == "27.2 km from work in a straight line > 17.5 km, the most transit covers in 15 min "
        + "(70 km/h)")
  }

  @Test func noAnswerKeepsTheListingAndSaysWhy() {
    let listing = Self.listing(minutes: nil, note: "engine failed")
    let (accepted, reason) = FactFilterTests.verdict(listing, Self.search(max: 30, missing: .drop))
    #expect(accepted)
    #expect(reason.hasSuffix("travel time to work by transit unknown (engine failed): kept"))
  }

  @Test(arguments: [MissingFacts.keep, .drop])
  func noCoordinatesFollowMissing(missing: MissingFacts) {
    let listing = Self.listing(at: nil, minutes: nil)
    let (accepted, reason) = FactFilterTests.verdict(
      listing, Self.search(max: 30, missing: missing))
    #expect(accepted == (missing == .keep))
    #expect(reason.contains("travel time to work by transit (no coordinates) unknown"))
  }

  @Test func everyLimitMustHold() {
    var search = Self.search(max: 30)
    let gym = FactFilterTests.gym
    search.facts.commute.append(CommuteLimit(place: gym, mode: .bike, maxMinutes: 10))
    var listing = Self.listing(minutes: 20)
    listing.commute.append(CommuteTime(place: "gym", by: .bike, minutes: 12))
    let (accepted, reason) = FactFilterTests.verdict(listing, search)
    #expect(!accepted)
    #expect(reason == "12 min by bike to gym > 10 min")
    listing.commute[1].minutes = 9
    #expect(FactFilterTests.verdict(listing, search).0)
    #expect(ListingFilter.accepts(listing, for: search))
  }
}
