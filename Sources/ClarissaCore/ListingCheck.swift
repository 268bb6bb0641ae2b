internal import Foundation

/// A listing as a site gave it, made fit to keep: its text through ``SafeText``, its long
/// fields cut to the ``Limits``, its numbers within what they can mean. Every listing passes
/// here once, where the run (and `inspect`) first reads it from a site, so that everything
/// after (the store, the terminal, the channels, the pages) holds checked values.
public enum ListingCheck {
  /// Prices beyond this are no price anyone asks (a misread number, a hostile feed).
  public static let largestPrice = 1e13
  /// Posted dates outside these are dropped: the years 1970 to 9999.
  public static let postedRange: ClosedRange<Double> = 0...253_402_300_799

  /// Rooms, bedrooms and bathrooms beyond this are no home anyone lists.
  public static let largestCount = 1_000.0
  /// Floor areas beyond this (square metres) are a misread number.
  public static let largestFloorArea = 10_000_000.0
  /// The other facts a listing keeps, at most.
  public static let mostFacts = 50

  /// A source's listings as the run keeps them: at most `limits.itemsPerSource`, each through
  /// ``ListingCheck``; with a note for each bound that bit.
  /// The listings are checked where they are: a listing the caller gave up is not copied.
  public static func answer(_ listings: consuming [Listing], limits: Limits) -> (
    [Listing], [String]
  ) {
    let (kept, notes, _) = answerNamingCuts(listings, limits: limits)
    return (kept, notes)
  }

  /// ``answer(_:limits:)``, with the ids of the listings it cut a field of.
  public static func answerNamingCuts(_ listings: consuming [Listing], limits: Limits) -> (
    [Listing], [String], cut: Set<String>
  ) {
    var notes: [String] = []
    var cutIDs = Set<String>()
    var kept = listings
    if kept.count > limits.itemsPerSource {
      notes.append(
        "the answer held \(CheckedNumber.grouped(kept.count)) listings; the first "
          + "\(CheckedNumber.grouped(limits.itemsPerSource)) were read (limits.items_per_source)")
      kept.removeSubrange(max(limits.itemsPerSource, 0)...)
    }
    var cuts: [String: Int] = [:]
    for index in kept.indices {
      var cut = check(&kept[index], limits: limits)
      if let html = kept[index].descriptionHTML {
        let bounded = Self.boundedHTML(html, limits: limits)
        if bounded.utf8.count < html.utf8.count { cut.append("description") }
        if bounded != html { kept[index].descriptionHTML = bounded }
      }
      for field in cut { cuts[field, default: 0] += 1 }
      if !cut.isEmpty { cutIDs.insert(kept[index].id) }
    }
    for (field, count) in cuts.sorted(by: { $0.key < $1.key }) {
      notes.append(
        "\(count) \(count == 1 ? "listing's" : "listings'") \(field) cut to the "
          + "limit (limits.\(field)_length)")
    }
    return (kept, notes, cutIDs)
  }

  /// `listing` checked; `cut` names the fields cut to their limits.
  public static func checked(_ listing: Listing, limits: Limits) -> (
    listing: Listing, cut: [String]
  ) {
    var checked = listing
    let cut = check(&checked, limits: limits)
    return (checked, cut)
  }

  /// Checks `checked` in place; returns the fields cut to their limits.
  private static func check(_ checked: inout Listing, limits: Limits) -> [String] {
    var cut: [String] = []
    // Each field named once, however many of its texts were cut (a place and an address).
    func bound(_ text: String, _ limit: Int, _ field: String) -> String {
      guard let shorter = SafeText.cut(text, to: limit) else { return text }
      if !cut.contains(field) { cut.append(field) }
      return shorter
    }
    checked.id = SafeText.line(checked.id)
    checked.url = SafeText.line(checked.url)
    checked.title = bound(SafeText.line(checked.title), limits.titleLength, "title")
    checked.description = bound(
      SafeText.lines(checked.description), limits.descriptionLength, "description")
    checked.location = checked.location.map {
      bound(SafeText.line($0), limits.placeLength, "place")
    }
    checked.area = checked.area.map(SafeText.line)
    checked.currency = checked.currency.map(SafeText.line)
    checked.category = checked.category.map(SafeText.line)
    // Rebuilt only when something changes: one array fewer a listing on the run's path.
    if checked.imageURLs.count > 50
      || checked.imageURLs.contains(where: { SafeText.needsCleaning($0, multiline: false) })
    {
      checked.imageURLs = checked.imageURLs.prefix(50).map(SafeText.line)
    }
    if let price = checked.price, !(price.isFinite && abs(price) <= largestPrice) {
      checked.price = nil
      checked.currency = nil
    }
    checked.priceHigh = top(checked.priceHigh, above: checked.price, largest: largestPrice)
    if let posted = checked.posted, !postedRange.contains(posted.timeIntervalSince1970) {
      checked.posted = nil
    }
    if let place = checked.coordinates,
      !((-90...90).contains(place.latitude) && (-180...180).contains(place.longitude))
    {
      checked.coordinates = nil
    }
    checkFacts(&checked, limits: limits, bound: bound)
    return cut
  }

