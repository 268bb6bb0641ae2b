/// A length of time written like `90s`, `15m`, `2h`, `1h30m` or `7d`.
public struct Interval: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The length in whole seconds.
  public var seconds: Int

  /// Creates an interval of `seconds`.
  public init(seconds: Int) { self.seconds = seconds }

  /// `n` seconds.
  public static func seconds(_ n: Int) -> Interval { Interval(seconds: n) }
  /// `n` minutes.
  public static func minutes(_ n: Int) -> Interval { Interval(seconds: n * 60) }
  /// `n` hours.
  public static func hours(_ n: Int) -> Interval { Interval(seconds: n * 3600) }
  /// `n` days.
  public static func days(_ n: Int) -> Interval { Interval(seconds: n * 86_400) }

  private static let units: [(suffix: Character, seconds: Int)] = [
    ("d", 86_400), ("h", 3600), ("m", 60), ("s", 1),
  ]

  /// Parses `1h30m`-style text: one or more number+unit parts, largest unit first, no repeats.
  /// Returns nil for anything else (including a bare number: the unit is required).
  public init?(parsing text: String) {
    var total = 0
    var digits = ""
    var lastUnit = Int.max
    for character in text {
      if character.isASCII, character.isNumber {
        digits.append(character)
        continue
      }
      guard let unit = Self.units.first(where: { $0.suffix == character }),
        unit.seconds < lastUnit, let value = Int(digits), digits.count <= 9
      else { return nil }
      total += value * unit.seconds
      lastUnit = unit.seconds
      digits = ""
    }
    guard digits.isEmpty, lastUnit != Int.max else { return nil }
    self.seconds = total
  }

  /// The shortest `1h30m`-style spelling.
  public var description: String {
    guard seconds > 0 else { return "0s" }
    var rest = seconds
    var out = ""
    for unit in Self.units where rest >= unit.seconds {
      out += "\(rest / unit.seconds)\(unit.suffix)"
      rest %= unit.seconds
    }
    return out
  }

  public static func < (lhs: Interval, rhs: Interval) -> Bool { lhs.seconds < rhs.seconds }
}
