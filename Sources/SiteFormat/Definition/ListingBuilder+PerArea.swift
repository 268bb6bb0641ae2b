internal import ClarissaCore
internal import Foundation

/// Prices per unit of floor area: a `price_per_area` field, or a `price` whose text says it is
/// one ("12,50 €/m²", "15 € pro qm", "$2.10/sq ft"). Only what the page says: a figure is never
/// taken for a price per area from its size alone (a cheap room's 250 € is its rent).
extension ListingBuilder {
  private static let marker = try? NSRegularExpression(
    pattern: #"(?:/|\bpro\b|\bper\b|\bje\b)\s*(m²|m2|qm|sqm|sq\.?\s?ft|ft²|ft2)"#,
    options: [.caseInsensitive])

  /// The unit `text` says a price is per; nil for a whole price.
  static func perAreaUnit(_ text: String) -> AreaUnit? {
    guard text.count <= 200, let marker,
      let found = marker.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
      let range = Range(found.range(at: 1), in: text)
    else { return nil }
    return text[range].lowercased().contains("ft") ? .squareFeet : .squareMetres
  }

  /// Keeps a price per area as the fact `price per m²` (or `ft²`); when the site gives no whole
  /// price but a floor area, the price is made from the two and the fact `price` says how.
  func perArea(_ listing: inout Listing, _ values: Values) {
    var found: (amount: Double, currency: String?, unit: AreaUnit)?
    if case .text(let text)? = values[.price]?.first, let unit = Self.perAreaUnit(text),
      let amount = listing.price
    {
      found = (amount, listing.currency, unit)
      listing.price = nil
      listing.priceHigh = nil
    } else if let value = values[.pricePerArea]?.first, let read = price(value) {
      let unit = Self.perAreaUnit(value.text) ?? definition.floorAreaUnit
      found = (read.amount, read.currency, unit)
    }
    guard let found, found.amount.isFinite, found.amount > 0 else { return }
    let currency = listing.currency ?? found.currency ?? definition.currency
    let perUnit = Money.format(found.amount, currency) + " per \(found.unit.symbol)"
    listing.facts["price per \(found.unit.symbol)"] = perUnit
    guard listing.price == nil, let area = listing.floorArea else { return }
    let units = area / found.unit.squareMetres
    listing.price = (found.amount * units * 100).rounded() / 100
    listing.currency = currency
    listing.facts["price"] =
      "\(perUnit) × \(ListingFacts.number(units, digits: 2)) \(found.unit.symbol) (reckoned)"
  }
}
