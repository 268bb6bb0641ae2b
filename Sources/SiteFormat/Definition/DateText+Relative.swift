package import Foundation

extension DateText {
  /// The languages relative dates are read in.
  package static let languages = ["cs", "de", "en", "es", "fr", "it", "nl", "pl", "pt", "sk"]

  /// A span a relative date counts back by.
  package enum Unit: Sendable {
    case second, minute, hour, day, week, month, year
  }

  /// The words of relative dates in one language, as listing pages write them.
  package struct RelativeWords: Sendable {
    /// Whole texts that mean "now" (`gerade eben`, `just now`).
    let now: Set<String>
    /// Day words and how many days they lie before today (`gestern`: 1).
    let days: [String: Int]
    /// Words written for a count (`einem`, `an`).
    let counts: [String: Int]
    /// Unit words, without a final dot (`std` for `Std.`).
    let units: [String: Unit]
    /// The word before a count (`vor 3 Std.`), or after its unit (`3 hours ago`).
    let ago: (before: String?, after: String?)
    /// Words around a day's time that say nothing more (`um`, `Uhr`, `at`).
    let filler: Set<String>
    /// Phrases of several words read as one (`il y a` -> `ilya`), before the text is split.
    var phrases: [String: String] = [:]

    /// German: Kleinanzeigen (`Heute, 14:05`, `Gestern, 09:12`), ImmoScout (`vor einem Monat`,
    /// `vor 3 Stunden`), WG-Gesucht (`Online: 1 Stunde`).
    static let german = RelativeWords(
      now: ["gerade eben", "soeben", "jetzt", "gerade"],
      days: ["heute": 0, "gestern": 1, "vorgestern": 2],
      counts: ["ein": 1, "eine": 1, "einer": 1, "einem": 1, "einen": 1],
      units: [
        "sekunde": .second, "sekunden": .second, "sek": .second,
        "minute": .minute, "minuten": .minute, "min": .minute,
        "stunde": .hour, "stunden": .hour, "std": .hour,
        "tag": .day, "tage": .day, "tagen": .day, "woche": .week, "wochen": .week,
        "monat": .month, "monate": .month, "monaten": .month,
        "jahr": .year, "jahre": .year, "jahren": .year,
      ],
      ago: ("vor", nil), filler: ["um", "uhr"])

    /// English: `today 14:05`, `yesterday`, `3 hours ago`, `an hour ago`, `just now`.
    static let english = RelativeWords(
      now: ["just now", "now", "right now", "a moment ago", "moments ago"],
      days: ["today": 0, "yesterday": 1],
      counts: ["a": 1, "an": 1, "one": 1],
      units: [
        "second": .second, "seconds": .second, "sec": .second, "secs": .second,
        "minute": .minute, "minutes": .minute, "min": .minute, "mins": .minute,
        "hour": .hour, "hours": .hour, "hr": .hour, "hrs": .hour,
        "day": .day, "days": .day, "week": .week, "weeks": .week, "wk": .week, "wks": .week,
        "month": .month, "months": .month, "year": .year, "years": .year, "yr": .year,
        "yrs": .year,
      ],
      ago: (nil, "ago"), filler: ["at"])

    /// The words of `language`, nil for one whose words are not known.
    static func of(_ language: String) -> RelativeWords? {
      switch language.lowercased() {
      case "de": german
      case "en": english
      default: others[language.lowercased()]
      }
    }
  }

