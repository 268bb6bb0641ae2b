internal import ClarissaCore
package import Foundation
internal import Synchronization

extension DateText {
  /// What an ICU date pattern (`dd.MM.yyyy HH:mm`) holds, read before a formatter is made: ICU
  /// takes any pattern and reads nothing with a wrong one, so a definition's typo would show only
  /// as dates that never match.
  package struct Pattern: Sendable, Equatable {
    /// The pattern letters it uses.
    let letters: Set<Character>
    /// Its punctuation, quoted or not, in order (see ``punctuation(of:)``).
    let punctuation: String

    /// Why a pattern is unusable: an unknown letter, an open quote, no field.
    struct Problem: Error, Equatable {
      /// The lowercase message for the definition's author.
      let message: String
    }

    /// The letters of ICU date patterns (skeleton-only letters such as `j` are refused).
    static let known = Set("GyYuUrQqMLwWdDFgEecabBhHkKmsSAzZOvVXx")
    /// Letters that read a zone or an offset: the text then says which zone it is in.
    private static let zone = Set("zZOvVXx")
    /// Letters that read a year.
    private static let year = Set("yYuUr")
    /// Letters that read some part of a date (not only a time).
    private static let date = Set("GyYuUrQqMLwWdDFgEec")
    /// Letters that read a time of day.
    private static let time = Set("hHkKmsSA")

    /// True when the pattern reads a zone or offset.
    var hasZone: Bool { !letters.isDisjoint(with: Self.zone) }
    /// True when the pattern reads a year.
    var hasYear: Bool { !letters.isDisjoint(with: Self.year) }
    /// True when the pattern reads part of a date; false for a time alone (`HH:mm`).
    var hasDate: Bool { !letters.isDisjoint(with: Self.date) }
    /// True when the pattern reads a time of day; false for a date alone (`dd.MM.yyyy`).
    var hasTime: Bool { !letters.isDisjoint(with: Self.time) }
    /// True when the pattern reads a name (a month's `MMM`, a weekday's `EEE`, `a` for am/pm),
    /// which is written in the site's language.
    var hasNames: Bool { !letters.isDisjoint(with: Set("MLEcGa")) }

    /// The pattern's letters, or the first problem: an unknown letter (literal text belongs in
    /// single quotes), a quote left open, or no date or time field at all.
    static func read(_ format: String) -> Result<Pattern, Problem> {
      let characters = Array(format)
      var letters = Set<Character>()
      var openQuote: Int?
      var literal = ""
      var index = 0
      while index < characters.count {
        let character = characters[index]
        if character == "'" {
          // `''` is a quote mark itself, inside or outside quoted text.
          if index + 1 < characters.count, characters[index + 1] == "'" {
            literal.append("'")
            index += 2
            continue
          }
          openQuote = openQuote == nil ? index : nil
        } else if openQuote == nil, character.isASCII, character.isLetter {
          guard known.contains(character) else {
            return .failure(unknownLetter(character, at: index, in: format))
          }
          letters.insert(character)
        } else {
          literal.append(character)
        }
        index += 1
      }
      if let openQuote {
        return .failure(
          Problem(
            message: "quote at offset \(openQuote) in date format '\(format)' is not closed; "
              + "literal text goes between two single quotes"))
      }
      guard !letters.isEmpty else {
        return .failure(
          Problem(
            message: "date format '\(format)' has no date or time field"
              + Suggestions.hint(for: format, in: DateText.namedFormats)))
      }
      return .success(Pattern(letters: letters, punctuation: punctuation(of: literal)))
    }

    /// The characters of `text` that are neither letters nor digits, each run of spaces as one:
    /// ICU takes `24-07-2026` for `dd.MM.yyyy` even when strict, so a zone-less pattern's
    /// punctuation is compared with the text's (a zone's `+02:00` would not compare).
    static func punctuation(of text: String) -> String {
      var kept = ""
      for character in text where !character.isLetter && !character.isNumber {
        if character.isWhitespace {
          if kept.last != " " { kept.append(" ") }
        } else {
          kept.append(character)
        }
      }
      return kept
    }

    /// The problem of a letter ICU does not know, with a hint: a named format close to what was
    /// written (`iso-8601`), or quotes around the letter (`'T'`).
    private static func unknownLetter(_ letter: Character, at offset: Int, in format: String)
      -> Problem
    {
      let named = Suggestions.hint(for: format, in: DateText.namedFormats)
      let hint = named.isEmpty ? "; write literal text in single quotes: '\(letter)'" : named
      return Problem(
        message: "unknown pattern letter '\(letter)' at offset \(offset) in date format "
          + "'\(format)'\(hint)")
    }
  }

