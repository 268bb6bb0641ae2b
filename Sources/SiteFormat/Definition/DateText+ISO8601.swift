package import Foundation

extension DateText {
  /// `text` as ISO 8601 / RFC 3339 in its extended form: `2026-08-22`, `2026-08-22T16:10`,
  /// `2026-08-22T16:10:00`, with any number of fraction digits (flatfox writes six), a `T`, `t`
  /// or space between date and time, and a zone `Z`, `+02:00`, `+0200` or `+02`. Without a zone
  /// it is the site's wall-clock time; a date alone is its midnight. Read by hand: Foundation's
  /// readers want a zone, or take three fraction digits only on some platforms.
  package static func iso8601(_ text: String, now: Date, calendar: Calendar) -> Date? {
    var reader = ISOReader(bytes: Array(text.utf8))
    guard let wall = reader.wallClock(), let offset = reader.zoneOffset(), reader.atEnd,
      wall.isValidDate(in: utcCalendar)
    else { return nil }
    guard let offset else { return instant(of: wall, in: calendar, now: now) }
    return utcCalendar.date(from: wall)?.addingTimeInterval(-TimeInterval(offset))
  }

  /// A cursor over the bytes of an ISO 8601 text.
  private struct ISOReader {
    let bytes: [UInt8]
    var index = 0

    /// True when every byte has been read.
    var atEnd: Bool { index == bytes.count }

    /// The date and, when written, the time (`HH:mm`, `:ss`, `.fraction`).
    mutating func wallClock() -> DateComponents? {
      guard let year = number(4), skip("-"), let month = number(2), skip("-"),
        let day = number(2)
      else { return nil }
      var wall = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
      guard skip("T") || skip("t") || skip(" ") else { return atEnd ? wall : nil }
      guard let hour = number(2), skip(":"), let minute = number(2) else { return nil }
      (wall.hour, wall.minute) = (hour, minute)
      if skip(":") {
        guard let second = number(2) else { return nil }
        wall.second = second
        if skip(".") || skip(",") {
          guard let nanosecond = fraction() else { return nil }
          wall.nanosecond = nanosecond
        }
      }
      return wall
    }

    /// The zone's offset from UTC in seconds; `.some(nil)` when none is written, nil when what
    /// follows the time is not a zone.
    mutating func zoneOffset() -> Int?? {
      if atEnd { return .some(nil) }
      if skip("Z") || skip("z") { return .some(0) }
      let sign: Int
      if skip("+") {
        sign = 1
      } else if skip("-") {
        sign = -1
      } else {
        return nil
      }
      guard let hours = number(2), hours <= 23 else { return nil }
      if atEnd { return .some(sign * hours * 3600) }
      _ = skip(":")
      guard let minutes = number(2), minutes <= 59 else { return nil }
      return .some(sign * (hours * 3600 + minutes * 60))
    }

    /// Exactly `count` ASCII digits as a number.
    private mutating func number(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<index + count] {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      index += count
      return value
    }

    /// One or more fraction digits as nanoseconds (digits past the ninth are dropped).
    private mutating func fraction() -> Int? {
      var (nanoseconds, scale, digits) = (0, 100_000_000, 0)
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        nanoseconds += Int(bytes[index] - UInt8(ascii: "0")) * scale
        scale /= 10
        digits += 1
        index += 1
      }
      return digits > 0 ? nanoseconds : nil
    }

    /// True (and past it) when the next byte is `character`.
    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }
  }
}
