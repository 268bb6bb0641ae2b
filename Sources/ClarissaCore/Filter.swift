internal import Foundation
internal import Synchronization

/// One inclusive or exclusive filter: plain text (whole words, case- and diacritic-insensitive
/// unless asked) or a regular expression, compiled once when the config is read.
public struct Filter: Sendable {
  /// Whether a match keeps or drops a listing.
  public enum Effect: String, Sendable {
    /// A search with inclusive filters keeps only listings matching at least one of them.
    case include
    /// A listing matching any exclusive filter is dropped.
    case exclude
  }

  /// Which text of a listing the filter looks at.
  public enum Field: String, Sendable, CaseIterable {
    case title, description, both
  }

  /// How plain text is matched (a regular expression is matched as written).
  public enum Match: String, Sendable, CaseIterable {
    /// Whole words and phrases: `iso` does not match "Maison", `bike*` matches "bikes".
    case words
    /// Anywhere in the text, inside words too: `iso` matches "Maison".
    case substring
  }

  /// Include or exclude.
  public var effect: Effect
  /// Title, description or both.
  public var field: Field
  /// The text or pattern as written.
  public var pattern: String
  /// True when `pattern` is a regular expression.
  public var isRegex: Bool
  /// Whole words (the default) or substrings, for plain text.
  public var match: Match
  /// Whether letter case (and, for plain text, accents) must match.
  public var caseSensitive: Bool
  /// Where the filter is written.
  public var location: SourceLocation?
  private let regex: NSRegularExpression

  /// Creates a filter; throws NSRegularExpression's error for a bad pattern.
  public init(
    _ effect: Effect, on field: Field = .both, pattern: String, isRegex: Bool = false,
    match: Match = .words, caseSensitive: Bool = false, location: SourceLocation? = nil
  ) throws {
    self.effect = effect
    self.field = field
    self.pattern = pattern
    self.isRegex = isRegex
    self.match = match
    self.caseSensitive = caseSensitive
    self.location = location
    self.regex = try RegexCache.shared.regex(
      for: pattern, isRegex: isRegex, match: match, caseSensitive: caseSensitive)
  }

  /// Whether the filter matches a listing's title or description (as `field` says).
  public func matches(title: String, description: String) -> Bool {
    firstMatch(in: FilterText(title: title, description: description, for: [self])) != nil
  }

  /// Whether the filter matches one text.
  public func matches(_ text: String) -> Bool {
    firstMatch(in: comparesFolded ? FilterText.fold(text) : text) != nil
  }

  /// True for plain text that ignores case: it is compared with the folded texts.
  public var comparesFolded: Bool { !isRegex && !caseSensitive }

  /// The first match in a listing's texts: which field, and the words that matched as written
  /// (as compared, without accents and in lower case, where folding changed the text's length).
  public func firstMatch(in text: FilterText) -> (field: Field, matched: String)? {
    if field != .description,
      let found = firstMatch(in: text.title, folded: text.foldedTitle)
    {
      return (.title, found)
    }
    if field != .title,
      let found = firstMatch(in: text.description, folded: text.foldedDescription)
    {
      return (.description, found)
    }
    return nil
  }

  private func firstMatch(in original: String, folded: String) -> String? {
    guard comparesFolded else { return firstMatch(in: original) }
    let range = NSRange(folded.startIndex..., in: folded)
    guard let found = regex.firstMatch(in: folded, options: [], range: range)?.range else {
      return nil
    }
    // Folding keeps UTF-16 offsets unless it changed the length ('ß', decomposed accents).
    if original.utf16.count == folded.utf16.count, let same = Range(found, in: original) {
      return String(original[same])
    }
    return Range(found, in: folded).map { String(folded[$0]) }
  }

  private func firstMatch(in text: String) -> String? {
    let range = NSRange(text.startIndex..., in: text)
    guard let found = regex.firstMatch(in: text, options: [], range: range),
      let matched = Range(found.range, in: text)
    else { return nil }
    return String(text[matched])
  }
}

/// A listing's title and description as filters read them, folded once per listing (not once
/// per filter) where a filter compares folded text: lower case without accents, so that `cafe`
/// matches "Café".
public struct FilterText: Sendable {
  /// The title as written.
  public let title: String
  /// The description as written.
  public let description: String
  /// The title folded for case- and accent-insensitive comparison (empty if not asked for).
  public let foldedTitle: String
  /// The description folded likewise (empty if not asked for).
  public let foldedDescription: String

  /// A listing's texts, folded only where one of `filters` compares folded text in that field.
  public init(title: String, description: String, for filters: [Filter]) {
    let folding = filters.filter(\.comparesFolded)
    self.title = title
    self.description = description
    foldedTitle = folding.contains { $0.field != .description } ? Self.fold(title) : ""
    foldedDescription = folding.contains { $0.field != .title } ? Self.fold(description) : ""
  }

  /// Lower case without diacritics (`Café` -> `cafe`).
  public static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}

/// Plain filter text as a regular expression: words matched whole, a phrase's words separated by
/// any run of spaces or punctuation, `*` standing for any letters or digits.
enum PlainPattern {
  static let wordCharacter = "[\\p{L}\\p{N}]"

  static func expression(for text: String, match: Filter.Match) -> String {
    let words = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
    let joined = words.map(token).joined(separator: "[^\\p{L}\\p{N}]+")
    guard match == .words, let first = words.first?.first, let last = words.last?.last else {
      return joined
    }
    let before = isWordCharacter(first) ? "(?<!\(wordCharacter))" : ""
    let after = isWordCharacter(last) ? "(?!\(wordCharacter))" : ""
    return before + joined + after
  }

  /// One word: literal text, `*` as any letters or digits (`bike*`, `*phone`).
  private static func token(_ word: String) -> String {
    word.split(separator: "*", omittingEmptySubsequences: false)
      .map { NSRegularExpression.escapedPattern(for: String($0)) }
      .joined(separator: wordCharacter + "*")
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character == "*" || character.isLetter || character.isNumber
  }
}

/// Compiled patterns, shared: a config often repeats one filter across searches (through
/// `defaults` or copies), and an NSRegularExpression is immutable and safe to share. Kept by
/// what the filter says (its text and options), so that a repeated plain filter is neither folded
/// nor turned into an expression again. Bounded by the distinct filters of the configs loaded.
final class RegexCache: Sendable {
  /// A filter's text and the options that decide its expression.
  struct Key: Hashable {
    var pattern: String
    var isRegex: Bool
    var match: Filter.Match
    var caseSensitive: Bool
  }

  static let shared = RegexCache()
  private let compiled = Mutex<[Key: NSRegularExpression]>([:])

  /// The filter's expression, compiled once; throws NSRegularExpression's error for a bad one.
  func regex(
    for pattern: String, isRegex: Bool, match: Filter.Match, caseSensitive: Bool
  ) throws -> NSRegularExpression {
    let key = Key(pattern: pattern, isRegex: isRegex, match: match, caseSensitive: caseSensitive)
    if let known = compiled.withLock({ $0[key] }) { return known }
    let source =
      isRegex
      ? pattern
      : PlainPattern.expression(
        for: caseSensitive ? pattern : FilterText.fold(pattern), match: match)
    let regex = try NSRegularExpression(
      pattern: source, options: caseSensitive ? [] : [.caseInsensitive])
    compiled.withLock { $0[key] = regex }
    return regex
  }
}
