package import Foundation

/// Dates as listing pages write them: in the formats a site definition declares (ICU patterns
/// such as `dd.MM.yyyy HH:mm`, `iso8601`, `unix`, `unix_ms`) or relative to now (`Heute, 14:05`,
/// `vor 3 Std.`, `Online: 1 Stunde`, `2 days ago`).
///
/// A time written without a zone is the site's wall-clock time. Where that clock went back and
/// shows an hour twice (Berlin, 25 October 2026, 02:00-03:00), the later instant is taken unless
/// it is after `now`, then the earlier: a listing's date lies in the past. Where the clock sprang
/// forward and never showed the time (Berlin, 29 March 2026, 02:30), it is read with the offset in
/// force before the change: 02:30 CET, 01:30 UTC, the instant the clock showed as 03:30.
package enum DateText {
  /// The formats that name a reading rather than an ICU pattern.
  package static let namedFormats = ["iso8601", "unix", "unix_ms", "relative"]

  /// Why a date format given in a site definition is not usable (empty, unknown pattern letter,
  /// unterminated quote, no field), as a lowercase message with the offset (in characters, from 0)
  /// of the problem; nil when the format is fine.
  package static func checkFormat(_ format: String) -> String? {
    if format.trimmingCharacters(in: .whitespaces).isEmpty { return "date format is empty" }
    if namedFormats.contains(format) { return nil }
    switch Pattern.read(format) {
    case .success: return nil
    case .failure(let problem): return problem.message
    }
  }

  /// `text` read with the first of `formats` that matches the whole trimmed text, else as a
  /// relative date when `formats` holds "relative", in `language` ("de" or "en"), in `timeZone`,
  /// relative to `now`; nil when nothing matches.
  package static func parse(
    _ text: String, formats: [String], now: Date, timeZone: TimeZone, language: String
  ) -> Date? {
    let trimmed = spacesMadePlain(text).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    for format in formats where format != "relative" {
      if let date = read(trimmed, format: format, now: now, calendar: calendar, language: language)
      {
        return date
      }
    }
    guard formats.contains("relative") else { return nil }
    return relative(trimmed, language: language, now: now, calendar: calendar)
  }

  /// `text` read with one format that is not "relative".
  private static func read(
    _ text: String, format: String, now: Date, calendar: Calendar, language: String
  ) -> Date? {
    switch format {
    case "iso8601": return iso8601(text, now: now, calendar: calendar)
    case "unix": return secondsSince1970(text, scale: 1)
    case "unix_ms": return secondsSince1970(text, scale: 1000)
    default:
      return pattern(text, format: format, now: now, calendar: calendar, language: language)
    }
  }

  /// No-break spaces (U+00A0, U+202F) and other space separators as plain spaces: pages put
  /// them between a date and its time, and patterns are written with plain ones.
  package static func spacesMadePlain(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.value > 0x7F }) else { return text }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map {
          $0.properties.generalCategory == .spaceSeparator ? " " : $0
        }))
  }

  // MARK: - Wall-clock times in the site's zone

  /// The instant the wall-clock time `wall` names in `calendar`'s zone, with the policy for the
  /// hour a clock shows twice or never that the type's summary states.
  package static func instant(of wall: DateComponents, in calendar: Calendar, now: Date) -> Date? {
    guard let guess = calendar.date(from: wall) else { return nil }
    // No change of offset within the hour either side: the time is shown once, at `guess`.
    let zone = calendar.timeZone
    if zone.secondsFromGMT(for: guess.addingTimeInterval(-3600))
      == zone.secondsFromGMT(for: guess.addingTimeInterval(3600))
    {
      return guess
    }
    // Zones move their clocks by an hour, a few (Lord Howe) by half of one.
    let same = [-3600.0, -1800, 0, 1800, 3600].map { guess.addingTimeInterval($0) }
      .filter { shows(wall, at: $0, in: calendar) }
    guard let earliest = same.first else { return guess }
    return same.last { $0 <= now } ?? earliest
  }

  /// True when the clock of `calendar`'s zone shows `wall` (to the second) at `date`.
  private static func shows(_ wall: DateComponents, at date: Date, in calendar: Calendar) -> Bool {
    let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    return shown.year == wall.year && shown.month == wall.month && shown.day == wall.day
      && shown.hour == (wall.hour ?? 0) && shown.minute == (wall.minute ?? 0)
      && shown.second == (wall.second ?? 0)
  }

  // MARK: - Seconds since 1970

  /// `text` as seconds (scale 1) or milliseconds (scale 1000) since 1970: digits, an optional
  /// minus and fraction; at most 15 digits before the point, so no number of another kind
  /// (a phone number, an id) passes for a date thousands of years away by accident of format.
  private static func secondsSince1970(_ text: String, scale: Double) -> Date? {
    let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), (1...15).contains(parts[0].count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isASCIIDigit) }),
      let value = Double(text)
    else { return nil }
    return Date(timeIntervalSince1970: value / scale)
  }

  /// True for `0` to `9` only (not `²`, `½` or other scripts' digits).
  package static func isASCIIDigit(_ character: Character) -> Bool {
    character.isASCII && character.isNumber
  }
}