  /// A range's top: kept when there is a bottom and it is above it, finite and within `largest`.
  private static func top(_ high: Double?, above low: Double?, largest: Double) -> Double? {
    guard let high, let low, high.isFinite, high > low, high <= largest else { return nil }
    return high
  }

  /// Rooms, areas, the postcode, the address and the other facts: numbers within what they can
  /// mean, texts made one line and bounded like a place, at most ``mostFacts`` other facts.
  private static func checkFacts(
    _ checked: inout Listing, limits: Limits, bound: (String, Int, String) -> String
  ) {
    func count(_ value: Double?) -> Double? {
      value.flatMap { $0.isFinite && $0 >= 0 && $0 <= largestCount ? $0 : nil }
    }
    checked.rooms = count(checked.rooms)
    checked.bedrooms = count(checked.bedrooms)
    checked.bathrooms = count(checked.bathrooms)
    checked.floorArea = checked.floorArea.flatMap {
      $0.isFinite && $0 > 0 && $0 <= largestFloorArea ? $0 : nil
    }
    checked.roomsHigh = top(checked.roomsHigh, above: checked.rooms, largest: largestCount)
    checked.floorAreaHigh = top(
      checked.floorAreaHigh, above: checked.floorArea, largest: largestFloorArea)
    func place(_ text: String?) -> String? {
      guard let line = text.map(SafeText.line), !line.isEmpty else { return nil }
      return bound(line, limits.placeLength, "place")
    }
    checked.postcode = place(checked.postcode)
    checked.address = place(checked.address)
    guard !checked.facts.isEmpty else { return }
    var facts: [String: String] = [:]
    for (name, text) in checked.facts.sorted(by: { $0.key < $1.key }) {
      guard facts.count < mostFacts else { break }
      let name = SafeText.line(name)
      let text = SafeText.line(text)
      guard !name.isEmpty, !text.isEmpty else { continue }
      facts[SafeText.cut(name, to: 60) ?? name] = SafeText.cut(text, to: limits.placeLength) ?? text
    }
    checked.facts = facts
  }

  /// `listing` with its text fields through ``SafeText`` and nothing cut: for what is shown of a
  /// listing read back from a store an older version wrote (or from any other source), at the
  /// last step before a terminal or a message.
  public static func shown(_ listing: Listing) -> Listing {
    var shown = listing
    shown.id = SafeText.line(listing.id)
    shown.url = SafeText.line(listing.url)
    shown.title = SafeText.line(listing.title)
    shown.description = SafeText.lines(listing.description)
    shown.location = listing.location.map(SafeText.line)
    shown.area = listing.area.map(SafeText.line)
    shown.currency = listing.currency.map(SafeText.line)
    shown.category = listing.category.map(SafeText.line)
    shown.alsoPostedAs = listing.alsoPostedAs?.map(SafeText.line)
    shown.postcode = listing.postcode.map(SafeText.line)
    shown.address = listing.address.map(SafeText.line)
    if !listing.facts.isEmpty {
      shown.facts = Dictionary(
        listing.facts.map { (SafeText.line($0.key), SafeText.line($0.value)) },
        uniquingKeysWith: { first, _ in first })
    }
    return shown
  }

  /// A pending description (HTML, made text later): bounded by bytes now, cleaned when made
  /// text (``resolved(_:limits:)``).
  public static func boundedHTML(_ html: String, limits: Limits) -> String {
    // Markup costs bytes that text does not: four times the text's bound is ample.
    let limit = limits.descriptionLength * 4
    guard html.utf8.count > limit else { return html }
    return String(decoding: html.utf8.prefix(limit), as: UTF8.self)
  }
}
