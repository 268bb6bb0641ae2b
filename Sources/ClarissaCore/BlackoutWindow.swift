/// A named quiet-hours window: on the given days, from one time to another in an IANA time zone.
/// `from` later than `to` wraps past midnight into the next day.
public struct BlackoutWindow: Sendable, Equatable {
  /// What happens to searches during the window.
  public enum Mode: String, Sendable, CaseIterable {
    /// Searches run; new listings are held and delivered by the first run after the window.
    case hold
    /// Searches do not run during the window.
    case skip
  }

  /// The window's name in the config.
  public var name: String
  /// IANA time zone identifier (`Europe/Paris`).
  public var timeZone: String
  /// Days on which the window starts.
  public var days: Set<Weekday>
  /// Local start time.
  public var from: TimeOfDay
  /// Local end time; earlier than `from` means the next day.
  public var to: TimeOfDay
  /// Hold or skip.
  public var mode: Mode
  /// Where the window is written.
  public var location: SourceLocation?

  /// Creates a window.
  public init(
    name: String, timeZone: String, days: Set<Weekday> = Set(Weekday.allCases), from: TimeOfDay,
    to: TimeOfDay, mode: Mode = .hold, location: SourceLocation? = nil
  ) {
    self.name = name
    self.timeZone = timeZone
    self.days = days
    self.from = from
    self.to = to
    self.mode = mode
    self.location = location
  }

  /// True when the window runs past midnight.
  public var wrapsMidnight: Bool { to <= from }
}

/// A day of the week, named as in configs (`mon` ... `sun`).
public enum Weekday: String, Sendable, CaseIterable, Hashable, Comparable {
  case mon, tue, wed, thu, fri, sat, sun

  /// Monday is 0.
  public var index: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.index < rhs.index }
}

/// A wall-clock time `HH:MM`, from `00:00` to `24:00`.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Minutes since midnight, 0...1440.
  public var minutes: Int

  /// Creates a time from minutes since midnight.
  public init(minutes: Int) { self.minutes = minutes }

  /// Parses `H:MM` or `HH:MM` (24-hour clock; `24:00` is the end of the day).
  public init?(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let hour = Int(parts[0]), let minute = Int(parts[1]),
      (0...23).contains(hour) && (0...59).contains(minute) || (hour == 24 && minute == 0)
    else { return nil }
    self.minutes = hour * 60 + minute
  }

  public var description: String {
    let hour = minutes / 60
    let minute = minutes % 60
    return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
  }

  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }
}
