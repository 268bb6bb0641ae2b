import Channels
import ClarissaCore
import ClarissaEngine
import Foundation
import Geography
import Testing

/// Given searches with fact and place filters, when listings with and without those facts are
/// judged, then each is kept or dropped as the bounds and `missing` say, and the reason names
/// the fact that decided or was unknown.
@Suite struct FactFilterTests {
  static let work = NamedPlace(
    name: "work", coordinates: Coordinates(latitude: 52.520, longitude: 13.405))
  static let gym = NamedPlace(
    name: "gym", coordinates: Coordinates(latitude: 52.500, longitude: 13.300), unit: .miles)

  static func listing(
    rooms: Double? = nil, bedrooms: Double? = nil, squareMetres: Double? = nil,
    price: Double? = 1_000, at place: (Double, Double)? = nil
  ) -> Listing {
    var listing = Listing(
      id: "1", site: "test", url: "https://example.com/1", title: "Flat", price: price,
      coordinates: place.map { Coordinates(latitude: $0.0, longitude: $0.1) })
    listing.rooms = rooms
    listing.bedrooms = bedrooms
    listing.floorArea = squareMetres
    return listing
  }

  static func search(_ change: (inout FactFilters) -> Void) -> Search {
    var search = Search(name: "flats", site: "test")
    change(&search.facts)
    return search
  }

  static func verdict(_ listing: Listing, _ search: Search) -> (Bool, String) {
    let (accepted, reason) = ListingFilter.verdict(listing, for: search)
    return (accepted, reason)
  }

