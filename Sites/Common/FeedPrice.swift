import Foundation

/// A price written in a feed item's text (`$450`, `450€`, `£1,200`, `120 EUR`, `CHF 2'350.–`),
/// if one stands there: a number with a currency sign or ISO code before or after it. `$` alone
/// names no single currency, so it gives none (the caller may know whose dollar it is);
/// `US$`, `C$`, `A$`, `€`, `£`, `¥`, `₹` and the ISO codes do. A bare number is not a price.
enum FeedPrice {
  private static let signs: [String: String?] = [
    "US$": "USD", "C$": "CAD", "CA$": "CAD", "A$": "AUD", "AU$": "AUD", "NZ$": "NZD",
    "$": nil, "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR",
  ]
  /// Codes seen on classified feeds; others are written with a sign.
  private static let codes = [
    "USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "JPY", "SEK", "NOK", "DKK", "PLN", "CZK",
    "HUF", "INR", "MXN", "BRL", "ZAR", "SGD", "HKD",
  ]

  private static let pattern: NSRegularExpression? = {
    let sign = #"US\$|CA?\$|AU?\$|NZ\$|[$€£¥₹]"#
    let code = "\\b(?:\(codes.joined(separator: "|")))\\b"
    let marker = "(?:\(sign)|\(code))"
    // Thousands in groups of three (`,` `.` `'` `’` space), cents after the last `.` or `,`;
    // Swiss `.–` or `,-` for "no cents".
    let number =
      #"(\d{1,3}(?:[.,'’\u00A0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?:[.,][–—-]+)?"#
    let spacing = #"[ \u00A0]?"#
    return try? NSRegularExpression(
      pattern: "(\(marker))\(spacing)\(number)|\(number)\(spacing)(\(marker))")
  }()

  /// The first price in the title, else in the description.
  static func find(in title: String, description: String = "") -> (
    amount: Double, currency: String?
  )? {
    first(in: title) ?? first(in: description)
  }

  /// The first price in a description's text (the title named none).
  static func find(inDescription text: String) -> (amount: Double, currency: String?)? {
    first(in: text)
  }

  /// False when the description HTML `html` cannot hold a price once made text: a price needs an
  /// ASCII digit (``amount(_:)`` reads no other), and every ASCII digit of the text stands in the
  /// HTML as itself or inside a character reference (`&#36;`, `&#x34;`); no named entity is a
  /// digit. A byte scan, so that an item whose title names no price is converted only when its
  /// description might.
  static func mayHoldPrice(html: String) -> Bool {
    html.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// The first price the regular expression finds in `text`; `scanning` first asks
  /// ``mayHoldPrice(text:)`` and starts the search at ``earliestMatch(in:)`` (tests turn it off
  /// to check that neither ever loses a price).
  static func first(in text: String, scanning: Bool = true) -> (
    amount: Double, currency: String?
  )? {
    guard let pattern, !text.isEmpty, !scanning || mayHoldPrice(text: text) else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    let start = scanning ? min(earliestMatch(in: text), whole.length) : 0
    // Transparent bounds: `\b` before a code still sees the text before the start.
    let range = NSRange(location: start, length: whole.length - start)
    // The first match that reads as an amount; the search stops there (a title's words after
    // the price, `3bd 1930ft2`, would each be tried).
    var found: (amount: Double, currency: String?)?
    pattern.enumerateMatches(in: text, options: .withTransparentBounds, range: range) {
      match, _, stop in
      guard let match, let price = price(of: match, in: text) else { return }
      found = price
      stop.pointee = true
    }
    return found
  }

  /// The amount and currency of one match, or nil when its number reads as none.
  private static func price(of match: NSTextCheckingResult, in text: String) -> (
    amount: Double, currency: String?
  )? {
    // Groups: 1 marker + 2 number (marker first), or 3 number + 4 marker.
    let (markerGroup, numberGroup) = match.range(at: 1).location != NSNotFound ? (1, 2) : (4, 3)
    guard let markerRange = Range(match.range(at: markerGroup), in: text),
      let numberRange = Range(match.range(at: numberGroup), in: text),
      let amount = amount(String(text[numberRange]))
    else { return nil }
    let marker = String(text[markerRange])
    return (amount, signs[marker] ?? marker)
  }

  /// False when the regular expression cannot find a price in `text`: every match holds a
  /// currency sign (`$`, `€`, `£`, `¥`, `₹`; `US$` and the like end in `$`) or one of ``codes``
  /// in capitals, and ``amount(_:)`` reads only ASCII digits. A byte scan: matching through ICU
  /// is the dearest step of turning a known item into a listing.
  static func mayHoldPrice(text: String) -> Bool {
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
  static func earliestMatch(in text: String) -> Int {
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
  static func amount(_ written: String) -> Double? {
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
