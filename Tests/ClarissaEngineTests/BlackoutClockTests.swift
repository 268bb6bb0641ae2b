import ClarissaCore
import ClarissaEngine
import Foundation
import ListingStore
import Testing

/// Quiet-hours windows in their own time zone, wrapping midnight and across DST changes.
@Suite struct BlackoutClockTests {
  static func date(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
  }

  static func window(
    _ from: String, _ to: String, zone: String = "America/New_York",
    days: Set<Weekday> = Set(Weekday.allCases)
  ) -> BlackoutWindow {
    BlackoutWindow(
      name: "w", timeZone: zone, days: days,
      from: TimeOfDay(parsing: from) ?? TimeOfDay(minutes: 0),
      to: TimeOfDay(parsing: to) ?? TimeOfDay(minutes: 0))
  }

  @Test(arguments: [
    ("2026-06-10T22:59:00-04:00", false), ("2026-06-10T23:00:00-04:00", true),
    ("2026-06-11T03:00:00-04:00", true), ("2026-06-11T06:59:59-04:00", true),
    ("2026-06-11T07:00:00-04:00", false),
  ])
  func wrapsMidnight(time: String, inside: Bool) {
    #expect(
      (Self.window("23:00", "07:00").occurrence(containing: Self.date(time)) != nil) == inside)
  }

  @Test func daysAreTheDaysTheWindowStarts() {
    // Friday 23:00 to Saturday 07:00 belongs to Friday's window.
    let fridays = Self.window("23:00", "07:00", days: [.fri])
    #expect(
      fridays.occurrence(containing: Self.date("2026-06-13T02:00:00-04:00")) != nil,
      "Saturday 02:00")
    #expect(
      fridays.occurrence(containing: Self.date("2026-06-14T02:00:00-04:00")) == nil, "Sunday 02:00")
  }

  @Test func springForwardNightIsAnHourShorter() throws {
    // 2026-03-08: New York clocks go from 02:00 EST to 03:00 EDT.
    let night = Self.window("22:00", "07:00")
    let occurrence = try #require(
      night.occurrence(containing: Self.date("2026-03-08T04:00:00-04:00")))
    #expect(occurrence.duration == 8 * 3600)
    #expect(occurrence.end == Self.date("2026-03-08T07:00:00-04:00"))
    #expect(night.occurrence(containing: Self.date("2026-03-08T07:00:00-04:00")) == nil)
  }

  @Test func aStartThatDoesNotExistMovesToTheNextValidTime() throws {
    // 02:30 does not exist on 2026-03-08 in New York; the window starts at 03:00 EDT.
    let window = Self.window("02:30", "04:00")
    let occurrence = try #require(
      window.occurrence(containing: Self.date("2026-03-08T03:10:00-04:00")))
    #expect(
      occurrence.start == Self.date("2026-03-08T03:00:00-04:00")
        || occurrence.start == Self.date("2026-03-08T03:30:00-04:00"))
    #expect(window.occurrence(containing: Self.date("2026-03-08T01:59:00-05:00")) == nil)
  }

  @Test func fallBackNightIsAnHourLonger() throws {
    // 2026-11-01: New York clocks go from 02:00 EDT back to 01:00 EST.
    let night = Self.window("22:00", "07:00")
    let occurrence = try #require(
      night.occurrence(containing: Self.date("2026-11-01T01:30:00-05:00")))
    #expect(occurrence.duration == 10 * 3600)
    #expect(occurrence.end == Self.date("2026-11-01T07:00:00-05:00"))
  }

  @Test func aRepeatedHourCountsItsFirstOccurrence() {
    // 01:00-01:45 on the fall-back day means the first (EDT) pass through that hour.
    let window = Self.window("01:00", "01:45")
    #expect(
      window.occurrence(containing: Self.date("2026-11-01T01:30:00-04:00")) != nil, "01:30 EDT")
    #expect(
      window.occurrence(containing: Self.date("2026-11-01T01:30:00-05:00")) == nil,
      "01:30 EST, an hour later")
  }

  @Test func otherZonesKeepTheirOwnClock() {
    let paris = Self.window("22:00", "07:00", zone: "Europe/Paris")
    // 2026-03-29: Paris springs forward; 05:30 UTC is 07:30 CEST, outside.
    #expect(paris.occurrence(containing: Self.date("2026-03-29T04:30:00Z")) != nil, "06:30 CEST")
    #expect(paris.occurrence(containing: Self.date("2026-03-29T05:30:00Z")) == nil, "07:30 CEST")
  }
}