  @Test func roomsDecideAndAreNamed() {
    let search = Self.search { $0.rooms = FactRange(min: 2, max: 3.5) }
    #expect(Self.verdict(Self.listing(rooms: 1.5), search) == (false, "rooms 1.5 < min 2"))
    #expect(Self.verdict(Self.listing(rooms: 4), search) == (false, "rooms 4 > max 3.5"))
    #expect(
      Self.verdict(Self.listing(rooms: 2.5), search)
        == (true, "no inclusive filter; rooms 2.5 within 2-3.5"))
    #expect(
      Self.verdict(Self.listing(), search)
        == (true, "no inclusive filter; rooms unknown: kept (missing: keep)"))
  }

  @Test func missingDropDropsAListingWithoutTheFact() {
    let search = Self.search {
      $0.bedrooms = FactRange(min: 1)
      $0.missing = .drop
    }
    #expect(
      Self.verdict(Self.listing(), search) == (false, "bedrooms unknown: dropped (missing: drop)"))
    #expect(
      Self.verdict(Self.listing(bedrooms: 1), search)
        == (true, "no inclusive filter; bedrooms 1 ≥ min 1"))
  }

  @Test func floorAreaIsComparedInSquareMetresAndWordedInTheUnitWritten() {
    let feet = AreaUnit.squareFeet.squareMetres
    let search = Self.search {
      $0.floorArea = FactRange(min: 600 * feet)
      $0.floorAreaUnit = .squareFeet
    }
    // 50 m² is 538.2 ft².
    #expect(
      Self.verdict(Self.listing(squareMetres: 50), search)
        == (false, "floor area 538.2 ft² < min 600 ft²"))
    #expect(Self.verdict(Self.listing(squareMetres: 60), search).0)
    let metres = Self.search { $0.floorArea = FactRange(min: 50) }
    #expect(
      Self.verdict(Self.listing(squareMetres: 49.5), metres)
        == (false, "floor area 49.5 m² < min 50 m²"))
  }

  /// A value just outside its bound is shown with the digits that decided, never "50 < 50".
  @Test func aValueJustOutsideItsBoundIsShownWithTheDigitsThatDecided() {
    let metres = Self.search {
      $0.floorArea = FactRange(min: 50, max: 80)
      $0.rooms = FactRange(max: 2)
    }
    #expect(
      Self.verdict(Self.listing(squareMetres: 49.99), metres)
        == (false, "floor area 49.99 m² < min 50 m²"))
    #expect(
      Self.verdict(Self.listing(squareMetres: 80.004), metres)
        == (false, "floor area 80.004 m² > max 80 m²"))
    #expect(
      Self.verdict(Self.listing(rooms: 2.01), metres) == (false, "rooms 2.01 > max 2"))
  }

  @Test func pricePerAreaNeedsBothThePriceAndTheArea() {
    let search = Self.search { $0.pricePerArea = FactRange(max: 20) }
    #expect(
      Self.verdict(Self.listing(squareMetres: 40, price: 1_000), search)
        == (false, "price per m² 25 > max 20"))
    #expect(Self.verdict(Self.listing(squareMetres: 50, price: 1_000), search).0)
    #expect(
      Self.verdict(Self.listing(squareMetres: 50, price: nil), search)
        == (true, "no inclusive filter; price per m² unknown: kept (missing: keep)"))
    let perFoot = Self.search {
      $0.pricePerArea = FactRange(max: 2)
      $0.pricePerAreaUnit = .squareFeet
    }
    // 1,000 for 50 m² (538.2 ft²) is 1.86 per ft².
    #expect(
      Self.verdict(Self.listing(squareMetres: 50), perFoot)
        == (true, "no inclusive filter; price per ft² 1.86 ≤ max 2"))
  }

  @Test func nearTakesAllPlacesOrAny() {
    // Potsdamer Platz: 2.3 km from work, 5.2 km (3.3 mi) from the gym.
    let here = (52.5096, 13.3759)
    var all = Self.search {
      $0.near = [
        PlaceRadius(place: Self.work, radius: Distance(3, .kilometres)),
        PlaceRadius(place: Self.gym, radius: Distance(2, .miles)),
      ]
    }
    #expect(
      Self.verdict(Self.listing(at: here), all)
        == (false, "2.3 km from work ≤ 3 km, 3.3 mi from gym > 2 mi"))
    all.facts.nearMode = .any
    #expect(
      Self.verdict(Self.listing(at: here), all)
        == (true, "no inclusive filter; 2.3 km from work ≤ 3 km or 3.3 mi from gym > 2 mi"))
    #expect(
      Self.verdict(Self.listing(), all)
        == (
          true,
          "no inclusive filter; distance from work, gym (no coordinates) unknown: kept (missing: keep)"
        ))
  }

  /// A distance just past its radius is shown with the digits that decided: 800.6 m is
  /// "801 m > 800 m", not "800 m > 800 m" (under a kilometre, distances are rounded to 10 m),
  /// 3,040 m "3.04 km > 3 km".
  @Test func aDistanceJustPastItsRadiusIsShownWithTheDigitsThatDecided() {
    let search = Self.search {
      $0.near = [PlaceRadius(place: Self.work, radius: Distance(800, .metres))]
    }
    // 0.0072° of latitude north of work: 800.6 m.
    #expect(
      Self.verdict(Self.listing(at: (52.5272, 13.405)), search)
        == (false, "801 m from work > 800 m"))
    let far = Self.search {
      $0.near = [PlaceRadius(place: Self.work, radius: Distance(3, .kilometres))]
    }
    // 0.02734° north: 3,040 m.
    #expect(
      Self.verdict(Self.listing(at: (52.54734, 13.405)), far)
        == (false, "3.04 km from work > 3 km"))
  }

  @Test func withinKeepsWhatIsInsideOneOfTheAreas() {
    let square = GeoArea(
      name: "areas/mitte.geojson",
      polygons: [
        GeoArea.Polygon(rings: [
          [(52.50, 13.38), (52.50, 13.42), (52.53, 13.42), (52.53, 13.38)].map {
            Coordinates(latitude: $0.0, longitude: $0.1)
          }
        ])
      ])
    let search = Self.search { $0.within = [square] }
    #expect(
      Self.verdict(Self.listing(at: (52.52, 13.40)), search)
        == (true, "no inclusive filter; inside areas/mitte.geojson"))
    #expect(
      Self.verdict(Self.listing(at: (52.49, 13.40)), search)
        == (false, "outside areas/mitte.geojson"))
  }

  @Test func thePriceAndTheTextFiltersStillDecideFirst() throws {
    var search = Self.search { $0.rooms = FactRange(min: 2) }
    search.price = PriceRange(max: 500)
    #expect(Self.verdict(Self.listing(rooms: 1), search) == (false, "price 1000 outside …-500"))
    search.price = nil
    search.filters = [try Filter(.exclude, pattern: "flat")]
    #expect(Self.verdict(Self.listing(rooms: 3), search).0 == false)
    #expect(FactFilters().isEmpty)
  }

  @Test func distancesAreWordedForEachPlace() {
    let listing = Self.listing(rooms: 2, squareMetres: 50, at: (52.5096, 13.3759))
    #expect(
      ListingFacts.distances(listing, from: [Self.work, Self.gym])
        == "2.3 km from work · 3.3 mi from gym")
    #expect(
      ListingFacts.line(listing, places: [Self.work]) == "2 rooms · 50 m² · 2.3 km from work")
    #expect(ListingFacts.distances(Self.listing(), from: [Self.work]) == nil)
    #expect(ListingFacts.distances(listing, from: []) == nil)
  }

  @Test func messagesCarryTheFactsAndDistances() throws {
    let listing = Self.listing(rooms: 2, squareMetres: 50, at: (52.5096, 13.3759))
    var search = Search(name: "flats", site: "test")
    search.places = [Self.work]
    let each = Channel(name: "phone", kind: .ntfy, url: "ntfy://flats")
    let one = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: each).first)
    #expect(
      one.message.body.contains("2 rooms · 50 m² · 2.3 km from work\n"), "\(one.message.body)")
    let digest = Channel(name: "mail", kind: .ntfy, url: "ntfy://flats", grouping: .digest)
    let both = try #require(
      MessageTemplate.messages(for: [listing, Self.listing()], search: search, channel: digest)
        .first)
    #expect(
      both.message.body.hasPrefix(
        "• Flat — 1,000\n  2 rooms · 50 m² · 2.3 km from work\n  https://"), "\(both.message.body)"
    )
    #expect(!both.message.body.contains("\n  \n"), "no empty line for a listing without facts")
    var written = each
    written.bodyTemplate = "{facts} / {distances}"
    let custom = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: written).first)
    #expect(custom.message.body == "2 rooms · 50 m² / 2.3 km from work")
    // A search filtering on square feet shows them in square feet.
    search.facts.floorArea = FactRange(min: 40)
    search.facts.floorAreaUnit = .squareFeet
    let feet = try #require(
      MessageTemplate.messages(for: [listing], search: search, channel: written).first)
    #expect(feet.message.body == "2 rooms · 538 ft² / 2.3 km from work")
    #expect(ListingFacts.line(listing, for: search) == "2 rooms · 538 ft² · 2.3 km from work")
  }
}
