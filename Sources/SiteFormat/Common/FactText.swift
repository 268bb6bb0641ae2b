package import ClarissaCore

/// Counts and floor areas as pages write them: "2,5 Zi." (2.5 rooms), "3bd", "1.200 m²",
/// "82,17 m²", "850ft2", "24m2". What a site sends is hostile: a number no home has ("1e400 m²",
/// "-5 m²", a run of a thousand digits) gives nothing, never a trap or an infinity.
package enum FactText {
  /// A count (rooms, bedrooms, bathrooms): the first number in `text`, within
  /// 0...``ListingCheck/largestCount``; nil when there is none or it is out of bounds.
  ///
  /// `decimal` is the site's separator; a `.` or `,` followed by one or two digits (and no more)
  /// is a decimal separator whichever the site declares ("2,5 Zi." on a site that writes
  /// "2.5"), since no count groups thousands that way.
  ///
  /// A half written as `½` counts: "3½" and "3 ½ Zimmer" are 3.5, "½" alone is 0.5 (the first
  /// `½` after the number, or in a text with no number).
  package static func count(_ text: String, decimal: Character) -> Double? {
    let characters = Array(text)
    guard let found = number(in: characters, decimal: decimal) else {
      return characters.contains("½") ? 0.5 : nil
    }
    var value = found.value
    var next = found.end
    while next < characters.count, spaces.contains(characters[next]) { next += 1 }
    if next < characters.count, characters[next] == "½", value == value.rounded(.down) {
      value += 0.5
    }
    return (0...ListingCheck.largestCount).contains(value) ? value : nil
  }

  /// A floor area as square metres and the unit the text names (`m²`, `m2`, `qm`, `sqm`; `ft²`,
  /// `ft2`, `sq ft`, `sqft`, `square feet`), else `unit`. Nil without a number, for one not
  /// above 0 or beyond ``ListingCheck/largestFloorArea`` m², and for exponents ("1e400").
  package static func area(_ text: String, decimal: Character, unit: AreaUnit)
    -> (squareMetres: Double, unit: AreaUnit)?
  {
    let characters = Array(text)
    guard let found = number(in: characters, decimal: decimal) else { return nil }
    let named = self.unit(after: found.end, in: characters) ?? unit
    return area(found.value, in: named).map { ($0, named) }
  }

  /// `value` in `unit` as square metres, when it is a floor area a home can have. Converted
  /// areas keep four decimals (643 ft² is 59.7367 m², not 59.736654720000004).
  package static func area(_ value: Double, in unit: AreaUnit) -> Double? {
    let squareMetres =
      unit == .squareMetres ? value : (value * unit.squareMetres * 10_000).rounded() / 10_000
    guard squareMetres.isFinite, squareMetres > 0, squareMetres <= ListingCheck.largestFloorArea
    else { return nil }
    return squareMetres
  }

  /// A count sent as a number (JSON), when it is one a home can have.
  package static func count(_ value: Double) -> Double? {
    value.isFinite && (0...ListingCheck.largestCount).contains(value) ? value : nil
  }

  /// The first number in `characters`, and the index after it; nil for a negative one, an
  /// exponent, or one that does not fit a finite double.
  static func number(in characters: [Character], decimal: Character) -> (value: Double, end: Int)? {
    guard let start = characters.firstIndex(where: isDigit) else { return nil }
    if start > 0, characters[start - 1] == "-" || characters[start - 1] == "−" {
      let before = start > 1 ? characters[start - 2] : " "
      if !(before.isLetter || before.isNumber) { return nil }
    }
    var end = start
    while end < characters.count {
      if isDigit(characters[end]) || (separators.contains(characters[end]) && digit(end + 1)) {
        end += 1
      } else if spaces.contains(characters[end]), groupOfThree(at: end + 1, in: characters) {
        end += 4
      } else {
        break
      }
    }
    if end < characters.count, characters[end] == "e" || characters[end] == "E",
      end + 1 < characters.count,
      isDigit(characters[end + 1]) || characters[end + 1] == "+" || characters[end + 1] == "-"
    {
      return nil
    }
    let written = Array(characters[start..<end])
    let decimal = separator(in: written) ?? decimal
    guard let value = value(of: written, decimal: decimal) else { return nil }
    return (value, end)

    func digit(_ index: Int) -> Bool { index < characters.count && isDigit(characters[index]) }
  }

  /// The number `written` is: digits in groups of three after the first (`1.200`, `1 200 000`),
  /// then the decimal separator and a fraction; nil for any other shape (`1.2.3`, `1.0001`) and
  /// for a number beyond a finite double.
  private static func value(of written: [Character], decimal: Character) -> Double? {
    var groups = [""]
    var marks: [Character] = []
    for character in written {
      if isDigit(character) {
        groups[groups.count - 1].append(character)
      } else {
        marks.append(character)
        groups.append("")
      }
    }
    var fraction = ""
    if marks.last == decimal {
      fraction = "." + groups.removeLast()
      marks.removeLast()
    }
    guard !marks.contains(decimal) else { return nil }
    if !marks.isEmpty {
      guard groups[0].count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
        return nil
      }
    }
    guard let value = Double(groups.joined() + fraction), value.isFinite else { return nil }
    return value
  }

  /// The last `.` or `,` of a number when one or two digits end it ("2,5", "82,17"): a decimal
  /// separator, whatever the site declares.
  private static func separator(in number: [Character]) -> Character? {
    guard let last = number.lastIndex(where: { $0 == "." || $0 == "," }) else { return nil }
    let after = number.count - last - 1
    return (1...2).contains(after) && number[(last + 1)...].allSatisfy(isDigit) ? number[last] : nil
  }

  /// The unit named right after a number (spaces between allowed).
  private static func unit(after end: Int, in characters: [Character]) -> AreaUnit? {
    var index = end
    while index < characters.count, characters[index].isWhitespace { index += 1 }
    let rest = String(characters[index..<min(characters.count, index + 12)]).lowercased()
    if metres.contains(where: rest.hasPrefix) { return .squareMetres }
    if feet.contains(where: rest.hasPrefix) { return .squareFeet }
    return nil
  }

  private static let metres = ["m²", "m2", "m^2", "qm", "sqm", "sq m", "sq. m", "square m"]
  private static let feet = ["ft²", "ft2", "ft^2", "sqft", "sq ft", "sq. ft", "square f"]
  private static let separators: Set<Character> = [".", ",", "'", "’"]
  private static let spaces: Set<Character> = [" ", "\u{A0}", "\u{202F}"]

  /// Three digits at `index` and no fourth: a group after a thousands space ("1 200 m²").
  private static func groupOfThree(at index: Int, in characters: [Character]) -> Bool {
    guard index + 3 <= characters.count,
      characters[index..<index + 3].allSatisfy(isDigit)
    else { return false }
    return index + 3 == characters.count || !isDigit(characters[index + 3])
  }

  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }
}
