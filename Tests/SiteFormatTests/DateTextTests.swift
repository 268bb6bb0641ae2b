import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// Given date texts as the five European samples (and Kleinanzeigen's own page) write them, when
/// they are read with a definition's formats, then each is the instant it names in the site's zone;
/// texts no format reads are nil, and a bad format gets a message saying what is wrong and where.
@Suite struct DateTextTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin") ?? .gmt
  /// When the Kleinanzeigen, WG-Gesucht and ImmoScout samples were captured: 26 July 2026,
  /// 15:00 in Berlin.
  static let captured = instant("2026-07-26T13:00:00Z")

  /// `text` (written with a zone) as an instant, through Foundation's own reader.
  static func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text) ?? .distantPast
  }

  static func read(
    _ text: String, _ formats: [String] = ["dd.MM.yyyy", "relative"], now: Date = captured,
    zone: TimeZone = berlin, language: String = "de"
  ) -> Date? {
    DateText.parse(text, formats: formats, now: now, timeZone: zone, language: language)
  }

  // MARK: - Relative dates in the samples

  /// The other languages' relative dates, as Marktplaats, 2dehands and OLX.pl write them and
  /// as each language writes "N hours ago" (captured 15:00 in Berlin).
  @Test(
    arguments: [
      ("nl", "Vandaag", "2026-07-26T10:00:00Z"),
      ("nl", "Gisteren om 09:12", "2026-07-25T07:12:00Z"),
      ("nl", "3 uur geleden", "2026-07-26T10:00:00Z"), ("pl", "Dzisiaj o 17:22", nil),
      ("pl", "dzisiaj o 10:58", "2026-07-26T08:58:00Z"),
      ("pl", "3 godziny temu", "2026-07-26T10:00:00Z"),
      ("it", "Oggi alle 14:05", "2026-07-26T12:05:00Z"),
      ("it", "2 giorni fa", "2026-07-24T13:00:00Z"),
      ("fr", "il y a 3 heures", "2026-07-26T10:00:00Z"),
      ("fr", "hier à 09:12", "2026-07-25T07:12:00Z"),
      ("es", "hace 3 horas", "2026-07-26T10:00:00Z"), ("es", "ayer", "2026-07-25T10:00:00Z"),
      ("pt", "há 3 horas", "2026-07-26T10:00:00Z"), ("pt", "hoje às 14:05", "2026-07-26T12:05:00Z"),
      ("cs", "před 3 hodinami", "2026-07-26T10:00:00Z"), ("sk", "včera", "2026-07-25T10:00:00Z"),
    ] as [(String, String, String?)])
  func otherLanguagesRelativeDates(language: String, text: String, expected: String?) {
    // "Dzisiaj o 17:22" lies after the capture (15:00): a time today still to come is today's.
    let read = Self.read(text, ["relative"], language: language)
    if let expected {
      #expect(read == Self.instant(expected), "\(language) '\(text)'")
    } else {
      #expect(read == Self.instant("2026-07-26T15:22:00Z"), "\(language) '\(text)'")
    }
  }

  /// Month names are read in the site's language, then in English.
  @Test func monthNamesInTheSitesLanguage() {
    #expect(
      Self.read("03 lutego 2026", ["d MMMM yyyy"], language: "pl")
        == Self.instant("2026-02-03T11:00:00Z"))
    #expect(
      Self.read("03 February 2026", ["d MMMM yyyy"], language: "pl")
        == Self.instant("2026-02-03T11:00:00Z"))
    #expect(Self.read("03 lutego 2026", ["d MMMM yyyy"], language: "en") == nil)
  }

  /// ImmoScout's `published` (all 50 results: 19 forms). Days and longer count back on Berlin's
  /// calendar: five months before a summer afternoon is a winter afternoon at the same clock
  /// time, an hour's difference in UTC.
  @Test(arguments: [
    ("vor einem Monat", "2026-06-26T13:00:00Z"), ("vor 5 Monaten", "2026-02-26T14:00:00Z"),
    ("vor einem Tag", "2026-07-25T13:00:00Z"), ("vor einem Jahr", "2025-07-26T13:00:00Z"),
    ("vor 2 Jahren", "2024-07-26T13:00:00Z"), ("vor 3 Tagen", "2026-07-23T13:00:00Z"),
    ("vor 3 Monaten", "2026-04-26T13:00:00Z"), ("vor 8 Monaten", "2025-11-26T14:00:00Z"),
    ("vor 3 Stunden", "2026-07-26T10:00:00Z"), ("vor 4 Stunden", "2026-07-26T09:00:00Z"),
    ("vor 3 Jahren", "2023-07-26T13:00:00Z"), ("vor 7 Stunden", "2026-07-26T06:00:00Z"),
    ("vor 8 Stunden", "2026-07-26T05:00:00Z"), ("vor 19 Tagen", "2026-07-07T13:00:00Z"),
    ("vor 6 Monaten", "2026-01-26T14:00:00Z"), ("vor 9 Monaten", "2025-10-26T14:00:00Z"),
    ("vor 30 Minuten", "2026-07-26T12:30:00Z"), ("vor 8 Tagen", "2026-07-18T13:00:00Z"),
    ("vor 9 Stunden", "2026-07-26T04:00:00Z"),
  ])
  func immoScoutPublished(text: String, expected: String) {
    #expect(Self.read(text, ["relative"]) == Self.instant(expected))
  }

  /// WG-Gesucht's `Online: …` (all 26 cards: 12 forms): how long the offer has been online.
  @Test(arguments: [
    ("Online: 1 Stunde", "2026-07-26T12:00:00Z"), ("Online: 12 Stunden", "2026-07-26T01:00:00Z"),
    ("Online: 13 Stunden", "2026-07-26T00:00:00Z"), ("Online: 3 Minuten", "2026-07-26T12:57:00Z"),
    ("Online: 5 Minuten", "2026-07-26T12:55:00Z"), ("Online: 7 Minuten", "2026-07-26T12:53:00Z"),
    ("Online: 19 Minuten", "2026-07-26T12:41:00Z"), ("Online: 26 Minuten", "2026-07-26T12:34:00Z"),
    ("Online: 42 Minuten", "2026-07-26T12:18:00Z"), ("Online: 52 Minuten", "2026-07-26T12:08:00Z"),
    ("Online: 57 Minuten", "2026-07-26T12:03:00Z"), ("Online: 59 Minuten", "2026-07-26T12:01:00Z"),
  ])
  func wgGesuchtOnline(text: String, expected: String) {
    #expect(Self.read(text, ["relative"]) == Self.instant(expected))
  }

  /// Kleinanzeigen's forms (its sample's date cells are empty; these are what its pages write)
  /// and the other German ones listing pages use.
  @Test(arguments: [
    ("Heute, 14:05", "2026-07-26T12:05:00Z"), ("Gestern, 09:12", "2026-07-25T07:12:00Z"),
    ("vor 3 Std.", "2026-07-26T10:00:00Z"), ("vor 5 Minuten", "2026-07-26T12:55:00Z"),
    ("vor 1 Tag", "2026-07-25T13:00:00Z"), ("vor 2 Tagen", "2026-07-24T13:00:00Z"),
    ("Online: 3 Stunden", "2026-07-26T10:00:00Z"), ("24.07.2026", "2026-07-24T10:00:00Z"),
    ("gerade eben", "2026-07-26T13:00:00Z"), ("Heute", "2026-07-26T10:00:00Z"),
    ("heute um 14:05 Uhr", "2026-07-26T12:05:00Z"), ("Vorgestern, 23:59", "2026-07-24T21:59:00Z"),
    ("vor 2 Wochen", "2026-07-12T13:00:00Z"), ("vor 10 Sek.", "2026-07-26T12:59:50Z"),
    ("  HEUTE,\u{A0}14:05 ", "2026-07-26T12:05:00Z"), ("vor 1 Min.", "2026-07-26T12:59:00Z"),
  ])
  func germanForms(text: String, expected: String) {
    #expect(Self.read(text) == Self.instant(expected))
  }

  /// The English forms, read with language "en".
  @Test(arguments: [
    ("today 14:05", "2026-07-26T12:05:00Z"), ("Today, 2:05 pm", "2026-07-26T12:05:00Z"),
    ("today at 2:05PM", "2026-07-26T12:05:00Z"), ("yesterday", "2026-07-25T10:00:00Z"),
    ("Yesterday, 12:30 a.m.", "2026-07-24T22:30:00Z"), ("3 hours ago", "2026-07-26T10:00:00Z"),
    ("2 days ago", "2026-07-24T13:00:00Z"), ("just now", "2026-07-26T13:00:00Z"),
    ("an hour ago", "2026-07-26T12:00:00Z"), ("a month ago", "2026-06-26T13:00:00Z"),
    ("5 mins ago", "2026-07-26T12:55:00Z"), ("Online: 3 hours", "2026-07-26T10:00:00Z"),
  ])
  func englishForms(text: String, expected: String) {
    #expect(Self.read(text, language: "en") == Self.instant(expected))
  }

  // MARK: - Clock changes in Berlin

  /// 29 March 2026: the clock goes from 02:00 to 03:00. A time it never shows is read with the
  /// offset before the change (02:30 CET, the instant the clock showed as 03:30); a relative day
  /// keeps the clock time (23 hours back), relative hours are elapsed time.
  @Test func springForward() {
    let now = Self.instant("2026-03-29T08:00:00Z")  // 10:00 CEST
    #expect(Self.read("Heute, 02:30", now: now) == Self.instant("2026-03-29T01:30:00Z"))
    #expect(Self.read("Heute, 01:30", now: now) == Self.instant("2026-03-29T00:30:00Z"))
    #expect(Self.read("Heute, 03:30", now: now) == Self.instant("2026-03-29T01:30:00Z"))
    #expect(Self.read("vor 1 Tag", now: now) == Self.instant("2026-03-28T09:00:00Z"))
    #expect(Self.read("vor 3 Std.", now: now) == Self.instant("2026-03-29T05:00:00Z"))
    let dayAfter = Self.instant("2026-03-30T08:00:00Z")
    #expect(Self.read("Gestern, 02:30", now: dayAfter) == Self.instant("2026-03-29T01:30:00Z"))
    // ICU alone refuses the skipped time; the pattern is read as wall-clock fields instead.
    let written = Self.read("29.03.2026 02:30", ["dd.MM.yyyy HH:mm"], now: now)
    #expect(written == Self.instant("2026-03-29T01:30:00Z"))
  }

  /// 25 October 2026: the clock shows 02:00-03:00 twice (CEST, then CET). The later instant is
  /// taken unless it is after now; a relative day back spans 25 hours.
  @Test func fallBack() {
    let noon = Self.instant("2026-10-25T11:00:00Z")
    #expect(Self.read("Heute, 02:30", now: noon) == Self.instant("2026-10-25T01:30:00Z"))
    let firstPass = Self.instant("2026-10-25T00:40:00Z")  // 02:40 CEST
    #expect(Self.read("Heute, 02:30", now: firstPass) == Self.instant("2026-10-25T00:30:00Z"))
    let secondPass = Self.instant("2026-10-25T01:40:00Z")  // 02:40 CET
    #expect(Self.read("Heute, 02:35", now: secondPass) == Self.instant("2026-10-25T01:35:00Z"))
    #expect(Self.read("Heute, 02:45", now: secondPass) == Self.instant("2026-10-25T00:45:00Z"))
    #expect(Self.read("vor 1 Tag", now: noon) == Self.instant("2026-10-24T10:00:00Z"))
    let written = Self.read("25.10.2026 02:30", ["dd.MM.yyyy HH:mm"], now: noon)
    #expect(written == Self.instant("2026-10-25T01:30:00Z"))
  }

  // MARK: - Fixed formats in the samples

  /// WG-Gesucht's availability dates (all 26 cards: 13 dates, 5 of them ranges): a single date
  /// is Berlin's noon of that day, the same date in UTC (midnight was the day before, 22:00Z);
  /// a range is no date (a definition captures one side).
  @Test(arguments: [
    "01.08.2026", "01.09.2026", "26.07.2026", "01.10.2026", "07.10.2026", "15.09.2026",
    "01.11.2026", "15.08.2026", "04.08.2026", "30.04.2027", "30.06.2027", "30.10.2026",
    "01.03.2027",
  ])
  func wgGesuchtDates(text: String) throws {
    let date = try #require(Self.read(text, ["dd.MM.yyyy"]))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = Self.berlin
    let parts = calendar.dateComponents([.day, .month, .year, .hour, .minute], from: date)
    let shown = String(format: "%02d.%02d.%04d", parts.day ?? 0, parts.month ?? 0, parts.year ?? 0)
    #expect(shown == text && parts.hour == 12 && parts.minute == 0)
    calendar.timeZone = .gmt
    let utc = calendar.dateComponents([.day, .month, .year], from: date)
    #expect(String(format: "%02d.%02d.%04d", utc.day ?? 0, utc.month ?? 0, utc.year ?? 0) == text)
    #expect(Self.read("\(text) - 30.06.2027", ["dd.MM.yyyy"]) == nil)
  }

  /// Today's date without a time, read in the morning, is `now` (noon has not come), and
  /// `Heute` alone likewise; yesterday's is its noon.
  @Test func aDayWithoutATimeIsNeverAfterNow() {
    let morning = Self.instant("2026-07-26T06:30:00Z")
    #expect(Self.read("26.07.2026", ["dd.MM.yyyy"], now: morning) == morning)
    #expect(Self.read("Heute", ["relative"], now: morning) == morning)
    #expect(
      Self.read("25.07.2026", ["dd.MM.yyyy"], now: morning) == Self.instant("2026-07-25T10:00:00Z"))
    #expect(
      Self.read("Gestern", ["relative"], now: morning) == Self.instant("2026-07-25T10:00:00Z"))
  }

  /// willhaben's `PUBLISHED` (milliseconds since 1970) and `PUBLISHED_String` (ISO 8601, whole
  /// seconds) of all 30 adverts. The string's `Z` is false: it is Vienna's clock time (two hours
  /// ahead in August), so a definition should read `PUBLISHED` with "unix_ms".
  @Test(arguments: [
    ("2026-08-22T16:10:00Z", "1787407800000"), ("2026-08-22T16:08:30Z", "1787407710615"),
    ("2026-08-22T16:06:00Z", "1787407560000"), ("2026-08-22T15:55:34Z", "1787406934073"),
    ("2026-08-22T15:55:25Z", "1787406925942"), ("2026-08-22T15:55:00Z", "1787406900000"),
    ("2026-08-22T15:46:00Z", "1787406360000"), ("2026-08-22T15:45:16Z", "1787406316379"),
    ("2026-08-22T15:11:49Z", "1787404309799"), ("2026-08-22T15:08:10Z", "1787404090219"),
    ("2026-08-22T15:07:57Z", "1787404077847"), ("2026-08-22T15:01:15Z", "1787403675920"),
    ("2026-08-22T15:01:11Z", "1787403671546"), ("2026-08-22T14:56:00Z", "1787403360000"),
    ("2026-08-22T14:54:22Z", "1787403262136"), ("2026-08-22T14:51:48Z", "1787403108742"),
    ("2026-08-22T14:49:54Z", "1787402994888"), ("2026-08-22T14:38:00Z", "1787402280000"),
    ("2026-08-22T14:35:35Z", "1787402135160"), ("2026-08-22T14:35:35Z", "1787402135012"),
    ("2026-08-22T14:35:34Z", "1787402134862"), ("2026-08-22T14:27:20Z", "1787401640644"),
    ("2026-08-22T14:25:00Z", "1787401500000"), ("2026-08-22T14:16:00Z", "1787400960000"),
    ("2026-08-22T14:05:23Z", "1787400323984"), ("2026-08-22T13:41:15Z", "1787398875020"),
  ])
  func willhabenPublished(iso: String, milliseconds: String) throws {
    let vienna = TimeZone(identifier: "Europe/Vienna") ?? .gmt
    let read = try #require(Self.read(iso, ["iso8601"], zone: vienna))
    let counted = try #require(Self.read(milliseconds, ["unix_ms"], zone: vienna))
    #expect(read == Self.instant(iso))
    let behind = counted.timeIntervalSince(read) + 7200
    #expect(behind >= 0 && behind < 1)
    let wallClock = try #require(Self.read(String(iso.dropLast()), ["iso8601"], zone: vienna))
    #expect(counted.timeIntervalSince(wallClock) >= 0 && counted.timeIntervalSince(wallClock) < 1)
  }

  /// flatfox's `created` and `published` (six fraction digits, an offset) and `moving_date`
  /// (a date alone: Zurich's midnight).
  @Test func flatfoxDates() throws {
    let zurich = TimeZone(identifier: "Europe/Zurich") ?? .gmt
    let published = try #require(
      Self.read("2026-08-20T14:06:30.322271+02:00", ["iso8601"], zone: zurich))
    let expected = Self.instant("2026-08-20T12:06:30Z").addingTimeInterval(0.322271)
    #expect(abs(published.timeIntervalSince(expected)) < 0.000_001)
    let created = Self.read("2025-07-10T13:42:53.788206+02:00", ["iso8601"], zone: zurich)
    #expect(created.map { Int($0.timeIntervalSince1970) } == 1_752_147_773)
    #expect(
      Self.read("2026-09-01", ["iso8601"], zone: zurich) == Self.instant("2026-08-31T22:00:00Z"))
  }

  /// ISO 8601 without a zone is the site's wall clock; the other zone spellings.
  @Test(arguments: [
    "2026-08-22T16:10:00", "2026-08-22 16:10", "2026-08-22T14:10:00Z", "2026-08-22T16:10+02:00",
    "2026-08-22T16:10:00+0200", "2026-08-22T16:10:00+02", "2026-08-22t14:10:00.000z",
    "2026-08-22T10:10:00-04:00",
  ])
  func iso8601Spellings(text: String) {
    let vienna = TimeZone(identifier: "Europe/Vienna") ?? .gmt
    #expect(Self.read(text, ["iso8601"], zone: vienna) == Self.instant("2026-08-22T14:10:00Z"))
  }

  /// ICU patterns: with a zone in the text, with a two-digit year after a four-digit one that
  /// refuses it, without a year (the latest year not after now), and a time alone (today).
  @Test func icuPatterns() {
    let zoned = Self.read("2026-08-22T18:10:00+02:00", ["yyyy-MM-dd'T'HH:mm:ssZZZZZ"])
    #expect(zoned == Self.instant("2026-08-22T16:10:00Z"))
    #expect(Self.read("24.07.26", ["dd.MM.yyyy"]) == nil)
    let short = Self.read("24.07.26", ["dd.MM.yyyy", "dd.MM.yy"])
    #expect(short == Self.instant("2026-07-24T10:00:00Z"))
    let withTime = Self.read("24.07.2026 14:05", ["dd.MM.yyyy HH:mm"])
    #expect(withTime == Self.instant("2026-07-24T12:05:00Z"))
    #expect(Self.read("24.07.", ["dd.MM."]) == Self.instant("2026-07-24T10:00:00Z"))
    let newYear = Self.instant("2027-01-02T10:00:00Z")
    #expect(Self.read("28.12.", ["dd.MM."], now: newYear) == Self.instant("2026-12-28T11:00:00Z"))
    #expect(Self.read("14:05", ["HH:mm"]) == Self.instant("2026-07-26T12:05:00Z"))
    let named = Self.read("Fri, 24 Jul 2026 14:05", ["EEE, dd MMM yyyy HH:mm"])
    #expect(named == Self.instant("2026-07-24T12:05:00Z"))
    #expect(Self.read("1787407800", ["unix"]) == Self.instant("2026-08-22T14:10:00Z"))
  }

  /// The first format that reads the whole text wins; relative dates only when "relative" is
  /// listed, after every fixed format, whatever its place in the list.
  @Test func formatOrder() {
    let both = ["relative", "unix", "iso8601"]
    #expect(Self.read("2026-08-22T16:10:00Z", both) == Self.instant("2026-08-22T16:10:00Z"))
    #expect(Self.read("1787407800", both) == Self.instant("2026-08-22T14:10:00Z"))
    #expect(
      Self.read("1787407800000", ["unix_ms", "unix"]) == Self.instant("2026-08-22T14:10:00Z"))
    #expect(Self.read("Heute, 14:05", ["dd.MM.yyyy"]) == nil)
    #expect(Self.read("Heute, 14:05", ["relative"]) == Self.instant("2026-07-26T12:05:00Z"))
  }

  // MARK: - Wrong texts and bad formats

  /// Texts that are no date in the given formats and language.
  @Test(arguments: [
    "", "   ", "-", "morgen", "vor Stunden", "vor -3 Std.", "vor 3", "3 Stunden", "vor 3 Std. x",
    "Heute, 25:00", "Heute, 14:60", "Heute 14", "Heute, 14:05 Uhr x", "today 14:05", "3 hours ago",
    "24.07.2026 x", "32.07.2026", "31.02.2026", "24-07-2026", "Online:", "Online: viele Stunden",
    "vor 1234567 Tagen", "2026-08-22T16:10:00", "1787407800",
  ])
  func notADate(text: String) {
    #expect(Self.read(text) == nil)
  }

  /// Wrong ISO 8601 and counts, and a language with no relative words.
  @Test func notADateInOtherFormats() {
    for text in [
      "2026-8-22", "2026-08-22T16", "2026-08-22T16:10:00+2", "2026-13-01", "2026-08-22X",
    ] {
      #expect(Self.read(text, ["iso8601"]) == nil, "\(text)")
    }
    for text in ["1.2.3", "12a", "-", "1234567890123456"] {
      #expect(Self.read(text, ["unix"]) == nil, "\(text)")
    }
    #expect(Self.read("vor 3 Std.", ["relative"], language: "fr") == nil)
    #expect(Self.read("Heute, 14:05", ["relative"], language: "en") == nil)
    #expect(Self.read("24.07.2026", ["dd.MM.yyyf"]) == nil)
  }

  @Test(arguments: [
    "dd.MM.yyyy", "dd.MM.yyyy HH:mm", "yyyy-MM-dd'T'HH:mm:ssZZZZZ", "iso8601", "unix", "unix_ms",
    "relative", "dd.MM.yyyy 'um' HH:mm 'Uhr'", "h:mm a", "EEE, dd MMM yyyy HH:mm:ss Z", "''yy",
    "dd.MM.", "HH:mm",
  ])
  func usableFormats(format: String) {
    #expect(DateText.checkFormat(format) == nil)
  }

  @Test(arguments: [
    ("", "date format is empty"),
    ("  ", "date format is empty"),
    (
      "dd.MM.yyyf",
      "unknown pattern letter 'f' at offset 9 in date format 'dd.MM.yyyf'; "
        + "write literal text in single quotes: 'f'"
    ),
    (
      "yyyy-MM-ddTHH:mm",
      "unknown pattern letter 'T' at offset 10 in date format 'yyyy-MM-ddTHH:mm'; "
        + "write literal text in single quotes: 'T'"
    ),
    (
      "iso-8601",
      "unknown pattern letter 'i' at offset 0 in date format 'iso-8601'; did you mean 'iso8601'?"
    ),
    (
      "relativ",
      "unknown pattern letter 'l' at offset 2 in date format 'relativ'; did you mean 'relative'?"
    ),
    (
      "unixms",
      "unknown pattern letter 'n' at offset 1 in date format 'unixms'; did you mean 'unix_ms'?"
    ),
    (
      "dd.MM.yyyy 'um HH:mm",
      "quote at offset 11 in date format 'dd.MM.yyyy 'um HH:mm' is not closed; "
        + "literal text goes between two single quotes"
    ),
    ("'heute'", "date format ''heute'' has no date or time field"),
    ("..", "date format '..' has no date or time field"),
  ])
  func badFormats(format: String, message: String) {
    #expect(DateText.checkFormat(format) == message)
  }

  /// Formatters are shared through a locked cache: many tasks reading at once get what one does.
  @Test func concurrentReadsAgree() async {
    let texts = ["24.07.2026", "Heute, 14:05", "01.10.2026", "vor 3 Std."]
    let expected = texts.map { Self.read($0) }
    let results = await withTaskGroup(of: [Date?].self) { group in
      for _ in 0..<8 {
        group.addTask { (0..<200).map { texts[$0 % texts.count] }.map { Self.read($0) } }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8)
    for batch in results {
      #expect(batch == (0..<200).map { expected[$0 % texts.count] })
    }
  }
}
