internal import Foundation

/// A figure a page gives as a range: "505.900 - 999.900 €", "63,33 - 162,38 m²", "2 - 4",
/// "1.250 € – 1.500 €", "50 bis 80 m²". Its two sides as texts, the top's unit or currency
/// carried to a bottom written without one ("63,33" + " m²").
package enum RangeText {
  /// A dash (`-`, `–`, `—`) or `bis` between a side that ends in a digit (and at most four
  /// characters of unit) and one that starts with a digit (after at most four).
  private static let pattern = try? NSRegularExpression(
    pattern: #"^\s*(.*?\d[^\d\-–—]{0,4}?)\s*(?:-|–|—|\bbis\b)\s*([^\d\-–—]{0,4}\d.*?)\s*$"#)

  /// Longer texts are not taken for a range (a figure is short; a description is not one).
  static let longest = 80

  /// The bottom and top of `text`, or nil when it is not written as a range.
  package static func sides(_ text: String) -> (low: String, high: String)? {
    guard text.count <= longest, let pattern else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    guard let match = pattern.firstMatch(in: text, range: whole),
      let lowRange = Range(match.range(at: 1), in: text),
      let highRange = Range(match.range(at: 2), in: text)
    else { return nil }
    var low = String(text[lowRange])
    let high = String(text[highRange])
    if low.last.map({ $0.isASCII && $0.isNumber }) == true,
      let lastDigit = high.lastIndex(where: { $0.isASCII && $0.isNumber })
    {
      low += high[high.index(after: lastDigit)...]
    }
    return (low, high)
  }
}
