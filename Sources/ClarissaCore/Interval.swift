/// A length of time written like `500ms`, `90s`, `15m`, `2h`, `1h30m` or `7d`.
public struct Interval: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The length in milliseconds.
  public var milliseconds: Int

  /// The length in whole seconds (milliseconds dropped).
  public var seconds: Int { milliseconds / 1000 }

  /// The length in seconds, milliseconds kept.
  public var timeInterval: Double { Double(milliseconds) / 1000 }

  /// Creates an interval of `seconds`.
  public init(seconds: Int) { self.milliseconds = seconds * 1000 }

  /// Creates an interval of `milliseconds`.
  public init(milliseconds: Int) { self.milliseconds = milliseconds }

  /// `n` seconds.
  public static func seconds(_ n: Int) -> Interval { Interval(seconds: n) }
  /// `n` minutes.
  public static func minutes(_ n: Int) -> Interval { Interval(seconds: n * 60) }
  /// `n` hours.
  public static func hours(_ n: Int) -> Interval { Interval(seconds: n * 3600) }
  /// `n` days.
  public static func days(_ n: Int) -> Interval { Interval(seconds: n * 86_400) }

  private static let units: [(suffix: String, milliseconds: Int)] = [
    ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1),
  ]

  /// The unit suffixes, largest first (`d`, `h`, `m`, `s`, `ms`), for the config's JSON Schema.
  public static var unitSuffixes: [String] { units.map(\.suffix) }

  /// Parses `1h30m`-style text: one or more number+unit parts, largest unit first, no repeats.
  /// Returns nil for anything else (including a bare number: the unit is required).
  public init?(parsing text: String) {
    var total = 0
    var lastUnit = Int.max
    var rest = Substring(text)
    while !rest.isEmpty {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      rest = rest.dropFirst(digits.count)
      let suffix = rest.prefix { $0.isASCII && $0.isLetter }
      rest = rest.dropFirst(suffix.count)
      guard let unit = Self.units.first(where: { $0.suffix == suffix }),
        unit.milliseconds < lastUnit, digits.count <= 9, let value = Int(digits)
      else { return nil }
      total += value * unit.milliseconds
      lastUnit = unit.milliseconds
    }
    guard lastUnit != Int.max else { return nil }
    self.milliseconds = total
  }

  /// The shortest `1h30m`-style spelling.
  public var description: String {
    guard milliseconds > 0 else { return "0s" }
    var rest = milliseconds
    var out = ""
    for unit in Self.units where rest >= unit.milliseconds {
      out += "\(rest / unit.milliseconds)\(unit.suffix)"
      rest %= unit.milliseconds
    }
    return out
  }

  public static func < (lhs: Interval, rhs: Interval) -> Bool { lhs.seconds < rhs.seconds }
}
