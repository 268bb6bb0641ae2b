internal import ClarissaCore

/// A listing's fields as they are stored, for `clarissa sites check` to show beside the text
/// they came from: numbers as numbers (`'3,5'` → 3.5), areas with their unit (`'68m²'` → 68
/// m²), URLs made absolute, ranges with both ends.
extension Listing {
  /// The stored value of the field `name` (nil for none, for a description and for facts).
  package func stored(_ name: FieldSpec.Name) -> String? {
    switch name {
    case .id: return id
    case .url: return url
    case .title: return title
    case .description, .facts: return nil
    case .price:
      return price.map { ranged($0, priceHigh) + (currency.map { " \($0)" } ?? "") }
    case .currency: return currency
    case .posted: return posted.map { DateFormat.internet.string(from: $0) }
    case .location: return location
    case .district: return area
    case .latitude: return coordinates.map { CheckedNumber.text($0.latitude) }
    case .longitude: return coordinates.map { CheckedNumber.text($0.longitude) }
    case .images: return imageURLs.first
    case .category: return category
    case .rooms: return rooms.map { ranged($0, roomsHigh) }
    case .bedrooms: return bedrooms.map { CheckedNumber.text($0) }
    case .bathrooms: return bathrooms.map { CheckedNumber.text($0) }
    case .floorArea: return ListingFacts.floorArea(self, digits: 2)
    case .pricePerArea: return facts.first { $0.key.hasPrefix("price per ") }?.value
    case .postcode: return postcode
    case .sellerSince: return sellerSince.map { DateFormat.internet.string(from: $0) }
    case .address: return address
    }
  }

  private func ranged(_ low: Double, _ high: Double?) -> String {
    CheckedNumber.text(low) + (high.map { "–" + CheckedNumber.text($0) } ?? "")
  }
}
