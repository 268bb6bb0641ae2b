import ClarissaCore
import Foundation
import Testing

/// The shared formats write and read what a formatter made for the call did, and stay right
/// when many threads use one format at once.
@Suite struct DateFormatTests {
  /// 2026-05-03 19:00:00 UTC.
  static let evening = Date(timeIntervalSince1970: 1_777_834_800)

  @Test func internetTimesAreRFC3339InUTC() {
    #expect(DateFormat.internet.string(from: Self.evening) == "2026-05-03T19:00:00Z")
    #expect(DateFormat.internet.date(from: "2026-05-03T21:00:00+02:00") == Self.evening)
    let later = Self.evening.addingTimeInterval(0.25)
    #expect(DateFormat.internetFractional.string(from: later) == "2026-05-03T19:00:00.250Z")
    #expect(DateFormat.internetFractional.date(from: "2026-05-03T19:00:00.250Z") == later)
    #expect(DateFormat.internet.date(from: "3 May 2026") == nil)
  }

  @Test func aZoneIsPartOfTheFormat() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    #expect(
      DateFormat.iso8601(zone: berlin).string(from: Self.evening) == "2026-05-03T21:00:00+02:00")
    #expect(
      DateFormat.iso8601(zone: tokyo).string(from: Self.evening) == "2026-05-04T04:00:00+09:00")
    #expect(
      DateFormat.pattern("yyyy-MM-dd HH:mm", zone: berlin).string(from: Self.evening)
        == "2026-05-03 21:00")
    #expect(
      DateFormat.pattern("yyyy-MM-dd HH:mm", zone: tokyo).string(from: Self.evening)
        == "2026-05-04 04:00")
    #expect(
      DateFormat.pattern("yyyy-MM-dd HH:mm", zone: berlin).date(from: "2026-05-03 21:00")
        == Self.evening)
  }

  @Test func patternsUseThePOSIXLocale() {
    let http = DateFormat.pattern("EEE, dd MMM yyyy HH:mm:ss zzz", zone: .gmt)
    #expect(http.string(from: Self.evening) == "Sun, 03 May 2026 19:00:00 GMT")
    #expect(http.date(from: "Sun, 03 May 2026 19:00:00 GMT") == Self.evening)
  }

  @Test func aStrictPatternRefusesWhatALenientOneTakes() {
    let strict = DateFormat.pattern("dd.MM.yyyy", zone: .gmt, strict: true)
    #expect(strict.date(from: "31.02.2026") == nil)
    #expect(strict.date(from: "28.02.2026") != nil)
  }

  /// One format from eight threads at once, writing and reading: every answer is the one a
  /// formatter of its own would give.
  @Test func oneFormatServesManyThreadsAtOnce() async throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    let wrong = await withTaskGroup(of: Int.self) { group in
      for thread in 0..<8 {
        group.addTask {
          var wrong = 0
          let own = DateFormatter()
          own.locale = Locale(identifier: "en_US_POSIX")
          own.timeZone = berlin
          own.dateFormat = "yyyy-MM-dd HH:mm:ss"
          for step in 0..<2_000 {
            let date = Self.evening.addingTimeInterval(Double(thread * 100_000 + step * 61))
            let text = DateFormat.pattern("yyyy-MM-dd HH:mm:ss", zone: berlin).string(from: date)
            if text != own.string(from: date) { wrong += 1 }
            if DateFormat.internet.date(from: DateFormat.internet.string(from: date)) != date {
              wrong += 1
            }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
  }
}
