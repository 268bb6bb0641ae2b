extension FactFilters {
  /// Whether `listing` passes every fact and place filter (stopping at the first that drops
  /// it).
  public func accepts(_ listing: Listing) -> Bool {
    var none: [FactDecision]? = nil
    return check(listing, recording: &none)
  }

  /// Every filter's decision on `listing`, in the order they are applied (rooms, bedrooms,
  /// floor area, price per area, near, within), up to the first that drops it.
  public func decisions(_ listing: Listing) -> (accepted: Bool, decisions: [FactDecision]) {
    var decisions: [FactDecision]? = []
    let accepted = check(listing, recording: &decisions)
    return (accepted, decisions ?? [])
  }

  /// Applies the filters in order; records each decision when `decisions` is not nil.
  private func check(_ listing: Listing, recording decisions: inout [FactDecision]?) -> Bool {
    func decide(
      _ fact: FactDecision.Fact, _ values: [Double]?, range: FactRange? = nil,
      unit: AreaUnit = .squareMetres, passed: Bool
    ) -> Bool {
      let passed = values == nil ? missing == .keep : passed
      decisions?.append(
        FactDecision(
          fact: fact, values: values, range: range, passed: passed, missing: missing, unit: unit))
      return passed
    }
    let ranged: [(FactDecision.Fact, FactRange?, Double?, AreaUnit)] = [
      (.rooms, rooms, listing.rooms, .squareMetres),
      (.bedrooms, bedrooms, listing.bedrooms, .squareMetres),
      (.floorArea, floorArea, listing.floorArea, floorAreaUnit),
      (
        .pricePerArea, pricePerArea, pricePerArea == nil ? nil : price(per: listing),
        pricePerAreaUnit
      ),
    ]
    for (fact, range, value, unit) in ranged {
      guard let range else { continue }
      let passed = value.map(range.contains) ?? false
      if !decide(fact, value.map { [$0] }, range: range, unit: unit, passed: passed) {
        return false
      }
    }
    if !near.isEmpty {
      let distances = listing.coordinates.map { here in
        near.map { $0.place.coordinates.distance(to: here).metres }
      }
      let within = zip(near, distances ?? []).map { $1 <= $0.radius.metres }
      let passed = nearMode == .all ? !within.contains(false) : within.contains(true)
      if !decide(.near(near, nearMode), distances, passed: passed) { return false }
    }
    if !within.isEmpty {
      let inside = listing.coordinates.map { here in within.contains { $0.contains(here) } }
      let values = inside.map { [$0 ? 1.0 : 0] }
      if !decide(.within(within.map(\.name)), values, passed: inside ?? false) { return false }
    }
    return true
  }

  /// The listing's price per one ``pricePerAreaUnit`` of floor area; nil without a price or a
  /// floor area above zero.
  func price(per listing: Listing) -> Double? {
    guard let price = listing.price, let area = listing.floorArea, area > 0 else { return nil }
    return price / (area / pricePerAreaUnit.squareMetres)
  }
}
