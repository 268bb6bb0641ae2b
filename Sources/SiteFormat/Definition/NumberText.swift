/// Numbers as pages write them, with the decimal separator a site definition declares: `1.250 €
/// VB`, `CHF 2'350.–`, `€ 1.234,56`, `82,17 m²`, `3,5 Zimmer`. Not a price reader: a currency is
/// FeedPrice's business; this reads the bare number a definition's selector points at.
package enum NumberText {
  /// Characters that group thousands (besides whichever of `.` and `,` is not the decimal
  /// separator): `'` and `’` (Swiss), space, no-break space, narrow no-break space.
  private static let groupings: Set<Character> = [".", ",", "'", "’", " ", "\u{A0}", "\u{202F}"]

  /// The first number in `text` with `decimal` as its decimal separator, thousands separators
  /// dropped: "1.250 € VB" -> 1250 (decimal ","), "CHF 2'350.–" -> 2350, "1,250.00" -> 1250
  /// (decimal "."), "ca. 89 m²" -> 89; nil when `text` has no ASCII digit ("VB", "-").
  ///
  /// A number starts at an ASCII digit (`²` and `½` are not read). A thousands separator counts
  /// only between groups of three digits after at most three (`1.250`, `1 250 000`), so that
  /// `3 Zi. 100 m²` is 3 and `24.07.2026` (decimal ",") is 24. A decimal separator counts only
  /// before a digit (`2.350,-` is 2350). A minus (`-` or `−`) right before the first digit makes
  /// it negative, unless a letter or digit stands before the minus (`Zi-3`).
  package static func parse(_ text: String, decimal: Character) -> Double? {
    let characters = Array(text)
    guard let start = characters.firstIndex(where: isDigit) else { return nil }
    var written = isMinus(before: start, in: characters) ? "-" : ""
    var index = start
    let leading = run(from: index, in: characters)
    written += String(characters[index..<index + leading])
    index += leading
    // Groups of three after a separator, when what stands before them could be thousands.
    while leading <= 3, index < characters.count, characters[index] != decimal,
      groupings.contains(characters[index]), run(from: index + 1, in: characters) == 3
    {
      written += String(characters[index + 1...index + 3])
      index += 4
    }
    if index < characters.count, characters[index] == decimal {
      let fraction = run(from: index + 1, in: characters)
      if fraction > 0 { written += "." + String(characters[index + 1...index + fraction]) }
    }
    guard let value = Double(written), value.isFinite else { return nil }
    return value
  }

  /// How many ASCII digits stand in a row from `index`.
  private static func run(from index: Int, in characters: [Character]) -> Int {
    var end = index
    while end < characters.count, isDigit(characters[end]) { end += 1 }
    return end - index
  }

  /// True when a minus sign stands right before `index`, itself after no letter or digit.
  private static func isMinus(before index: Int, in characters: [Character]) -> Bool {
    guard index > 0, characters[index - 1] == "-" || characters[index - 1] == "−" else {
      return false
    }
    return index < 2 || !(characters[index - 2].isLetter || characters[index - 2].isNumber)
  }

  /// True for `0` to `9` only.
  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }
}
