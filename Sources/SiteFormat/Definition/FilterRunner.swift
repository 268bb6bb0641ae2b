internal import ClarissaCore
package import Foundation
internal import Markup

/// Applies a field's filters to its values.
package struct FilterRunner {
  package let definition: SiteDefinition
  package let pageURL: String
  package let now: Date

  package func apply(_ filter: FieldFilter, to values: [FieldValue]) -> [FieldValue] {
    if case .split(let separator) = filter {
      return values.flatMap { value in
        value.text.components(separatedBy: separator).map { .text(PageReader.collapsed($0)) }
          .filter { $0 != .text("") }
      }
    }
    if case .join(let separator) = filter {
      let texts = values.map(\.text).filter { !$0.isEmpty }
      return texts.isEmpty ? [] : [.text(texts.joined(separator: separator))]
    }
    return values.compactMap { apply(filter, to: $0) }
  }

  private func apply(_ filter: FieldFilter, to value: FieldValue) -> FieldValue? {
    let text = value.text
    switch filter {
    case .regex(let pattern):
      guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
      else { return nil }
      let group = match.numberOfRanges > 1 ? 1 : 0
      return Range(match.range(at: group), in: text).map { .text(String(text[$0])) }
    case .replace(let pattern, let template):
      let range = NSRange(text.startIndex..., in: text)
      return .text(pattern.stringByReplacingMatches(in: text, range: range, withTemplate: template))
    case .number(let decimal):
      if case .number = value { return value }
      return NumberText.parse(text, decimal: decimal).map { .number($0) }
    case .price: return price(value)
    case .date(let formats):
      if case .date = value { return value }
      return DateText.parse(
        text, formats: formats, now: now, timeZone: definition.timeZone,
        language: definition.language
      ).map { .date($0) }
    case .absolute(let base): return Self.absolute(text, base: base ?? pageURL).map { .text($0) }
    case .template(let template):
      return .text(template.replacingOccurrences(of: "{}", with: text))
    case .lowercase: return .text(text.lowercased())
    case .uppercase: return .text(text.uppercased())
    case .html: return .text(HTMLText.plainText(fromHTML: text))
    case .split, .join: return value
    }
  }

  /// A price from a number (the site's currency) or from text with its currency sign or code.
  package func price(_ value: FieldValue) -> FieldValue? {
    switch value {
    case .price: return value
    case .number(let amount): return .price(amount, currency: definition.currency)
    case .date: return nil
    case .text(let text):
      if let found = FeedPrice.first(in: text) {
        return .price(found.amount, currency: found.currency ?? definition.currency)
      }
      return NumberText.parse(text, decimal: definition.decimalSeparator).map {
        .price($0, currency: definition.currency)
      }
    }
  }

  /// `reference` resolved against `base` (RFC 3986); nil when it cannot be.
  package static func absolute(_ reference: String, base: String) -> String? {
    if reference.hasPrefix("http://") || reference.hasPrefix("https://") {
      return encoded(reference)
    }
    if reference.hasPrefix("//") { return encoded("https:" + reference) }
    guard let baseURL = URL(string: base) else { return nil }
    let encoded =
      reference.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"]))
      ?? reference
    return URL(string: encoded, relativeTo: baseURL)?.absoluteURL.absoluteString
  }
}

extension FilterRunner {
  /// Characters a URL may not hold as written (`800x600>`, spaces) percent-encoded; what is
  /// encoded already stays (``URLText/encodingIllegal(_:)``).
  package static func encoded(_ url: String) -> String { URLText.encodingIllegal(url) }
}

extension SiteDefinition {
  /// How the site writes decimals: `,` where its language does (every language it reads but
  /// English).
  package var decimalSeparator: Character { language == "en" ? "." : "," }
}
