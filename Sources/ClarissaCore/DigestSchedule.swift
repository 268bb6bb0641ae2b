public import Foundation

/// When a channel's digest goes (`digest: daily 08:00`, `digest: weekly mon 08:00`, a time zone
/// after the time or the machine's): everything owed to the channel since the last digest, in
/// one message (every search's part of it), at the first scheduled time after the oldest of it
/// was owed.
public struct DigestSchedule: Sendable, Equatable, CustomStringConvertible {
  /// The day of a weekly digest; nil: daily.
  public var day: Weekday?
  /// The local time it goes.
  public var time: TimeOfDay
  /// IANA time zone identifier; nil: the machine's.
  public var timeZone: String?

  /// Creates a schedule.
  public init(day: Weekday? = nil, time: TimeOfDay, timeZone: String? = nil) {
    self.day = day
    self.time = time
    self.timeZone = timeZone
  }

  /// The words `digest:` takes first.
  public static let kinds = ["daily", "weekly"]

  /// The first scheduled time at or after `date`; a time that does not exist on a
  /// spring-forward day moves to the next valid one.
  public func occurrence(atOrAfter date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone.flatMap(TimeZone.init(identifier:)) ?? .current
    var wanted = DateComponents(hour: time.minutes / 60, minute: time.minutes % 60, second: 0)
    // Calendar counts Sunday as 1; Weekday starts on Monday.
    if let day { wanted.weekday = (day.index + 1) % 7 + 1 }
    return calendar.nextDate(
      after: date.addingTimeInterval(-0.001), matching: wanted, matchingPolicy: .nextTime)
      ?? date.addingTimeInterval(day == nil ? 86_400 : 7 * 86_400)
  }

  public var description: String {
    ([day == nil ? "daily" : "weekly", day?.rawValue, time.description, timeZone]
      .compactMap { $0 }).joined(separator: " ")
  }

  /// What is wrong with a written schedule: the message and the word at fault.
  public struct Problem: Error, Equatable {
    /// Lowercase, with the value quoted.
    public var message: String
    /// The word the message is about (to point at it), nil for the whole value.
    public var word: String?
  }

  /// `daily 08:00`, `weekly mon 08:00`, either with an IANA time zone after the time.
  public static func parse(_ text: String) -> Result<DigestSchedule, Problem> {
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    let example = "as in 'daily 08:00' or 'weekly mon 08:00 Europe/Paris'"
    guard let kind = words.first?.lowercased(), kinds.contains(kind) else {
      let word = words.first ?? ""
      let hint = Suggestions.hint(for: word.lowercased(), in: kinds + ["true", "false"])
      return .failure(
        Problem(
          message: "unknown digest schedule '\(word)'\(hint) (write true, false, 'daily 08:00' "
            + "or 'weekly mon 08:00 Europe/Paris')", word: word))
    }
    var rest = words.dropFirst()
    var day: Weekday?
    if kind == "weekly" {
      guard let written = rest.first else {
        return .failure(Problem(message: "a weekly digest needs a day, \(example)", word: nil))
      }
      guard let found = Weekday.named(written) else {
        let names = Weekday.allCases.map(\.rawValue) + Weekday.longNames
        let hint = Suggestions.hint(for: written.lowercased(), in: names)
        return .failure(Problem(message: "unknown day '\(written)'\(hint)", word: written))
      }
      day = found
      rest = rest.dropFirst()
    }
    guard let written = rest.first else {
      return .failure(Problem(message: "a digest needs a time, \(example)", word: nil))
    }
    guard let time = TimeOfDay(parsing: written), time.minutes < 1440 else {
      return .failure(
        Problem(
          message: "expected a 24-hour time such as '08:00', found '\(written)'", word: written))
    }
    rest = rest.dropFirst()
    var zone: String?
    if let written = rest.first {
      guard written == "UTC" || TimeZone(identifier: written) != nil else {
        return .failure(Problem(message: "unknown time zone '\(written)'", word: written))
      }
      zone = written
      rest = rest.dropFirst()
    }
    if let extra = rest.first {
      return .failure(
        Problem(message: "unexpected '\(extra)' after the digest's time zone", word: extra))
    }
    return .success(DigestSchedule(day: day, time: time, timeZone: zone))
  }
}

extension Weekday {
  /// The days' English names, Monday first.
  package static let longNames = [
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
  ]

  /// A day by its short or long English name, in any case (`mon`, `Monday`).
  static func named(_ text: String) -> Weekday? {
    let word = text.lowercased()
    return zip(allCases, longNames).first { word == $0.rawValue || word == $1 }?.0
  }
}
