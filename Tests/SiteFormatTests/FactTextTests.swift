import ClarissaCore
import Testing

@testable import SiteFormat
@testable import Sites

/// Given rooms and floor areas as pages write them (and as a hostile server might), when they
/// are read, then each is the number and unit meant, and a number no home has is nothing.
@Suite struct FactTextTests {
  /// Areas: the text, the site's decimal separator, the unit the definition gives texts that
  /// name none, then the square metres and unit expected.
  @Test(
    arguments: [
      ("50 m²", ",", AreaUnit.squareMetres, 50.0, AreaUnit.squareMetres),
      ("50m2", ",", .squareMetres, 50, .squareMetres),
      ("1.200 m²", ",", .squareMetres, 1200, .squareMetres),
      ("82,17 m²", ",", .squareMetres, 82.17, .squareMetres),
      ("82,17 m²", ".", .squareMetres, 82.17, .squareMetres),
      ("43.5 m2", ",", .squareMetres, 43.5, .squareMetres),
      ("ca. 89 m² Wohnfläche", ",", .squareMetres, 89, .squareMetres),
      ("1 200 m²", ",", .squareMetres, 1200, .squareMetres),
      ("1\u{A0}200\u{A0}m²", ",", .squareMetres, 1200, .squareMetres),
      ("131\u{A0}m²", ",", .squareMetres, 131, .squareMetres),
      ("24m2 Zimmer", ",", .squareMetres, 24, .squareMetres),
      ("80 qm", ",", .squareMetres, 80, .squareMetres),
      ("80 sqm", ".", .squareFeet, 80, .squareMetres),
      ("850 ft²", ".", .squareMetres, 78.9676, .squareFeet),
      ("850ft2", ".", .squareMetres, 78.9676, .squareFeet),
      ("1,200 sq ft", ".", .squareMetres, 111.4836, .squareFeet),
      ("1,200 sq. ft.", ".", .squareMetres, 111.4836, .squareFeet),
      ("1930 square feet", ".", .squareMetres, 179.3029, .squareFeet),
      ("850", ".", .squareFeet, 78.9676, .squareFeet),
      ("153", ",", .squareMetres, 153, .squareMetres),
      ("64.5", ",", .squareMetres, 64.5, .squareMetres),
    ] as [(String, Character, AreaUnit, Double, AreaUnit)])
  func areas(
    text: String, decimal: Character, unit: AreaUnit, squareMetres: Double, named: AreaUnit
  ) throws {
    let area = try #require(FactText.area(text, decimal: decimal, unit: unit))
    #expect(area.squareMetres == squareMetres)
    #expect(area.unit == named)
  }

  /// Rooms, bedrooms, bathrooms.
  @Test(
    arguments: [
      ("2,5 Zi.", ",", 2.5), ("2,5 Zi.", ".", 2.5), ("2.5 rooms", ".", 2.5),
      ("2.5 rooms", ",", 2.5), ("3 Zi.", ",", 3), ("3bd", ".", 3), ("2br", ".", 2),
      ("1.5", ",", 1.5), ("0", ",", 0), ("12", ".", 12), ("4,5 Zimmer", ",", 4.5),
    ] as [(String, Character, Double)])
  func counts(text: String, decimal: Character, expected: Double) {
    #expect(FactText.count(text, decimal: decimal) == expected)
  }

  /// Halves written `½` (no recorded page at hand has one: these are the forms German and Swiss
  /// listings use).
  @Test(
    arguments: [
      ("3½", 3.5), ("3 ½ Zimmer", 3.5), ("½", 0.5), ("3\u{A0}½ Zi.", 3.5), ("4,5 ½", 4.5),
      ("2 Zimmer", 2),
    ] as [(String, Double)])
  func halves(text: String, expected: Double) {
    #expect(FactText.count(text, decimal: ",") == expected)
  }

  /// Hostile and meaningless texts: no number, a negative one, an exponent, a run of digits
  /// beyond any double, a number beyond any home. None traps, none is infinite.
  @Test(
    arguments: [
      "1e400 m²", "1E400 m²", "1e+5 m²", "-5 m²", "−5 m²", "NaN", "nan m²", "inf m²",
      "Infinity", "", "m²", "Zi.", "0 m²", "0,0 m²", "20000000 m²",
      String(repeating: "9", count: 400) + " m²", String(repeating: "9", count: 100_000),
      "1" + String(repeating: "0", count: 309) + " ft2",
      String(repeating: "1.000", count: 2_000) + " m²",
    ])
  func hostileAreas(text: String) {
    #expect(FactText.area(text, decimal: ",", unit: .squareMetres) == nil)
    #expect(FactText.area(text, decimal: ".", unit: .squareFeet) == nil)
  }

  @Test(
    arguments: [
      "1e400", "-5 Zi.", "−2 rooms", "NaN", "", "Zi.", "1001 rooms",
      String(repeating: "9", count: 400), "3e2 bd",
    ])
  func hostileCounts(text: String) {
    #expect(FactText.count(text, decimal: ",") == nil)
    #expect(FactText.count(text, decimal: ".") == nil)
  }

  /// Numbers sent as JSON numbers: bounded the same way.
  @Test func numbers() {
    #expect(FactText.count(2.5) == 2.5)
    #expect(FactText.count(.nan) == nil)
    #expect(FactText.count(-1) == nil)
    #expect(FactText.count(.infinity) == nil)
    #expect(FactText.area(850, in: .squareFeet) == 78.9676)
    #expect(FactText.area(0, in: .squareMetres) == nil)
    #expect(FactText.area(.greatestFiniteMagnitude, in: .squareFeet) == nil)
    #expect(FactText.area(-.infinity, in: .squareMetres) == nil)
  }

  /// Craigslist's housing figures: search rows' `2br - 850ft2 -`, RSS titles' `3bd 1930ft2`.
  @Test func craigslistHousing() {
    #expect(HousingText("2br - 850ft2 -") == HousingText(bedrooms: 2, floorArea: 78.9676))
    #expect(HousingText(" 3bd 1930ft2") == HousingText(bedrooms: 3, floorArea: 179.3029))
    #expect(HousingText("425ft2 -") == HousingText(bedrooms: nil, floorArea: 39.4838))
    #expect(HousingText("0br - 0ft2") == HousingText(bedrooms: nil, floorArea: nil))
    #expect(HousingText("1e400ft2 99999999999999999999br") == HousingText())
    let title = TitleShape("Victorian (oakland north / temescal) $4300 3bd 1930ft2")
    #expect(title.name == "Victorian")
    #expect(title.price == 4300)
    #expect(title.housing == HousingText(bedrooms: 3, floorArea: 179.3029))
  }
}
