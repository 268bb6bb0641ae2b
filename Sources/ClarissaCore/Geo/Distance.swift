internal import Foundation

/// A length on the ground, in metres.
public struct Distance: Sendable, Equatable, Comparable {
  /// Metres.
  public var metres: Double

  /// Creates a distance of `metres`.
  public init(metres: Double) {
    self.metres = metres
  }

  /// `value` in `unit`.
  public init(_ value: Double, _ unit: DistanceUnit) {
    metres = value * unit.metres
  }

  /// The distance in `unit`.
  public func value(in unit: DistanceUnit) -> Double { metres / unit.metres }

  /// As people read it, in `unit`: "2.1 km", "850 m" (under a kilometre, to 10 m), "1.3 mi".
  public func words(in unit: DistanceUnit) -> String {
    if unit == .kilometres, metres < 1_000 {
      return "\(ListingFacts.number((metres / 10).rounded() * 10, digits: 0)) m"
    }
    let digits = unit == .metres ? 0 : 1
    return "\(ListingFacts.number(value(in: unit), digits: digits)) \(unit.rawValue)"
  }

  /// `self` and `other` in words, with the digits that tell them apart when they differ
  /// ("3.04 km" and "3 km", "803 m" and "800 m"; not "3 km" twice).
  public func words(in unit: DistanceUnit, apartFrom other: Distance) -> (String, String) {
    let (mine, theirs) = (words(in: unit), other.words(in: unit))
    guard mine == theirs, self != other else { return (mine, theirs) }
    let shown: DistanceUnit = unit == .kilometres && metres < 1_000 ? .metres : unit
    let (a, b) = (value(in: shown), other.value(in: shown))
    let digits = ListingFacts.digits(telling: a, from: b, atLeast: 0)
    return (
      "\(ListingFacts.number(a, digits: digits)) \(shown.rawValue)",
      "\(ListingFacts.number(b, digits: digits)) \(shown.rawValue)"
    )
  }

  public static func < (left: Distance, right: Distance) -> Bool { left.metres < right.metres }
}

/// A unit a config writes distances in.
public enum DistanceUnit: String, Sendable, CaseIterable {
  /// Kilometres.
  case kilometres = "km"
  /// Metres.
  case metres = "m"
  /// Statute miles.
  case miles = "mi"

  /// Metres in one of this unit.
  public var metres: Double {
    switch self {
    case .kilometres: 1_000
    case .metres: 1
    case .miles: 1_609.344
    }
  }
}

extension Coordinates {
  /// The mean radius of the Earth (IUGG's R1 of the WGS-84 ellipsoid), in metres.
  public static let earthRadius = 6_371_008.8

  /// The great-circle distance to `other` on a sphere of ``earthRadius`` (the haversine
  /// formula): within 0.5 % of the ellipsoid's geodesic (0.22 % for New York - Los Angeles).
  public func distance(to other: Coordinates) -> Distance {
    let radians = Double.pi / 180
    let phi1 = latitude * radians
    let phi2 = other.latitude * radians
    let halfDeltaPhi = (phi2 - phi1) / 2
    let halfDeltaLambda = (other.longitude - longitude) * radians / 2
    let sinPhi = sin(halfDeltaPhi)
    let sinLambda = sin(halfDeltaLambda)
    let h = sinPhi * sinPhi + cos(phi1) * cos(phi2) * sinLambda * sinLambda
    // Rounding may push h a hair past 1 for antipodes.
    return Distance(metres: 2 * Self.earthRadius * asin(min(1, sqrt(h))))
  }

  /// Whether both are numbers within the globe: latitude -90...90, longitude -180...180.
  public var isOnGlobe: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }
}
