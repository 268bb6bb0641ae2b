extension FactFilters {
  /// Whether `listing` passes every fact and place filter (stopping at the first that drops
  /// it).
  public func accepts(_ listing: Listing) -> Bool {
    var none: [FactDecision]? = nil
    return check(listing, recording: &none)
  }

  /// Every filter's decision on `listing`, in the order they are applied (rooms, bedrooms,
  /// floor area, price per area, near, within, commute), up to the first that drops it.
  public func decisions(_ listing: Listing) -> (accepted: Bool, decisions: [FactDecision]) {
    var decisions: [FactDecision]? = []
    let accepted = check(listing, recording: &decisions)
    return (accepted, decisions ?? [])
  }

  /// Applies the filters in order; records each decision when `decisions` is not nil.
  private func check(_ listing: Listing, recording decisions: inout [FactDecision]?) -> Bool {
    // The values are made only when the decision is recorded (for `explain`).
    func decide(
      _ fact: @autoclosure () -> FactDecision.Fact, known: Bool,
      _ values: @autoclosure () -> [Double]?,
      range: FactRange? = nil, unit: AreaUnit = .squareMetres, passed: Bool
    ) -> Bool {
      let passed = known ? passed : missing == .keep
      if decisions != nil {
        decisions?.append(
          FactDecision(
            fact: fact(), values: known ? values() : nil, range: range, passed: passed,
            missing: missing, unit: unit))
      }
      return passed
    }
    // One after the other, not from a list: this runs for every listing of every answer.
    if let rooms,
      !decide(
        .rooms, known: listing.rooms != nil,
        listing.rooms.map { [$0] + [listing.roomsHigh].compactMap { $0 } },
        range: rooms, passed: listing.rooms.map { rooms.overlaps($0, listing.roomsHigh) } ?? false)
    {
      return false
    }
    if let bedrooms,
      !decide(
        .bedrooms, known: listing.bedrooms != nil, listing.bedrooms.map { [$0] }, range: bedrooms,
        passed: listing.bedrooms.map(bedrooms.contains) ?? false)
    {
      return false
    }
    if let floorArea,
      !decide(
        .floorArea, known: listing.floorArea != nil,
        listing.floorArea.map { [$0] + [listing.floorAreaHigh].compactMap { $0 } },
        range: floorArea, unit: floorAreaUnit,
        passed: listing.floorArea.map { floorArea.overlaps($0, listing.floorAreaHigh) } ?? false)
    {
      return false
    }
    if let pricePerArea {
      let value = price(per: listing)
      if !decide(
        .pricePerArea, known: value != nil, value.map { [$0] }, range: pricePerArea,
        unit: pricePerAreaUnit,
        passed: value.map(pricePerArea.contains) ?? false)
      {
        return false
      }
    }
    if !near.isEmpty {
      let here = listing.coordinates
      var passed = nearMode == .all
      for entry in near {
        guard let here else { break }
        let close = entry.place.coordinates.distance(to: here) <= entry.radius
        if close != passed {
          passed = close
          break
        }
      }
      if !decide(
        .near(near, nearMode), known: here != nil,
        here.map { here in near.map { $0.place.coordinates.distance(to: here).metres } },
        passed: passed)
      {
        return false
      }
    }
    if !within.isEmpty {
      let inside = listing.coordinates.map { here in within.contains { $0.contains(here) } }
      if !decide(
        .within(within.map(\.name)), known: inside != nil, inside.map { [$0 ? 1 : 0] },
        passed: inside ?? false)
      {
        return false
      }
    }
    return commute.isEmpty || checkCommute(listing, recording: &decisions)
  }

  /// `commute`: every limit must hold. A known time is compared with `max`; a listing farther
  /// in a straight line than the mode's reach (``CommuteLimit/reach``) is dropped without a
  /// time; one without coordinates follows `missing`; one with coordinates whose time no engine
  /// gave (none configured, failed, capped) is kept: nothing says it is too far, and nothing is
  /// guessed.
  private func checkCommute(_ listing: Listing, recording decisions: inout [FactDecision]?)
    -> Bool
  {
    for limit in commute {
      let time = listing.commute.first { $0.place == limit.place.name && $0.by == limit.mode }
      let decision: FactDecision
      if let minutes = time?.minutes {
        decision = FactDecision(
          fact: .commute(limit), values: [minutes], passed: minutes <= limit.maxMinutes,
          missing: missing)
      } else if let here = listing.coordinates {
        let straight = limit.place.coordinates.distance(to: here)
        decision =
          straight > limit.reach
          ? FactDecision(
            fact: .commuteBeyond(limit), values: [straight.metres], passed: false,
            missing: missing)
          : FactDecision(
            fact: .commuteUnknown(limit, note: time?.note), values: [], passed: true,
            missing: missing)
      } else {
        decision = FactDecision(
          fact: .commute(limit), values: nil, passed: missing == .keep, missing: missing)
      }
      decisions?.append(decision)
      if !decision.passed { return false }
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
