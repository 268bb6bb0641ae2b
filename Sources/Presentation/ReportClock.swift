internal import ClarissaCore
public import Foundation

/// Times as a report says them: the local clock time, with the day when it is not today.
public enum ReportClock {
  /// "18:05", "02:15 tomorrow", or "2026-05-04 02:15" further off.
  public static func time(_ date: Date, now: Date, timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let clock = DateFormat.pattern("HH:mm", zone: timeZone).string(from: date)
    if calendar.isDate(date, inSameDayAs: now) { return clock }
    if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now),
      calendar.isDate(date, inSameDayAs: tomorrow)
    {
      return clock + " tomorrow"
    }
    return DateFormat.pattern("yyyy-MM-dd HH:mm", zone: timeZone).string(from: date)
  }

  /// "12 min", "2 h 5 min", "3 d 4 h": a wait, rounded up to the minute.
  public static func span(_ seconds: Double) -> String {
    let minutes = max(1, CheckedNumber.clampedInteger((seconds / 60).rounded(.up)))
    if minutes < 60 { return "\(minutes) min" }
    if minutes < 24 * 60 {
      return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
    let hours = minutes / 60
    return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
  }
}
