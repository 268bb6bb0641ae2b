package import ClarissaCore
internal import Foundation

/// A listing from one item's field values: id, title and URL required; URLs made absolute;
/// the price with its currency; a date read from ISO 8601 or seconds when no filter said how.
package struct ListingBuilder {
  package let definition: SiteDefinition
  package let pageURL: String

  package typealias Values = [FieldSpec.Name: [FieldValue]]

  /// The listing of one item: its fields' values, and its facts' by fact name.
  package func listing(_ values: Values, facts: [String: [FieldValue]] = [:])
    -> Result<Listing, ItemProblem>
  {
    guard let id = text(values, .id) else { return .failure(ItemProblem("no id")) }
    guard let title = text(values, .title) else {
      return .failure(ItemProblem("no title (id \(id))"))
    }
    guard let link = text(values, .url), let url = FilterRunner.absolute(link, base: pageURL)
    else { return .failure(ItemProblem("no URL (id \(id))")) }
    var listing = Listing(id: id, site: definition.id, url: url, title: title)
    listing.description = text(values, .description) ?? ""
    if let (price, high) = ranged(values[.price]?.first, price, top: \.amount) {
      listing.price = price.amount
      listing.priceHigh = high?.amount
      listing.currency = text(values, .currency) ?? price.currency ?? high?.currency
    }
    listing.posted = values[.posted]?.first.flatMap(date)
    listing.sellerSince = values[.sellerSince]?.first.flatMap(date)
    listing.location = text(values, .location)
    listing.area = text(values, .district)
    listing.category = text(values, .category)
    if let latitude = number(values, .latitude), let longitude = number(values, .longitude) {
      listing.coordinates = Coordinates(latitude: latitude, longitude: longitude)
    }
    describe(&listing, values, facts: facts)
    perArea(&listing, values)
    var seen = Set<String>()
    listing.imageURLs = (values[.images] ?? []).compactMap {
      FilterRunner.absolute($0.text, base: pageURL)
    }.filter { seen.insert($0).inserted }
    return .success(listing)
  }

  /// Rooms, areas, postcode, address and the other facts: each field's first value, counts and
  /// areas read from text with the site's decimal separator and `floor_area_unit`.
  private func describe(
    _ listing: inout Listing, _ values: Values, facts: [String: [FieldValue]]
  ) {
    if let (rooms, high) = ranged(values[.rooms]?.first, count, top: { $0 }) {
      listing.rooms = rooms
      listing.roomsHigh = high
    }
    listing.bedrooms = values[.bedrooms]?.first.flatMap(count)
    listing.bathrooms = values[.bathrooms]?.first.flatMap(count)
    if let (area, high) = ranged(values[.floorArea]?.first, floorArea, top: \.squareMetres) {
      listing.floorArea = area.squareMetres
      listing.floorAreaHigh = high?.squareMetres
      listing.floorAreaUnit = area.unit
    }
    listing.postcode = text(values, .postcode)
    listing.address = text(values, .address)
    for (name, found) in facts {
      if let text = found.first?.text, !text.isEmpty {
        listing.facts[name] = PageReader.collapsed(text)
      }
    }
  }

  /// A value read by `read`, and its top when the text gives a range ("505.900 - 999.900 €",
  /// "2 - 4"): both sides read, the top above the bottom; otherwise the value alone (its first
  /// figure), as before ranges were read.
  private func ranged<Figure>(
    _ value: FieldValue?, _ read: (FieldValue) -> Figure?, top: (Figure) -> Double
  ) -> (Figure, Figure?)? {
    guard let value else { return nil }
    if case .text(let text) = value, let sides = RangeText.sides(text),
      let low = read(.text(sides.low)), let high = read(.text(sides.high)), top(high) > top(low)
    {
      return (low, high)
    }
    return read(value).map { ($0, nil) }
  }

  private func count(_ value: FieldValue) -> Double? {
    switch value {
    case .number(let number), .price(let number, _): return FactText.count(number)
    case .text(let text): return FactText.count(text, decimal: definition.decimalSeparator)
    case .date: return nil
    }
  }

  private func floorArea(_ value: FieldValue) -> (squareMetres: Double, unit: AreaUnit)? {
    let unit = definition.floorAreaUnit
    switch value {
    case .number(let number), .price(let number, _):
      return FactText.area(number, in: unit).map { ($0, unit) }
    case .text(let text):
      return FactText.area(text, decimal: definition.decimalSeparator, unit: unit)
    case .date: return nil
    }
  }

  /// The field's first value (the rule for a path that finds several: `join` keeps them all),
  /// on one line except a description's.
  private func text(_ values: Values, _ name: FieldSpec.Name) -> String? {
    guard let text = values[name]?.first?.text, !text.isEmpty else { return nil }
    return name == .description ? text : PageReader.collapsed(text)
  }

  private func number(_ values: Values, _ name: FieldSpec.Name) -> Double? {
    switch values[name]?.first {
    case .number(let number)?, .price(let number, _)?: return number
    case .text(let text)?: return Double(text)
    default: return nil
    }
  }

  func price(_ value: FieldValue) -> (amount: Double, currency: String?)? {
    let runner = FilterRunner(definition: definition, pageURL: pageURL, now: Date())
    guard case .price(let amount, let currency)? = runner.price(value) else { return nil }
    return (amount, currency)
  }

  private func date(_ value: FieldValue) -> Date? {
    switch value {
    case .date(let date): return date
    case .number(let seconds): return Date(timeIntervalSince1970: seconds)
    case .text(let text):
      return DateText.parse(
        text, formats: ["iso8601"], now: Date(), timeZone: definition.timeZone,
        language: definition.language)
    case .price: return nil
    }
  }
}

/// Why an item gave no listing.
package struct ItemProblem: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
