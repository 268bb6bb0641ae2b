internal import ClarissaCore
public import Foundation

/// Dates as feeds write them: RFC 822 (`Tue, 10 Jun 2003 04:00:00 GMT`), ISO 8601
/// (`2015-12-19T14:33:35-08:00`), and the common broken variants of both (missing weekday,
/// seconds or zone; two-digit years; full month names; `+0000` or `+00:00`; a space for `T`;
/// North American zone names). A date without a zone is taken as UTC.
public enum FeedDate {
  /// The date `text` names, or nil when it names none.
  public static func parse(_ text: String) -> Date? {
    var bytes = Array(text.utf8)
    while let last = bytes.last, isSpace(last) { bytes.removeLast() }
    let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
    if start > 0 { bytes.removeFirst(start) }
    guard bytes.count >= 8 else { return nil }
    if bytes.prefix(4).allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-") {
      return iso8601(bytes)
    }
    if let date = FeedDate.canonicalRFC822(bytes) { return date }
    return rfc822(String(decoding: bytes, as: UTF8.self))
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
  }

  // MARK: - ISO 8601

  private static func iso8601(_ s: [UInt8]) -> Date? {
    var cursor = DateCursor(bytes: s)
    guard let year = cursor.number(4), cursor.skip("-"), let month = cursor.number(2),
      cursor.skip("-"), let day = cursor.number(2)
    else { return nil }
    var hour = 0
    var minute = 0
    var second = 0.0
    if cursor.skip("T") || cursor.skip("t") || cursor.skip(" ") {
      guard let h = cursor.number(2), cursor.skip(":"), let m = cursor.number(2) else {
        return nil
      }
      hour = h
      minute = m
      if cursor.skip(":") {
        guard let whole = cursor.number(2) else { return nil }
        second = Double(whole)
        if cursor.skip(".") || cursor.skip(",") {
          var scale = 0.1
          while cursor.index < s.count, isDigit(s[cursor.index]) {
            second += Double(s[cursor.index] - 0x30) * scale
            scale /= 10
            cursor.index += 1
          }
        }
      }
    }
    var index = cursor.index
    while index < s.count, s[index] == 0x20 { index += 1 }
    var offset = 0
    if index < s.count {
      guard let zone = zoneOffset(String(decoding: s[index...], as: UTF8.self)) else { return nil }
      offset = zone
    }
    return makeDate(year, month, day, hour, minute, second, offset: offset)
  }

  // MARK: - RFC 822 and relatives

  static let months = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  static func rfc822(_ text: String) -> Date? {
    let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" })
      .map(String.init)
    var day: Int?
    var month: Int?
    var year: Int?
    var time: (Int, Int, Double)?
    var offset: Int?
    var afternoon: Bool?
    for token in tokens {
      let lower = token.lowercased()
      if lower == "am" || lower == "pm" {
        afternoon = lower == "pm"
      } else if month == nil, let index = months.firstIndex(where: { lower.hasPrefix($0) }),
        lower.allSatisfy(\.isLetter)
      {
        month = index + 1
      } else if token.contains(":"), time == nil, let parsed = clock(token) {
        time = parsed.time
        if let zone = parsed.zone { offset = zone }
      } else if let number = Int(token), token.allSatisfy(\.isNumber) {
        if day == nil, token.count <= 2, number >= 1, number <= 31, month == nil || year == nil {
          day = number
        } else if year == nil {
          year = token.count <= 2 ? (number < 50 ? 2000 + number : 1900 + number) : number
        }
      } else if time != nil, offset == nil, let zone = zoneOffset(token) {
        offset = zone
      }
    }
    guard let day, let month, let year else { return nil }
    var (hour, minute, second) = time ?? (0, 0, 0)
    if let afternoon, hour <= 12 { hour = hour % 12 + (afternoon ? 12 : 0) }
    return makeDate(year, month, day, hour, minute, second, offset: offset ?? 0)
  }

  /// `04:00`, `04:00:00`, and `04:00:00Z` / `04:00:00+0100` glued together.
  private static func clock(_ token: String) -> (time: (Int, Int, Double), zone: Int?)? {
    var body = Substring(token)
    var zone: Int?
    if let cut = body.firstIndex(where: { $0 == "+" || $0 == "-" || $0.isLetter }) {
      zone = zoneOffset(String(body[cut...]))
      body = body[..<cut]
    }
    let parts = body.split(separator: ":").map { Double($0) }
    // `04:6666…600` (found by the answers fuzzer) is no time, and no trap: makeDate checks
    // the ranges.
    guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ $0 != nil }),
      let hour = parts[0].flatMap(CheckedNumber.integer),
      let minute = parts[1].flatMap(CheckedNumber.integer)
    else { return nil }
    return ((hour, minute, parts.count == 3 ? parts[2] ?? 0 : 0), zone)
  }

  private static let zoneNames: [String: Int] = [
    "Z": 0, "UT": 0, "UTC": 0, "GMT": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7,
    "MDT": -6, "PST": -8, "PDT": -7, "AKST": -9, "AKDT": -8, "HST": -10, "BST": 1, "CET": 1,
    "CEST": 2,
  ]

  /// Seconds east of UTC for `Z`, `GMT`, `PST`, `+0100`, `+01:00`, `-05`.
  static func zoneOffset(_ text: String) -> Int? {
    if text == "Z" || text == "z" { return 0 }
    if let hours = zoneNames[text.uppercased()] { return hours * 3600 }
    guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
    let digits = text.dropFirst().filter { $0 != ":" }
    guard digits.allSatisfy(\.isNumber), digits.count == 2 || digits.count == 4,
      let hours = Int(digits.prefix(2)),
      let minutes = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2)))
    else { return nil }
    let seconds = hours * 3600 + minutes * 60
    return sign == "-" ? -seconds : seconds
  }

  // MARK: - Calendar arithmetic (proleptic Gregorian, no Foundation calendar needed)

  static func makeDate(
    _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Double,
    offset: Int
  ) -> Date? {
    guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
      (0...59).contains(minute), second >= 0, second < 61, year > 0, year < 10_000
    else { return nil }
    let days = daysFromCivil(year, month, day)
    let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
    return Date(timeIntervalSince1970: seconds)
  }

  /// Days since 1970-01-01 (Howard Hinnant's algorithm).
  private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