  /// `text` (trimmed) as a date relative to `now` in `language`: now (`gerade eben`), a day
  /// with or without its time (`Heute, 14:05`, `yesterday`: that day's noon), or a count of
  /// units back (`vor 3 Std.`, `2 days ago`, and WG-Gesucht's `Online: 1 Stunde`). Seconds,
  /// minutes and hours count back elapsed time; days and longer count back on the site's
  /// calendar, so `vor 1 Tag` is the same clock time yesterday across a clock change.
  package static func relative(_ text: String, language: String, now: Date, calendar: Calendar)
    -> Date?
  {
    guard let words = RelativeWords.of(language) else { return nil }
    var lowered = text.lowercased()
    for (phrase, word) in words.phrases {
      lowered = lowered.replacingOccurrences(of: phrase, with: word)
    }
    var tokens = lowered.replacingOccurrences(of: ",", with: " ")
      .split(whereSeparator: \.isWhitespace).map(String.init)
    // WG-Gesucht writes how long an offer has been online, in either language.
    if tokens.first == "online:" {
      tokens.removeFirst()
      return countedBack(tokens, words: words, now: now, calendar: calendar)
    }
    if words.now.contains(tokens.joined(separator: " ")) { return now }
    if let first = tokens.first, let daysBack = words.days[first] {
      let time = tokens.dropFirst().filter { !words.filler.contains($0) }
      return day(daysBack, at: Array(time), now: now, calendar: calendar)
    }
    if let before = words.ago.before {
      guard tokens.first == before else { return nil }
      tokens.removeFirst()
    }
    if let after = words.ago.after {
      guard tokens.last == after else { return nil }
      tokens.removeLast()
    }
    return countedBack(tokens, words: words, now: now, calendar: calendar)
  }

  /// `now` less a count and a unit (`3`, `Std.`), or nil when `tokens` are not exactly that.
  private static func countedBack(
    _ tokens: [String], words: RelativeWords, now: Date, calendar: Calendar
  ) -> Date? {
    guard tokens.count == 2,
      let count = words.counts[tokens[0]] ?? digits(tokens[0]),
      let unit = words.units[tokens[1].hasSuffix(".") ? String(tokens[1].dropLast()) : tokens[1]]
    else { return nil }
    switch unit {
    case .second: return now.addingTimeInterval(-Double(count))
    case .minute: return now.addingTimeInterval(-Double(count) * 60)
    case .hour: return now.addingTimeInterval(-Double(count) * 3600)
    case .day: return calendar.date(byAdding: .day, value: -count, to: now)
    case .week: return calendar.date(byAdding: .day, value: -7 * count, to: now)
    case .month: return calendar.date(byAdding: .month, value: -count, to: now)
    case .year: return calendar.date(byAdding: .year, value: -count, to: now)
    }
  }

  /// A count written in digits: at most six of them (no page counts back a million units).
  private static func digits(_ token: String) -> Int? {
    guard (1...6).contains(token.count), token.allSatisfy(isASCIIDigit) else { return nil }
    return Int(token)
  }

  /// The day `daysBack` days before `now`'s, at `time` (`14:05`, `2:05 pm`) or at its noon
  /// (`now` if earlier) when no time is written; nil when `time` is not a time.
  private static func day(_ daysBack: Int, at time: [String], now: Date, calendar: Calendar)
    -> Date?
  {
    guard let day = calendar.date(byAdding: .day, value: -daysBack, to: now) else { return nil }
    guard !time.isEmpty else {
      // A day without a time is its noon (as a date-only pattern reads), never after `now`.
      var wall = calendar.dateComponents([.year, .month, .day], from: day)
      wall.hour = 12
      return instant(of: wall, in: calendar, now: now).map { min($0, now) }
    }
    guard let clock = clockTime(time) else { return nil }
    var wall = calendar.dateComponents([.year, .month, .day], from: day)
    (wall.hour, wall.minute, wall.second) = (clock.hour, clock.minute, clock.second)
    return instant(of: wall, in: calendar, now: now)
  }

  /// `14:05`, `14:05:30`, `2:05 pm`, `2:05pm`, `2:05 p.m.` as hour, minute and second.
  private static func clockTime(_ tokens: [String]) -> (hour: Int, minute: Int, second: Int)? {
    var text = tokens.joined()
    var meridiem: String?
    for suffix in ["a.m.", "p.m.", "am", "pm"] where text.hasSuffix(suffix) {
      meridiem = String(suffix.prefix(1))
      text.removeLast(suffix.count)
      break
    }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard (2...3).contains(parts.count),
      parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(isASCIIDigit) }),
      var hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
    guard second < 60 else { return nil }
    if let meridiem {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "p" ? 12 : 0)
    }
    return hour < 24 ? (hour, minute, second) : nil
  }
}
