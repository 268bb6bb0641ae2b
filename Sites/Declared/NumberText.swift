// TEMPORARY placeholder (not committed): the helper writes the real one.
enum NumberText {
  static func parse(_ text: String, decimal: Character) -> Double? {
    var digits = ""; var started = false
    for c in text { if c.isASCII, c.isNumber { digits.append(c); started = true } else if c == decimal, started { digits.append(".") } else if started, c == "." || c == "," || c == "'" || c == " " { continue } else if started { break } }
    return Double(digits)
  }
}
