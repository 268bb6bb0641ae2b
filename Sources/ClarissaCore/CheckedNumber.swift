internal import Foundation

/// The one path by which a number that came from outside (a header, a feed, a site's JSON, the
/// config, a form) becomes an integer, a duration or text. Swift's `Int(Double)` traps on NaN,
/// infinity and anything beyond ±2^63, and `+` traps on overflow: a server that answers
/// `Retry-After: inf` must not stop a run. Nothing here traps; what is out of range is clamped
/// or refused (nil), and the caller says so naming the source.
public enum CheckedNumber {
  /// `value` as an `Int`, rounded toward zero; nil when it is NaN, infinite or beyond `Int`.
  public static func integer(_ value: Double) -> Int? {
    // 2^63 is exactly representable; every double below it converts.
    guard value.isFinite, value > -9.223_372_036_854_775_808e18,
      value < 9.223_372_036_854_775_808e18
    else { return nil }
    return Int(value)
  }

  /// `value` rounded to the nearest `Int`, clamped into `Int`'s range; 0 for NaN.
  public static func clampedInteger(_ value: Double) -> Int {
    if value.isNaN { return 0 }
    return integer(value.rounded()) ?? (value < 0 ? Int.min : Int.max)
  }

  /// A JSON number (or a numeric string a site sent) as an `Int` when it is a whole number
  /// within range; nil otherwise (a fraction, 1e30, NaN, text).
  public static func integer(_ value: Any?) -> Int? {
    if let number = value as? NSNumber {
      // A JSON boolean is an NSNumber of type `c` too: it is no count.
      guard String(cString: number.objCType) != "c" else { return nil }
      // Integer types first: beyond 2^53 a double would lose the last digits.
      if let exact = Int(exactly: number.int64Value), Double(exact) == number.doubleValue {
        return exact
      }
      let double = number.doubleValue
      return double == double.rounded() ? integer(double) : nil
    }
    if let text = value as? String, let whole = Int(text) { return whole }
    return nil
  }

  /// `a + b`, or nil when the sum does not fit.
  public static func sum(_ a: Int, _ b: Int) -> Int? {
    let (result, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : result
  }

  /// `value` within `range`; nil for NaN.
  public static func clamped(_ value: Double, to range: ClosedRange<Double>) -> Double? {
    guard !value.isNaN else { return nil }
    return min(max(value, range.lowerBound), range.upperBound)
  }

  /// Seconds as nanoseconds for `Task.sleep`: negative and NaN give 0, anything past
  /// `ceiling` seconds gives the ceiling.
  public static func nanoseconds(_ seconds: Double, ceiling: Double = 7 * 86_400) -> UInt64 {
    guard let bounded = clamped(seconds, to: 0...ceiling) else { return 0 }
    return UInt64(bounded * 1e9)
  }

  /// A number as people write it: `120` for a whole number, `12.5` otherwise, `1e+30` for one
  /// too large to write whole; never a trap.
  public static func text(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15, let whole = integer(value) {
      return String(whole)
    }
    return String(value)
  }

  /// A count as reports write it, with a comma every three digits (`140,000`), whatever the
  /// machine's locale.
  public static func grouped(_ count: Int) -> String {
    let digits = String(count.magnitude)
    var out = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return (count < 0 ? "-" : "") + out
  }

  /// The change from `old` to `new` in whole percent (`-25`); nil when `old` is 0 or the
  /// result is not a finite number an `Int` holds.
  public static func percent(from old: Double, to new: Double) -> Int? {
    guard old != 0 else { return nil }
    return integer(((new - old) / old * 100).rounded())
  }

  /// A decimal number written with ASCII digits and at most one point (`120`, `1.5`): no sign,
  /// exponent, `inf`, `nan` or hexadecimal, which `Double(_:)` would all take. At most
  /// `maxDigits` digits; a longer number is `.tooLarge`.
  public static func decimal(_ text: String, maxDigits: Int = 15) -> Decimal {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty,
      parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
      parts.count == 1 || !parts[1].isEmpty
    else { return .malformed }
    let significant = parts[0].drop { $0 == "0" }
    guard significant.count <= maxDigits, let value = Double(text) else { return .tooLarge }
    return .value(value)
  }

  /// What ``decimal(_:maxDigits:)`` found.
  public enum Decimal: Equatable, Sendable {
    case value(Double)
    case tooLarge
    case malformed
  }
}
