internal import Foundation

extension FeedDate {
  /// The date of RFC 822 as nearly every feed writes it, read by position:
  /// `Tue, 10 Jun 2003 04:00:00 +0000` (the weekday optional, a one- or two-digit day, the zone
  /// a signed four-digit offset, `GMT`, `UT` or `UTC`). The same date the general reader gives
  /// (``rfc822(_:)``: tokens, names looked up), without its strings; nil for anything else, which
  /// the general reader then reads (`FeedDateTests` holds both to the same answers).
  static func canonicalRFC822(_ bytes: [UInt8]) -> Date? {
    var cursor = DateCursor(bytes: bytes)
    if bytes.count > 5, isWeekday(bytes[0..<3]), bytes[3] == UInt8(ascii: ","),
      bytes[4] == 0x20
    {
      cursor.index = 5
    }
    let dayDigits = cursor.index + 1 < bytes.count && isDigit(bytes[cursor.index + 1]) ? 2 : 1
    guard let day = cursor.number(dayDigits), day >= 1, cursor.skip(" "),
      cursor.index + 4 <= bytes.count, let month = month(bytes[cursor.index..<(cursor.index + 3)])
    else { return nil }
    cursor.index += 3
    guard cursor.skip(" "), let year = cursor.number(4), cursor.skip(" "),
      let hour = cursor.number(2), cursor.skip(":"), let minute = cursor.number(2),
      cursor.skip(":"), let second = cursor.number(2), cursor.skip(" "),
      let offset = zone(bytes[cursor.index...])
    else { return nil }
    return makeDate(year, month, day, hour, minute, Double(second), offset: offset)
  }

  /// `+0100`, `-0800`, `GMT`, `UT`, `UTC` (upper case): seconds east of UTC.
  private static func zone(_ bytes: ArraySlice<UInt8>) -> Int? {
    if bytes.elementsEqual("GMT".utf8) || bytes.elementsEqual("UTC".utf8)
      || bytes.elementsEqual("UT".utf8)
    {
      return 0
    }
    guard bytes.count == 5, let sign = bytes.first,
      sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), bytes.dropFirst().allSatisfy(isDigit)
    else { return nil }
    let digits = bytes.dropFirst().map { Int($0 - 0x30) }
    let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
    return sign == UInt8(ascii: "-") ? -seconds : seconds
  }

  /// A month's three letters, any case, followed by no other letter.
  private static func month(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.allSatisfy(isLetter) else { return nil }
    let lower = String(decoding: bytes.map { $0 | 0x20 }, as: UTF8.self)
    return months.firstIndex(of: lower).map { $0 + 1 }
  }

  /// An English weekday's three letters, any case: no month starts like one, so the general
  /// reader skips it too.
  private static func isWeekday(_ bytes: ArraySlice<UInt8>) -> Bool {
    guard bytes.allSatisfy(isLetter) else { return false }
    let lower = String(decoding: bytes.map { $0 | 0x20 }, as: UTF8.self)
    return weekdays.contains(lower)
  }

  private static let weekdays: Set<String> = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

  private static func isLetter(_ byte: UInt8) -> Bool {
    byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")
  }
}

/// A position in a date's bytes, read forward: fixed-width numbers and expected characters.
struct DateCursor {
  let bytes: [UInt8]
  var index = 0

  /// The `digits`-digit number at the position, which moves past it; nil (not moving) when
  /// those bytes are not all digits.
  mutating func number(_ digits: Int) -> Int? {
    guard index + digits <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[index..<(index + digits)] {
      guard FeedDate.isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    index += digits
    return value
  }

  /// Whether `character` (ASCII) stands at the position, which then moves past it.
  mutating func skip(_ character: Unicode.Scalar) -> Bool {
    guard index < bytes.count, UInt32(bytes[index]) == character.value else { return false }
    index += 1
    return true
  }
}
