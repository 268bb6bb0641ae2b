internal import ClarissaCore

/// Markup for the pages. A string interpolated into it is text, and escaped
/// (``MarkupText/escape(_:)``: `&`, `<`, `>`, both quotes; control characters dropped); markup
/// goes in only as another `HTML`, and an `HTML` is made only of literals and escaped text. So
/// a page made of it escapes what came from a site, the config or a request without a call at
/// each place.
struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The markup.
  private(set) var markup: String

  /// Markup written in the source.
  init(stringLiteral markup: String) {
    self.markup = markup
  }

  /// Markup with its interpolations: text escaped, `HTML` as it is.
  init(stringInterpolation: Interpolation) {
    markup = stringInterpolation.markup
  }

  /// No markup.
  static let empty: HTML = ""

  /// Whether there is no markup.
  var isEmpty: Bool { markup.isEmpty }

  /// The markup.
  var description: String { markup }

  /// The markup's UTF-8 bytes (a response's body).
  var bytes: [UInt8] { Array(markup.utf8) }

  /// `left` then `right`.
  static func + (left: HTML, right: HTML) -> HTML {
    HTML(markup: left.markup + right.markup)
  }

  /// Appends `right`.
  static func += (left: inout HTML, right: HTML) {
    left.markup += right.markup
  }

  private init(markup: String) {
    self.markup = markup
  }

  /// What `"...\(value)..."` makes of each kind of value.
  struct Interpolation: StringInterpolationProtocol {
    /// The markup so far.
    var markup = ""

    /// Room for the literal parts and some for the values.
    init(literalCapacity: Int, interpolationCount: Int) {
      markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    /// Markup written in the source, as it is.
    mutating func appendLiteral(_ literal: String) {
      markup += literal
    }

    /// Text: escaped.
    mutating func appendInterpolation(_ text: String) {
      markup += MarkupText.escape(text)
    }

    /// Markup: as it is.
    mutating func appendInterpolation(_ html: HTML) {
      markup += html.markup
    }

    /// A whole number, in digits.
    mutating func appendInterpolation(_ number: Int) {
      markup += String(number)
    }

    /// Markup `parts` one after the other, `separator` between them.
    mutating func appendInterpolation(_ parts: [HTML], separator: HTML = .empty) {
      markup += parts.joined(separator: separator).markup
    }
  }
}

extension Sequence where Element == HTML {
  /// The parts one after the other, `separator` between them.
  func joined(separator: HTML = .empty) -> HTML {
    var out = HTML.empty
    for (index, part) in enumerated() {
      if index > 0 { out += separator }
      out += part
    }
    return out
  }
}
