/// A price written in a feed item's title (`$450`, `450€`, `£1,200`), if one stands there.
/// `$` names no single currency, so it gives none; `€`, `£` and `¥` do.
enum FeedPrice {
  private static let symbols: [Character: String?] = ["$": nil, "£": "GBP", "€": "EUR", "¥": "JPY"]

  static func find(in title: String) -> (amount: Double, currency: String?)? {
    let characters = Array(title)
    for (index, character) in characters.enumerated() {
      guard let currency = symbols[character] else { continue }
      let after = String(characters[(index + 1)...].prefix(12))
      if let first = after.first, first.isNumber, let value = PriceText.parse(after) {
        return (value, currency)
      }
      let before = String(characters[..<index].suffix(12).reversed())
      if let last = before.first, last.isNumber {
        let digits = String(before.prefix { $0.isNumber || $0 == "," || $0 == "." }.reversed())
        if let value = PriceText.parse(digits) { return (value, currency) }
      }
    }
    return nil
  }
}
