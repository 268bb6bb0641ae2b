internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation

/// The fact and place filters over 100,000 flats around Berlin (rooms, floor area, price per
/// area, near two places, within a 1,000-corner polygon with two holes), each beside the price
/// range alone measured in the same run.
struct FactFilterBenchmark {
  func run() {
    print("\nFact and place filters (100,000 listings)")
    let listings = Self.listings(100_000)
    let work = NamedPlace(
      name: "work", coordinates: Coordinates(latitude: 52.520, longitude: 13.405))
    let gym = NamedPlace(name: "gym", coordinates: Coordinates(latitude: 52.499, longitude: 13.418))
    let area = Self.district()
    let price = PriceRange(max: 1_500)
    let cases: [(String, (inout FactFilters) -> Void)] = [
      ("price range alone (the reference)", { _ in }),
      ("rooms {min: 2, max: 4}", { $0.rooms = FactRange(min: 2, max: 4) }),
      ("floor_area {min: 50 m2}", { $0.floorArea = FactRange(min: 50) }),
      ("price_per_area {max: 20}", { $0.pricePerArea = FactRange(max: 20) }),
      (
        "near {work: 5 km, gym: 3 km}",
        {
          $0.near = [
            PlaceRadius(place: work, radius: Distance(5, .kilometres)),
            PlaceRadius(place: gym, radius: Distance(3, .kilometres)),
          ]
        }
      ),
      ("within (\(area.vertexCount) corners, 2 holes)", { $0.within = [area] }),
      (
        "all of them",
        {
          $0.rooms = FactRange(min: 2, max: 4)
          $0.floorArea = FactRange(min: 50)
          $0.pricePerArea = FactRange(max: 20)
          $0.near = [
            PlaceRadius(place: work, radius: Distance(5, .kilometres)),
            PlaceRadius(place: gym, radius: Distance(3, .kilometres)),
          ]
          $0.within = [area]
        }
      ),
    ]
    // A first pass over the listings, so that the reference does not pay for touching them.
    _ = listings.reduce(0) { $0 + ($1.price ?? 0 > 1_500 ? 1 : 0) }
    var reference = 0.0
    for (name, change) in cases {
      var search = Search(name: "bench", site: "bench", price: price)
      change(&search.facts)
      var kept = 0
      let time = Bench.measure(runs: 9) { () -> Int in
        kept = listings.reduce(0) { $0 + (ListingFilter.accepts($1, for: search) ? 1 : 0) }
        return kept
      }
      if reference == 0 { reference = time }
      let ratio = reference > 0 ? String(format: " (%.1fx the reference)", time / reference) : ""
      print("  \(name): \(kept) kept in \(Bench.format(time)) ms\(ratio)")
      if name == "all of them" {
        let explained = Bench.measure(runs: 3) { () -> Int in
          listings.reduce(0) { $0 + ListingFilter.verdict($1, for: search).reason.utf8.count }
        }
        print("    with explain's words for each listing: \(Bench.format(explained)) ms")
      }
    }
  }

  /// Flats spread over 30 km around Berlin's centre; one in ten without rooms, one in eight
  /// without a floor area, one in twenty without coordinates.
  static func listings(_ count: Int) -> [Listing] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { index in
      var listing = Listing(
        id: String(index), site: "bench", url: "https://example.org/\(index)",
        title: "Flat \(index)", price: 400 + (next() * 2_000).rounded())
      if index % 10 != 0 { listing.rooms = (1 + next() * 10).rounded() / 2 }
      if index % 8 != 0 { listing.floorArea = 20 + (next() * 120).rounded() }
      if index % 20 != 0 {
        listing.coordinates = Coordinates(
          latitude: 52.52 + (next() - 0.5) * 0.27, longitude: 13.405 + (next() - 0.5) * 0.44)
      }
      return listing
    }
  }

  /// A wobbly ring of 1,000 corners around Kreuzberg with two square holes.
  static func district() -> GeoArea {
    let outer = (0...1_000).map { step -> Coordinates in
      let angle = Double(step % 1_000) / 1_000 * 2 * Double.pi
      let radius = 0.04 * (1 + 0.15 * sin(angle * 17))
      return Coordinates(
        latitude: 52.497 + radius * sin(angle), longitude: 13.403 + radius * 1.6 * cos(angle))
    }
    func square(_ latitude: Double, _ longitude: Double) -> [Coordinates] {
      [(0, 0), (0, 0.01), (0.006, 0.01), (0.006, 0), (0, 0)].map {
        Coordinates(latitude: latitude + $0.0, longitude: longitude + $0.1)
      }
    }
    return GeoArea(
      name: "kreuzberg",
      polygons: [
        GeoArea.Polygon(rings: [outer, square(52.49, 13.39), square(52.50, 13.42)])
      ])
  }
}
