internal import ClarissaCore
package import Foundation

/// One step of a field's value on its way to the listing, in the order the definition lists
/// them (Cardigann's filters, fewer and checked when the definition is read).
package enum FieldFilter: Sendable {
  /// The first capture group of the first match (the whole match without groups); no match
  /// leaves nothing.
  case regex(NSRegularExpression)
  /// Every match replaced (`$1` refers to a group).
  case replace(NSRegularExpression, with: String)
  /// A number written with this decimal separator (`1.250,50`).
  case number(decimal: Character)
  /// A price with its currency (`1.250 € VB`, `CHF 2'350.–`).
  case price
  /// A date in one of these formats (`relative`, `iso8601`, `unix`, ICU patterns).
  case date([String])
  /// A URL made absolute against `base`, or against the page's address.
  case absolute(base: String?)
  /// Put into a text where `{}` stands (`https://example.org/ad/{}`).
  case template(String)
  case lowercase, uppercase
  /// One value becomes several (photo lists written in one attribute).
  case split(String)
  /// Several values become one, this text between each two (`{join: ', '}`).
  case join(String)
  /// The value is HTML: made plain text (a description).
  case html

  /// The names a definition writes.
  package static let names = [
    "regex", "replace", "number", "price", "date", "absolute", "template", "lowercase",
    "uppercase", "split", "join", "html",
  ]
}

/// A value on its way through the filters.
package enum FieldValue: Sendable, Equatable {
  case text(String)
  case number(Double)
  case date(Date)
  /// A price read from text, with the currency it named.
  case price(Double, currency: String?)

  /// The value as text (numbers without a needless `.0`).
  package var text: String {
    switch self {
    case .text(let text): return text
    case .number(let number), .price(let number, _):
      return CheckedNumber.text(number)
    case .date(let date): return DateFormat.internet.string(from: date)
    }
  }
}
