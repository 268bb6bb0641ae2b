import Testing

@testable import SiteFormat
@testable import Sites

/// Given numbers as the five samples write them (prices, areas, rooms), when they are read with
/// the site's decimal separator, then each is the number meant; a text without one is nil.
@Suite struct NumberTextTests {
  /// The forms the issue names.
  @Test(
    arguments: [
      ("1.250 € VB", ",", 1250.0), ("CHF 2'350.–", ".", 2350), ("CHF 2'350.–", ",", 2350),
      ("€ 1.234,56", ",", 1234.56), ("1,250.00", ".", 1250), ("2.350,-", ",", 2350),
      ("ca. 89 m²", ",", 89), ("3,5 Zimmer", ",", 3.5),
    ] as [(String, Character, Double)])
  func issueForms(text: String, decimal: Character, expected: Double) {
    #expect(NumberText.parse(text, decimal: decimal) == expected)
  }

  /// Kleinanzeigen's `aditem-main--middle--price-shipping--price` (all 27 results; an old price
  /// after the new one is struck through, the first number is the price) and its tags.
  @Test(arguments: [
    ("1.600 €", 1600.0), ("1.950 €", 1950), ("299.000 €", 299_000), ("1.381 €", 1381),
    ("87.000 €", 87000), ("1.800 €", 1800), ("940 €", 940), ("995.000 €", 995_000),
    ("720 €", 720), ("1.035 €", 1035), ("285.000 € 319.000 €", 285_000), ("120.000 €", 120_000),
    ("1.700 €", 1700), ("450.000 €", 450_000), ("1.190 €", 1190), ("397.000 € VB", 397_000),
    ("309.999 €", 309_999), ("950 €", 950), ("850 €", 850), ("775.000 €", 775_000),
    ("699.999 €", 699_999), ("469.000 €", 469_000), ("889.000 €", 889_000),
    ("1.249 € 1.290 €", 1249), ("569 € VB", 569),
    ("82,17 m² · 2 Zi.", 82.17), ("50 m² · 2,5 Zi. · Online-Besichtigung", 50),
    ("4,5 Zi.", 4.5), ("178,38 m²", 178.38),
  ])
  func kleinanzeigen(text: String, expected: Double) {
    #expect(NumberText.parse(text, decimal: ",") == expected)
  }

  /// WG-Gesucht's card prices (all 26 cards, 19 amounts) and sizes.
  @Test(arguments: [
    ("650 €", 650.0), ("690 €", 690), ("590 €", 590), ("835 €", 835), ("489 €", 489),
    ("600 €", 600), ("728 €", 728), ("582 €", 582), ("449 €", 449), ("769 €", 769),
    ("538 €", 538), ("509 €", 509), ("469 €", 469), ("799 €", 799), ("999 €", 999),
    ("710 €", 710), ("849 €", 849), ("609 €", 609), ("899 €", 899), ("24 m²", 24), ("6 m²", 6),
  ])
  func wgGesucht(text: String, expected: Double) {
    #expect(NumberText.parse(text, decimal: ",") == expected)
  }

  /// willhaben's `PRICE_FOR_DISPLAY` and `PRICE/SQUARE_METER_FOR_DISPLAY` (decimal ",") and its
  /// raw `PRICE`, `RENT/PER_MONTH_LETTINGS`, `PRICE/SQUARE_METER` (decimal ".").
  @Test(
    arguments: [
      ("€ 3.500", ",", 3500.0), ("€ 1.038,82", ",", 1038.82), ("€ 913,23", ",", 913.23),
      ("€ 3.959,25", ",", 3959.25), ("€ 745", ",", 745), ("€ 22,88", ",", 22.88), ("€ 23", ",", 23),
      ("€ 22,88/m²", ",", 22.88), ("3500", ".", 3500), ("1038.82", ".", 1038.82),
      ("3500.0", ".", 3500), ("22.875816", ".", 22.875816), ("2X2", ".", 2),
    ] as [(String, Character, Double)])
  func willhaben(text: String, decimal: Character, expected: Double) {
    #expect(NumberText.parse(text, decimal: decimal) == expected)
  }

  /// ImmoScout's attribute values (no-break space before the unit) and flatfox's strings
  /// (`public_title` with `’` thousands, `number_of_rooms`).
  @Test(
    arguments: [
      ("2.300\u{A0}€", ",", 2300.0), ("638\u{A0}€", ",", 638), ("1.067\u{A0}€", ",", 1067),
      ("131\u{A0}m²", ",", 131), ("64,98\u{A0}m²", ",", 64.98), ("2,5\u{A0}Zi.", ",", 2.5),
      ("3\u{A0}Zi.", ",", 3),
      ("Badenerstrasse 423a, 8003 Zürich - CHF 2’710 incl. utilities per month", ".", 423),
      ("CHF 2’710 incl. utilities per month", ".", 2710), ("CHF 4’570", ".", 4570),
      ("1.5", ".", 1.5), ("1 ½ rooms loft", ".", 1),
    ] as [(String, Character, Double)])
  func immoScoutAndFlatfox(text: String, decimal: Character, expected: Double) {
    #expect(NumberText.parse(text, decimal: decimal) == expected)
  }

  /// Separators: only groups of three are thousands, every kind of space groups, the declared
  /// separator wins, a sign counts only right before the number.
  @Test(
    arguments: [
      ("1 250 000 €", ",", 1_250_000.0), ("1\u{202F}250,50", ",", 1250.5),
      ("1\u{A0}250", ".", 1250), ("1.250", ".", 1.25), ("1,25", ",", 1.25), ("1,250", ",", 1.25),
      ("1.234.567,89", ",", 1_234_567.89), ("24.07.2026", ",", 24), ("12345.678", ",", 12345),
      ("3 Zi. 100 m²", ",", 3), ("1.25", ",", 1), ("5,", ",", 5), ("-5", ",", -5),
      ("−1.250", ",", -1250), ("- 5", ",", 5), ("Zi-3", ",", 3), ("Preis: -20,5 %", ",", -20.5),
      ("10-20 €", ",", 10), ("007", ",", 7), ("0,5", ",", 0.5),
      // A number starts at a digit: `,5` is 5, as `ca.89` is 89.
      (",5", ",", 5), ("ca.89", ",", 89),
    ] as [(String, Character, Double)])
  func separators(text: String, decimal: Character, expected: Double) {
    #expect(NumberText.parse(text, decimal: decimal) == expected)
  }

  /// Texts without an ASCII digit hold no number.
  @Test(arguments: ["VB", "-", "", "Preis auf Anfrage", "m²", "½", "– €", "k. A."])
  func noNumber(text: String) {
    #expect(NumberText.parse(text, decimal: ",") == nil)
  }
}
