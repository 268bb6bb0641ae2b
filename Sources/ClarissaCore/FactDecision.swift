/// How one fact filter judged a listing, for `explain`: the fact, the listing's value (nil when
/// it lacks it) and whether it passed.
public struct FactDecision: Sendable, Equatable {
  /// Which filter.
  public enum Fact: Sendable, Equatable {
    case rooms, bedrooms, floorArea, pricePerArea
    /// `near`: the distance from each place (nil: no coordinates), in `near`'s order.
    case near([PlaceRadius], NearMode)
    /// `within`: the areas' names.
    case within([String])
    /// A `commute` limit, with the travel time in minutes (nil: no coordinates).
    case commute(CommuteLimit)
    /// A `commute` limit the listing is too far for in a straight line (the value: metres).
    case commuteBeyond(CommuteLimit)
    /// A `commute` limit no engine gave a time for (none configured, failed, capped): kept.
    case commuteUnknown(CommuteLimit, note: String?)
  }

  /// The filter.
  public var fact: Fact
  /// The listing's value (rooms, m², price per unit area; for `near` the distances, for
  /// `within` 1 inside and 0 outside); nil when unknown.
  public var values: [Double]?
  /// The bounds, for the ranged facts.
  public var range: FactRange?
  /// Whether the listing passed (an unknown fact passes with `missing: keep`).
  public var passed: Bool
  /// The search's `missing`, for an unknown fact's words.
  public var missing: MissingFacts
  /// The unit areas are written in, for floor area and price per area.
  public var unit: AreaUnit = .squareMetres

  /// As `explain` says it: "rooms 1.5 < min 2", "floor area unknown: kept (missing: keep)",
  /// "3.4 km from work > 3 km".
  public var words: String {
    guard let values else {
      let verdict = missing == .keep ? "kept (missing: keep)" : "dropped (missing: drop)"
      return "\(unknownName) unknown: \(verdict)"
    }
    switch fact {
    case .rooms: return ranged("rooms", values[0], digits: 1, suffix: "")
    case .bedrooms: return ranged("bedrooms", values[0], digits: 1, suffix: "")
    case .floorArea:
      return ranged(
        "floor area", values[0] / unit.squareMetres, digits: 1, suffix: " \(unit.symbol)")
    case .pricePerArea: return ranged("price per \(unit.symbol)", values[0], digits: 2, suffix: "")
    case .near(let places, let mode):
      let each = zip(places, values).map { place, metres in
        let distance = Distance(metres: metres)
        let unit = place.place.unit
        let sign = distance <= place.radius ? "≤" : ">"
        let (shown, radius) = distance.words(in: unit, apartFrom: place.radius)
        return "\(shown) from \(place.place.name) \(sign) \(radius)"
      }
      return each.joined(separator: mode == .all ? ", " : " or ")
    case .within(let names):
      let list = names.joined(separator: " or ")
      return values[0] > 0 ? "inside \(list)" : "outside \(list)"
    case .commute(let limit):
      let time = CommuteTime(place: limit.place.name, by: limit.mode, minutes: values[0])
      let shown = time.shownMinutes ?? 0
      let max = Self.minutes(limit.maxMinutes)
      // Whole minutes as shown; a time over the limit by less than a minute says its seconds.
      let over = values[0] > limit.maxMinutes
      let words =
        over && Double(shown) <= limit.maxMinutes
        ? "\(ListingFacts.number(values[0], digits: 1)) min by \(limit.mode.rawValue) to "
          + limit.place.name
        : time.words
      return "\(words) \(over ? ">" : "≤") \(max)"
    case .commuteBeyond(let limit):
      let straight = Distance(metres: values[0]).words(in: limit.place.unit)
      let reach = limit.reach.words(in: limit.place.unit)
      return "\(straight) from \(limit.place.name) in a straight line > \(reach), the most "
        + "\(limit.mode.rawValue) covers in \(Self.minutes(limit.maxMinutes)) "
        + "(\(ListingFacts.number(limit.mode.topSpeed, digits: 0)) km/h)"
    case .commuteUnknown(let limit, let note):
      return "travel time to \(limit.place.name) by \(limit.mode.rawValue) unknown"
        + (note.map { " (\($0))" } ?? "") + ": kept"
    }
  }

  /// "30 min", "1.5 min".
  private static func minutes(_ value: Double) -> String {
    "\(ListingFacts.number(value, digits: 1)) min"
  }

  private var unknownName: String {
    switch fact {
    case .rooms: "rooms"
    case .bedrooms: "bedrooms"
    case .floorArea: "floor area"
    case .pricePerArea: "price per \(unit.symbol)"
    case .near(let places, _):
      "distance from \(places.map(\.place.name).joined(separator: ", ")) (no coordinates)"
    case .within(let names): "place in \(names.joined(separator: " or ")) (no coordinates)"
    case .commute(let limit), .commuteBeyond(let limit), .commuteUnknown(let limit, _):
      "travel time to \(limit.place.name) by \(limit.mode.rawValue) (no coordinates)"
    }
  }

  /// "rooms 1.5 < min 2", "rooms 3 ≥ min 2", "rooms 3 in 2-4"; a value outside its bound is
  /// shown with the digits that tell them apart ("49.99 m² < min 50 m²", not "50 < 50"). A
  /// listing given as a range (two values) meets the bounds when some of it is within:
  /// "rooms 2–4 meets min 3".
  private func ranged(_ name: String, _ value: Double, digits: Int, suffix: String) -> String {
    if let values, values.count == 2 {
      let scale = fact == .floorArea ? unit.squareMetres : 1
      let shown = { (number: Double) in ListingFacts.number(number / scale, digits: digits) }
      let bounds = [range?.min.map { "min \(shown($0))" }, range?.max.map { "max \(shown($0))" }]
        .compactMap { $0 }.joined(separator: " ")
      return "\(name) \(shown(values[0]))–\(shown(values[1]))\(suffix) "
        + "\(passed ? "meets" : "misses") \(bounds)\(bounds.isEmpty ? "" : suffix)"
    }
    let shown = ListingFacts.number(value, digits: digits) + suffix
    let scale = fact == .floorArea ? unit.squareMetres : 1
    func bound(_ number: Double) -> String {
      ListingFacts.number(number / scale, digits: digits) + suffix
    }
    func outside(_ sign: String, _ bound: Double) -> String {
      let telling = ListingFacts.digits(telling: value, from: bound / scale, atLeast: digits)
      return "\(name) \(ListingFacts.number(value, digits: telling))\(suffix) \(sign) "
        + "\(ListingFacts.number(bound / scale, digits: telling))\(suffix)"
    }
    let low = range?.min
    let high = range?.max
    if let low, value * scale < low { return outside("< min", low) }
    if let high, value * scale > high { return outside("> max", high) }
    switch (low, high) {
    case (let low?, let high?): return "\(name) \(shown) within \(bound(low))-\(bound(high))"
    case (let low?, nil): return "\(name) \(shown) ≥ min \(bound(low))"
    case (nil, let high?): return "\(name) \(shown) ≤ max \(bound(high))"
    default: return "\(name) \(shown)"
    }
  }
}