  /// `text` read with the ICU pattern `format`; nil when the pattern is bad or does not match
  /// the whole text. A date without a time is read as its noon (see ``dayNotAfter(_:_:_:)``).
  /// A pattern without a zone is read as wall-clock fields (in UTC, which has no
  /// clock changes, so ICU refuses no time a clock skips) that ``instant(of:in:now:)`` places
  /// in the site's zone. A pattern without a year takes the latest year that puts the date no
  /// more than a day after `now`; one without any date field (`HH:mm`) is today's.
  /// Month and day names (`MMM`, `EEEE`) are read in the site's `language` (`17 mei 26`,
  /// `3 lutego 2026`), then in English.
  package static func pattern(
    _ text: String, format: String, now: Date, calendar: Calendar, language: String = "en"
  ) -> Date? {
    guard case .success(let pattern) = patterns.pattern(format) else { return nil }
    let locales =
      pattern.hasNames && language != "en" ? [language, "en_US_POSIX"] : ["en_US_POSIX"]
    if pattern.hasZone {
      guard
        let date = locales.lazy.compactMap({
          DateFormat.pattern(format, zone: calendar.timeZone, strict: true, locale: $0)
            .date(from: text)
        }).first,
        calendar.component(.year, from: date) >= 1000
      else { return nil }
      return date
    }
    guard Pattern.punctuation(of: text) == pattern.punctuation,
      let fields = locales.lazy.compactMap({
        DateFormat.pattern(format, zone: utc, strict: true, locale: $0).date(from: text)
      }).first
    else { return nil }
    var wall = utcCalendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .nanosecond], from: fields)
    if !pattern.hasDate {
      let today = calendar.dateComponents([.year, .month, .day], from: now)
      (wall.year, wall.month, wall.day) = (today.year, today.month, today.day)
    } else if !pattern.hasTime {
      wall.hour = 12
    }
    if pattern.hasDate, !pattern.hasYear {
      return latestYear(for: wall, in: calendar, now: now).map { dayNotAfter($0, now, pattern) }
    }
    // `yyyy` takes `26` as the year 26: such a text is not a date in this format.
    guard let year = wall.year, year >= 1000 else { return nil }
    return instant(of: wall, in: calendar, now: now).map { dayNotAfter($0, now, pattern) }
  }

  /// A date without a time is its day's noon in the site's zone (the same date in UTC and in
  /// nearly every zone a reader is in, where midnight in Berlin is the day before at 22:00 UTC);
  /// today's noon when it is still morning is `now`, as a listing's date lies in the past.
  private static func dayNotAfter(_ date: Date, _ now: Date, _ pattern: Pattern) -> Date {
    guard pattern.hasDate, !pattern.hasTime, date > now, date.timeIntervalSince(now) < 43_200
    else { return date }
    return now
  }

  /// `wall` (a date written without its year) in the year of `now`, or the year before when
  /// that puts it more than a day after `now`.
  private static func latestYear(for wall: DateComponents, in calendar: Calendar, now: Date)
    -> Date?
  {
    var wall = wall
    let thisYear = calendar.component(.year, from: now)
    wall.year = thisYear
    if let date = instant(of: wall, in: calendar, now: now), date <= now.addingTimeInterval(86400) {
      return date
    }
    wall.year = thisYear - 1
    return instant(of: wall, in: calendar, now: now)
  }

  /// UTC, in which zone-less patterns are read.
  private static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current
  /// A Gregorian calendar in UTC.
  package static let utcCalendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    return calendar
  }()

  /// Every pattern read so far.
  private static let patterns = PatternCache()

  /// The patterns read, each once (the formatters are `DateFormat`'s, made once too).
  private final class PatternCache: Sendable {
    /// The patterns by format.
    private let patterns = Mutex<[String: Result<Pattern, Pattern.Problem>]>([:])
    /// More patterns than any set of definitions names: past it, a caller is making patterns
    /// up, and the cache starts again rather than grow.
    private let limit = 512

    /// What `format` holds, read once.
    func pattern(_ format: String) -> Result<Pattern, Pattern.Problem> {
      patterns.withLock { patterns in
        if let known = patterns[format] { return known }
        if patterns.count >= limit { patterns.removeAll() }
        let read = Pattern.read(format)
        patterns[format] = read
        return read
      }
    }
  }
}
