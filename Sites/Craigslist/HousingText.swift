internal import ClarissaCore
internal import SiteFormat

/// Craigslist's housing figures as its pages write them: `2br - 850ft2 -` (search result rows
/// before 2023), `3bd 1930ft2` (ends of RSS titles, `<sup>2</sup>` already made `2`).
struct HousingText: Equatable {
  var bedrooms: Double?
  /// Square metres, read from square feet.
  var floorArea: Double?
}

extension HousingText {
  init(_ text: String) {
    for word in text.split(whereSeparator: { $0.isWhitespace || $0 == "-" }) {
      let lower = word.lowercased()
      if lower.hasSuffix("br") || lower.hasSuffix("bd"), lower.dropLast(2).allSatisfy(\.isNumber) {
        bedrooms = FactText.count(String(word), decimal: ".").flatMap { $0 > 0 ? $0 : nil }
      } else if lower.hasSuffix("ft2") || lower.hasSuffix("ft²") {
        floorArea = FactText.area(String(word), decimal: ".", unit: .squareFeet)?.squareMetres
      }
    }
  }

  /// The figures put on `listing` (square feet as its unit when it has an area).
  func apply(to listing: inout Listing) {
    listing.bedrooms = bedrooms
    listing.floorArea = floorArea
    listing.floorAreaUnit = floorArea == nil ? nil : .squareFeet
  }
}
