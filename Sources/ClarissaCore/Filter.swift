import Foundation

/// One inclusive or exclusive filter: plain text (case-insensitive unless asked) or a regular
/// expression compiled once when the config is read.
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

  /// Include or exclude.
  public var effect: Effect
  /// Title, description or both.
  public var field: Field
  /// The text or pattern as written.
  public var pattern: String
  /// True when `pattern` is a regular expression.
  public var isRegex: Bool
  /// Whether letter case must match.
  public var caseSensitive: Bool
  /// Where the filter is written.
  public var location: SourceLocation?
  private let regex: NSRegularExpression?

  /// Creates a filter; throws NSRegularExpression's error for a bad pattern.
  public init(
    _ effect: Effect, on field: Field = .both, pattern: String, isRegex: Bool = false,
    caseSensitive: Bool = false, location: SourceLocation? = nil
  ) throws {
    self.effect = effect
    self.field = field
    self.pattern = pattern
    self.isRegex = isRegex
    self.caseSensitive = caseSensitive
    self.location = location
    self.regex =
      isRegex ? try RegexCache.shared.compile(pattern, caseSensitive: caseSensitive) : nil
  }

  /// Whether the filter matches a listing's title or description (as `field` says).
  public func matches(title: String, description: String) -> Bool {
    switch field {
    case .title: matches(title)
    case .description: matches(description)
    case .both: matches(title) || matches(description)
    }
  }

  /// Whether the filter matches one text.
  public func matches(_ text: String) -> Bool {
    if let regex {
      let range = NSRange(text.startIndex..., in: text)
      return regex.firstMatch(in: text, options: [], range: range) != nil
    }
    return text.range(of: pattern, options: caseSensitive ? [] : [.caseInsensitive]) != nil
  }
}

/// Compiled patterns, shared: a config often repeats one pattern across searches (through
/// `defaults` or copies), and an NSRegularExpression is immutable and safe to share. Bounded by
/// the distinct patterns of the configs loaded.
final class RegexCache: @unchecked Sendable {
  static let shared = RegexCache()
  private let lock = NSLock()
  private var compiled: [String: NSRegularExpression] = [:]

  func compile(_ pattern: String, caseSensitive: Bool) throws -> NSRegularExpression {
    let key = (caseSensitive ? "s:" : "i:") + pattern
    if let known = lock.withLock({ compiled[key] }) { return known }
    let regex = try NSRegularExpression(
      pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
    lock.withLock { compiled[key] = regex }
    return regex
  }
}
