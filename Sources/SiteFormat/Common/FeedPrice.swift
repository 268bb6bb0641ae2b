internal import Foundation

/// A price written in a feed item's text (`$450`, `450€`, `£1,200`, `120 EUR`, `CHF 2'350.–`),
/// if one stands there: a number with a currency sign or ISO code before or after it. `$` alone
/// names no single currency, so it gives none (the caller may know whose dollar it is);
/// `US$`, `C$`, `A$`, `€`, `£`, `¥`, `₹` and the ISO codes do. A bare number is not a price.
package enum FeedPrice {
  private static let signs: [String: String?] = [
    "US$": "USD", "C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD", "NZ$": "NZD",
    "$": nil, "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR",
  ]
  /// Codes seen on classified feeds; others are written with a sign.
  static let codes = [
    "USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK",
    "HUF", "INR", "MXN", "BRL", "ZAR", "SGD", "HKD",
  ]

  /// Signs written before the amount (`$450`, `£40`): between two numbers (`RTX 3080 $450`)
  /// they price the one after. `€` and the codes are written either way (`450 €`, `EUR 450`).
  private static let leadingSigns: Set<String> = [
    "US$", "C$", "CA$", "A$", "AU$", "NZ$", "$", "£", "¥", "₹",
  ]

  /// A sign or code; an amount (thousands in groups of three (`,` `.` `'` `’` space), cents
  /// after the last `.` or `,`; Swiss `.–` or `,-` for "no cents"); at most one space between.
  private static let marker: String = {
    let sign = #"US\$|CA?\$|AU?\$|NZ\$|[$€£¥₹]"#
    return "(?:\(sign)|\\b(?:\(codes.joined(separator: "|")))\\b)"
  }()
  private static let number =
    #"(\d{1,3}(?:[.,'’\u00A0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?:[.,][–—-]+)?"#
  private static let spacing = #"([ \u00A0]?)"#

  /// A marker and the amount after it: groups marker, spacing, amount.
  static let markerFirst = try? NSRegularExpression(
    pattern: "(\(marker))\(spacing)\(number)")
  /// An amount and the marker after it: groups amount, spacing, marker.
  static let numberFirst = try? NSRegularExpression(
    pattern: "\(number)\(spacing)(\(marker))")

  /// The first price in the title, else in the description.
  package static func find(in title: String, description: String = "") -> (
    amount: Double, currency: String?
  )? {
    first(in: title) ?? first(in: description)
  }

  /// The first price in a description's text (the title named none).
  package static func find(inDescription text: String) -> (amount: Double, currency: String?)? {
    first(in: text)
  }

  /// False when the description HTML `html` cannot hold a price once made text: a price needs an
  /// ASCII digit (``amount(_:)`` reads no other), and every ASCII digit of the text stands in the
  /// HTML as itself or inside a character reference (`&#36;`, `&#x34;`); no named entity is a
  /// digit. A byte scan, so that an item whose title names no price is converted only when its
  /// description might.
  package static func mayHoldPrice(html: String) -> Bool {
    html.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// The first price in `text`: at the first marker that has an amount beside it, the amount
  /// after or before it (see ``choose(_:_:marker:)``). `scanning` first asks
  /// ``mayHoldPrice(text:)``, then finds both expressions' first matches with ``PriceScanner``,
  /// or, in a text it cannot read, runs them from ``earliestMatch(in:)``. Tests turn `scanning`
  /// off to check that none of that ever changes a price: the expressions alone, from the start.
  package static func first(in text: String, scanning: Bool = true) -> (
    amount: Double, currency: String?
  )? {
    guard !text.isEmpty, !scanning || mayHoldPrice(text: text) else { return nil }
    if scanning, let (after, before) = PriceScanner.matches(in: text) {
      return chosen(
        after: after.map { candidate($0, in: text) }, before: before.map { candidate($0, in: text) }
      )
    }
    guard let markerFirst, let numberFirst else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    let start = scanning ? min(earliestMatch(in: text), whole.length) : 0
    // Transparent bounds: `\b` before a code still sees the text before the start.
    let range = NSRange(location: start, length: whole.length - start)
    // The first match of each is all there is to read: of two different markers, the earlier
    // has no amount on its other side (that match would have come first); one marker may have
    // an amount on each side.
    let options = NSRegularExpression.MatchingOptions.withTransparentBounds
    let after = markerFirst.firstMatch(in: text, options: options, range: range).map {
      candidate($0, in: text, marker: 1, spacing: 2, amount: 3)
    }
    let before = numberFirst.firstMatch(in: text, options: options, range: range).map {
      candidate($0, in: text, marker: 3, spacing: 2, amount: 1)
    }
    return chosen(after: after, before: before)
  }

  /// The price of the two first matches (nil when none, `.some(nil)` when a match's number
  /// does not read as an amount).
  private static func chosen(after: Candidate??, before: Candidate??) -> (
    amount: Double, currency: String?
  )? {
    switch (after, before) {
    case (nil, nil): return nil
    case (let found??, nil), (nil, let found??):
      return (found.amount, signs[found.marker] ?? found.marker)
    case (let first??, let second??):
      let chosen =
        first.markerAt == second.markerAt
        ? choose(first, second, marker: first.marker)
        : first.markerAt < second.markerAt ? first : second
      return chosen.map { ($0.amount, signs[$0.marker] ?? $0.marker) }
    default: return nil  // a matched number that does not read as an amount
    }
  }

  /// An amount beside a marker: where the marker is (a UTF-16 offset from the expressions, a
  /// byte offset from the scanner: only compared within one text), which it is, and whether
  /// the amount touches it (`$450`) or stands a space apart (`3080 $`).
  private struct Candidate {
    var markerAt: Int
    var marker: String
    var amount: Double
    var touches: Bool
  }

  private static func candidate(
    _ match: NSTextCheckingResult, in text: String, marker: Int, spacing: Int, amount: Int
  ) -> Candidate? {
    guard let markerRange = Range(match.range(at: marker), in: text),
      let numberRange = Range(match.range(at: amount), in: text),
      let value = self.amount(String(text[numberRange]))
    else { return nil }
    return Candidate(
      markerAt: match.range(at: marker).location, marker: String(text[markerRange]),
      amount: value, touches: match.range(at: spacing).length == 0)
  }

  private static func candidate(_ match: PriceScanner.Match, in text: String) -> Candidate? {
    func part(_ range: Range<Int>) -> String {
      let utf8 = text.utf8
      let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
      return String(Substring(utf8[start..<utf8.index(start, offsetBy: range.count)]))
    }
    return amount(part(match.amount)).map {
      Candidate(
        markerAt: match.marker.lowerBound, marker: part(match.marker), amount: $0,
        touches: match.touches)
    }
  }

  /// The amount a marker prices when one stands on each side of it (`RTX 3080 $450`): the one
  /// that touches it; when both or neither do, the one after a leading sign (`$`, `£`) and the
  /// one before `€` or a code (`1.200 € 3 Zimmer`).
  private static func choose(_ after: Candidate?, _ before: Candidate?, marker: String?)
    -> Candidate?
  {
    guard let after, let before else { return after ?? before }
    if after.touches != before.touches { return after.touches ? after : before }
    return leadingSigns.contains(marker ?? "") ? after : before
  }

  /// False when the regular expression cannot find a price in `text`: every match holds a
  /// currency sign (`$`, `€`, `£`, `¥`, `₹`; `US$` and the like end in `$`) or one of ``codes``
  /// in capitals, and ``amount(_:)`` reads only ASCII digits. A byte scan: matching through ICU
  /// is the dearest step of turning a known item into a listing.
  package static func mayHoldPrice(text: String) -> Bool {
    var (digit, marker) = (false, false)
    var window: UInt32 = 0
    for byte in text.utf8 {
      window = window << 8 | UInt32(byte)
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = true
      case UInt8(ascii: "$"): marker = true
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), 0xAC, 0xB9:  // codes' last letters, € and ₹
        marker = marker || markerBytes.contains(window & 0xFF_FFFF)
      case 0xA3, 0xA5:  // £ and ¥ are C2 A3 and C2 A5
        marker = marker || window & 0xFFFF == 0xC2A3 || window & 0xFFFF == 0xC2A5
      default: break
      }
      if digit && marker { return true }
    }
    return false
  }

  /// Where (in UTF-16 units, as the expression counts) no match can start before: a match holds
  /// a digit (`\d`: any decimal digit) at most four units after its start (`USD 4`, `NZ$ 4`), so
  /// four units before the text's first digit. Titles name the price late (`Victorian
  /// (temescal) $4300`): the expression then skips the words before it.
  package static func earliestMatch(in text: String) -> Int {
    var offset = 0
    for scalar in text.unicodeScalars {
      let isDigit =
        scalar.isASCII
        ? (0x30...0x39).contains(scalar.value)
        : scalar.properties.generalCategory == .decimalNumber
      if isDigit { return max(0, offset - 4) }
      offset += scalar.utf16.count
    }
    return offset
  }

  /// The codes and the three-byte signs (€, ₹) as their UTF-8 bytes, packed.
  private static let markerBytes: Set<UInt32> = Set(
    (codes + ["€", "₹"]).map { $0.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } })

  /// `1,200` and `1.200` are thousands; `99.50`, `99,5` and `1.200,50` have cents.
  package static func amount(_ written: String) -> Double? {
    if let exact = asciiAmount(written) { return exact }
    return writtenAmount(written)
  }

  /// ``amount(_:)`` of an amount of ASCII digits and `,` `.` `'` and space, read by bytes: the
  /// same rule (the last `,` or `.` starts cents when one or two digits follow it) and the same
  /// `Double` (an integer of at most 15 digits divided by 1, 10 or 100 is rounded once, as the
  /// decimal text is). Nil for anything else, which ``writtenAmount(_:)`` reads.
  private static func asciiAmount(_ written: String) -> Double? {
    var (whole, digits, afterMark) = (0, 0, -1)
    for byte in written.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        whole = whole * 10 + Int(byte - UInt8(ascii: "0"))
        digits += 1
        if afterMark >= 0 { afterMark += 1 }
      case UInt8(ascii: ","), UInt8(ascii: "."): afterMark = 0
      case UInt8(ascii: "'"), UInt8(ascii: " "): continue
      default: return nil
      }
      guard digits <= 15 else { return nil }
    }
    guard digits > 0 else { return nil }
    // Cents when the last mark has one or two digits after it (none: the mark ends the text,
    // and `Double("12.")` reads 12 all the same).
    switch afterMark {
    case 1: return Double(whole) / 10
    case 2: return Double(whole) / 100
    default: return Double(whole)
    }
  }

  package static func writtenAmount(_ written: String) -> Double? {
    var text = written.filter { !"'’ \u{A0}".contains($0) }
    if let last = text.lastIndex(where: { $0 == "," || $0 == "." }) {
      let after = text.distance(from: text.index(after: last), to: text.endIndex)
      let isDecimal = after <= 2
      var digits = text[..<last].filter(\.isNumber)
      let tail = text[text.index(after: last)...].filter(\.isNumber)
      digits += isDecimal ? "." + tail : tail
      text = String(digits)
    }
    return Double(text)
  }
}
