package import ClarissaCore
internal import Foundation

/// Whether two listings on different sites describe the same flat (cross-site folding): the
/// same place, and the facts both give agree.
///
/// Both must have coordinates no more than ``maxDistance`` apart; at least two of rooms, floor
/// area and price must be given by both, and every one both give must agree:
/// - rooms: equal (within 0.01: "2,5 Zi." is 2.5 on either site);
/// - floor area: within 1 m² or 3 %, whichever is more. Sites round differently: one gives
///   whole square metres (ImmoScout24's "65 m²"), another decimals (Kleinanzeigen's
///   "64,5 m²"), and posters measure the same flat a little differently on each;
/// - price: within 2 % and in the same currency. The same rent is written 1.199 on one site
///   and 1.200 on another, or with or without a small fee rounded in; a flat whose price
///   differs by more is a different offer.
///
/// 150 m, because a pin is the building's on one site and an approximate point (the street,
/// the address's centre, a geocoded postcode street) on another; two flats of one building
/// that agree on rooms, area and price are one offer for the flat hunter either way.
/// A listing without coordinates (a site that gives only a district) folds with a listing of
/// another site by a photo instead (``matchesByPhoto(_:_:hashes:stock:)``): the same photo
/// (hashes within 5 bits, ``PhotoMatch``; not a stock photo), the price within 2 % and the
/// rooms or the floor area agreeing. Listings of the same site are never the same flat here
/// (reposts on one site are ``Fingerprint``'s).
package enum SameFlat {
  /// The farthest apart two pins of one flat may be.
  package static let maxDistance = Distance(metres: 150)
  /// The largest difference in rooms that is none.
  package static let roomsTolerance = 0.01
  /// The smallest floor-area difference always allowed, in m².
  package static let areaTolerance = 1.0
  /// The floor-area difference allowed, as a fraction of the larger area.
  package static let areaFraction = 0.03
  /// The price difference allowed, as a fraction of the larger price.
  package static let priceFraction = 0.02

  /// Whether `a` and `b` are the same flat on two sites.
  package static func matches(_ a: Listing, _ b: Listing) -> Bool {
    guard a.site != b.site, let here = a.coordinates, let there = b.coordinates,
      here.distance(to: there) <= maxDistance
    else { return false }
    guard var compared = roomsAndAreaAgreeing(a, b) else { return false }
    if let x = a.price, let y = b.price {
      guard a.currency == b.currency, abs(x - y) <= priceFraction * max(x, y) else {
        return false
      }
      compared += 1
    }
    return compared >= 2
  }

  /// How many of rooms and floor area both give, nil when one of those disagrees: rooms within
  /// ``roomsTolerance``, floor areas within ``areaTolerance`` or ``areaFraction``.
  static func roomsAndAreaAgreeing(_ a: Listing, _ b: Listing) -> Int? {
    var compared = 0
    if let x = a.rooms, let y = b.rooms {
      guard abs(x - y) < roomsTolerance else { return nil }
      compared += 1
    }
    if let x = a.floorArea, let y = b.floorArea {
      guard abs(x - y) <= max(areaTolerance, areaFraction * max(x, y)) else { return nil }
      compared += 1
    }
    return compared
  }

  /// Whether `a` and `b`, one of them without coordinates, are the same flat on two sites by
  /// a photo: they share a photo (``ListingPhoto/same(as:)`` on the photos' `hashes`, by
  /// address) that is not in `stock`, both give a price and it agrees (within 2 %, one
  /// currency), and both give the rooms or the floor area, and every one of those both give
  /// agrees. A photo alone is not enough: a landlord's flats of one building share pictures of
  /// the house and the stairs, at other prices or sizes.
  package static func matchesByPhoto(
    _ a: Listing, _ b: Listing, hashes: [String: UInt64], stock: Set<String>
  ) -> Bool {
    guard a.site != b.site, a.coordinates == nil || b.coordinates == nil,
      let x = a.price, let y = b.price, a.currency == b.currency,
      abs(x - y) <= priceFraction * max(x, y)
    else { return false }
    guard let compared = roomsAndAreaAgreeing(a, b), compared >= 1 else { return false }
    let mine = Fingerprint.Item(a, hashes: hashes)
    return mine.sharedPhoto(Fingerprint.Item(b, hashes: hashes), stock: stock) != nil
  }

  /// The box of latitudes and longitudes around `point` that holds every point within
  /// ``maxDistance`` (a little more): what the store's candidates are searched in.
  package static func box(around point: Coordinates) -> (
    latitudes: ClosedRange<Double>, longitudes: ClosedRange<Double>
  ) {
    let latitude = 0.0015
    // A degree of longitude shrinks with the cosine of the latitude; near the poles the box
    // takes every longitude rather than divide by nearly nothing.
    let cosine = cos(point.latitude * .pi / 180)
    let longitude = cosine > 0.01 ? min(180, latitude / cosine) : 180
    return (
      (point.latitude - latitude)...(point.latitude + latitude),
      (point.longitude - longitude)...(point.longitude + longitude)
    )
  }
}
