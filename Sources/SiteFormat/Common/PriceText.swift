/// Prices as pages write them: `$3,499`, `£1,200`, `€ 950`, `$85,000`.
package enum PriceText {
  /// The number in `text`, or nil when it holds none.
  package static func parse(_ text: String) -> Double? {
    var digits = ""
    var started = false
    for character in text {
      if character.isNumber, character.isASCII {
        digits.append(character)
        started = true
      } else if started, character == "." {
        digits.append(".")
      } else if started, character == "," || character == " " || character == "\u{A0}" {
        continue
      } else if started {
        break
      }
    }
    return Double(digits)
  }
}
