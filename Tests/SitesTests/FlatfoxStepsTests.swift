import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Sites

/// flatfox's two requests on its real answers: the search asks for the pins of an area (the
/// sample's exact request), their answer asks for the listings of the 100 pins (one `pk` each,
/// in the pins' order), and that answer reads to the 100 listings.
@Suite struct FlatfoxStepsTests {
  static let pinsURL =
    "https://flatfox.ch/api/v1/pin/?east=8.62&north=47.43&south=47.32&west=8.44"
    + "&object_category=APARTMENT&offer_type=RENT&max_count=100"

  @Test func pinsThenListings() throws {
    let site = try #require(Registry.sites.site("flatfox"))
    let search = Search(name: "flats", site: "flatfox", cities: [CityRef("zurich")])
    let first = try #require(site.requests(for: search).first)
    #expect(first.url == Self.pinsURL)
    #expect(first.mode == "pins")

    let pins = try Fixtures.bytes("flatfox/flatfox-pins-1.json")
    let batch = try site.listings(from: SourceResponse(request: first, body: pins))
    #expect(batch.listings.isEmpty)
    let next = try #require(batch.followUps.first)
    #expect(batch.followUps.count == 1)
    let ids = try (JSONSerialization.jsonObject(with: Data(pins)) as? [[String: Any]] ?? [])
      .compactMap { ($0["pk"] as? NSNumber)?.stringValue }
    #expect(ids.count == 100)
    #expect(
      next.url == "https://flatfox.ch/api/v1/public-listing/?expand=cover_image&limit=0&"
        + ids.map { "pk=\($0)" }.joined(separator: "&"))
    #expect(next.mode == "listings")
    #expect(next.city == "zurich")

    let listings = try site.listings(
      from: SourceResponse(
        request: next, body: try Fixtures.bytes("flatfox/flatfox-listings-1.json"),
        receivedAt: Date(timeIntervalSince1970: 1_787_400_000)))
    #expect(listings.listings.count == 100)
    #expect(listings.followUps.isEmpty)
    #expect(Set(listings.listings.map(\.id)).isSubset(of: Set(ids)))
  }
}
