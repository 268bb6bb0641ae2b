public import ClarissaCore
public import Foundation

extension BlackoutWindow {
  /// The occurrence of the window that covers `date`, if one does: it started on one of the
  /// window's days (today or, for a window past midnight, yesterday) in the window's time zone.
  /// A start or end that does not exist on a spring-forward day moves to the next valid time; one
  /// that exists twice on a fall-back day is its first occurrence.
  public func occurrence(containing date: Date) -> DateInterval? {
    guard let zone = TimeZone(identifier: timeZone) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let today = calendar.startOfDay(for: date)
    for offset in [0, -1] {
      guard let day = calendar.date(byAdding: .day, value: offset, to: today),
        days.contains(Self.weekday(of: day, in: calendar)),
        let start = Self.time(from, on: day, in: calendar),
        let endDay = wrapsMidnight ? calendar.date(byAdding: .day, value: 1, to: day) : day,
        let end = Self.time(to, on: endDay, in: calendar), start < end
      else { continue }
      if start <= date && date < end { return DateInterval(start: start, end: end) }
    }
    return nil
  }

  private static func weekday(of day: Date, in calendar: Calendar) -> Weekday {
    // Calendar counts Sunday as 1; Weekday starts on Monday.
    let index = (calendar.component(.weekday, from: day) + 5) % 7
    return Weekday.allCases[index]
  }

  private static func time(_ time: TimeOfDay, on day: Date, in calendar: Calendar) -> Date? {
    if time.minutes == 1440 { return calendar.date(byAdding: .day, value: 1, to: day) }
    return calendar.date(
      bySettingHour: time.minutes / 60, minute: time.minutes % 60, second: 0, of: day,
      matchingPolicy: .nextTime, repeatedTimePolicy: .first, direction: .forward)
  }
}
