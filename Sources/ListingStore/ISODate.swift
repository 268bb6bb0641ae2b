internal import ClarissaCore
internal import Foundation

/// `2026-05-03T19:00:00Z`, fast both ways (whole seconds, UTC: what the state stores).
enum ISODate {
  /// The 20 bytes of `format(date)`, appended without building a String.
  static func write(_ date: Date, into bytes: inout [UInt8]) {
    let seconds = seconds(date)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int) {
      bytes.append(UInt8(truncatingIfNeeded: 48 + value / 10))
      bytes.append(UInt8(truncatingIfNeeded: 48 + value % 10))
    }
    let clampedYear = min(max(year, 0), 9999)
    two(clampedYear / 100)
    two(clampedYear % 100)
    bytes.append(UInt8(ascii: "-"))
    two(month)
    bytes.append(UInt8(ascii: "-"))
    two(day)
    bytes.append(UInt8(ascii: "T"))
    two(time / 3600)
    bytes.append(UInt8(ascii: ":"))
    two(time / 60 % 60)
    bytes.append(UInt8(ascii: ":"))
    two(time % 60)
    bytes.append(UInt8(ascii: "Z"))
  }

  /// Whole seconds since 1970, clamped to the years 0000-9999 (what the format holds): a date
  /// from a site or an older store beyond them is written as the nearest one, never a trap.
  private static func seconds(_ date: Date) -> Int {
    CheckedNumber.clampedInteger(
      CheckedNumber.clamped(
        date.timeIntervalSince1970.rounded(.down), to: -62_167_219_200...253_402_300_799)
        ?? 0)
  }

  static func format(_ date: Date) -> String {
    let seconds = seconds(date)
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
  }

  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[19] == UInt8(ascii: "Z") else {
      return DateFormat.internet.date(from: text)
    }
    func number(_ from: Int, _ count: Int) -> Int? {
      var value = 0
      for byte in bytes[from..<(from + count)] {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    let days = daysFromCivil(year, month, day)
    return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
  }

  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    return era * 146_097 + yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear - 719_468
  }

  static func civil(fromDays days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
