import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// The geocoder's answers and failures on both stores: kept per geocoder (its URL), a failure
/// with its count, back-off and reason, an answer replacing a failure.
@Suite(.serialized) struct StoreGeocodeTests {
  @Test(arguments: StoreKind.built)
  func answersAndFailuresAreKeptPerGeocoder(kind: StoreKind) throws {
    let store = try kind.open()
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let place = Coordinates(latitude: 52.4989, longitude: 13.4407)
    try store.rememberGeocode(
      "Wrangelstr. 5", geocoder: "https://a.example/search",
      Geocode(coordinates: place, askedAt: now))
    let failed = Geocode.failure("answered HTTP 400", after: nil, at: now)
    try store.rememberGeocode("Nowhere 1", geocoder: "https://a.example/search", failed)
    let a = try store.geocodes(
      ["Wrangelstr. 5", "Nowhere 1"], geocoder: "https://a.example/search", retryingBefore: now)
    #expect(a["Wrangelstr. 5"] == Geocode(coordinates: place, askedAt: now))
    #expect(a["Nowhere 1"] == failed)
    #expect(failed.failures == 1 && failed.retryAt == now.addingTimeInterval(3_600))
    // Another geocoder knows nothing of them.
    #expect(
      try store.geocodes(
        ["Wrangelstr. 5", "Nowhere 1"], geocoder: "https://b.example/search",
        retryingBefore: now
      ).isEmpty)
    // A second failure doubles the wait; an answer then replaces the failure.
    let again = Geocode.failure("answered HTTP 400", after: failed, at: now)
    #expect(again.failures == 2 && again.retryAt == now.addingTimeInterval(7_200))
    let answer = Geocode(coordinates: nil, askedAt: now)
    try store.rememberGeocode("Nowhere 1", geocoder: "https://a.example/search", answer)
    #expect(
      try store.geocodes(["Nowhere 1"], geocoder: "https://a.example/search", retryingBefore: now)
        == ["Nowhere 1": answer])
  }

  /// The back-off doubles from an hour and stops at a week.
  @Test func theBackOffGrowsToAWeek() {
    var kept: Geocode? = nil
    var waits: [TimeInterval] = []
    for _ in 0..<12 {
      let next = Geocode.failure("x", after: kept, at: Date(timeIntervalSince1970: 0))
      waits.append(next.retryAt?.timeIntervalSince1970 ?? 0)
      kept = next
    }
    #expect(
      waits.map { $0 / 3_600 } == [1, 2, 4, 8, 16, 32, 64, 128, 168, 168, 168, 168])
  }
}
