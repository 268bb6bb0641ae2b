import FixtureSupport
import Foundation
import Testing

@testable import Feeds

/// Given RFC 822 dates, when the positional reader of the usual form and the general reader
/// both read one, then they give the same date; texts the positional reader does not take are
/// left to the general one. Over every date element of the fixtures, and a made-up date every
/// few hours across two centuries in every zone form.
@Suite struct FeedDateTests {
  @Test func theUsualFormReadsAsTheGeneralReaderReadsIt() {
    var texts: [String] = []
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    let zones = ["+0000", "-0800", "+0530", "GMT", "UT", "UTC", "+1400", "-1200"]
    var seconds = -2_208_988_800.0  // 1900
    var step = 0
    while seconds < 4_102_444_800 {  // 2100
      let date = Date(timeIntervalSince1970: seconds)
      formatter.timeZone = TimeZone(secondsFromGMT: [0, -28_800, 19_800][step % 3])
      formatter.dateFormat = step % 2 == 0 ? "EEE, dd MMM yyyy HH:mm:ss" : "d MMM yyyy HH:mm:ss"
      texts.append(formatter.string(from: date) + " " + zones[step % zones.count])
      seconds += 1_999 * 3_600 + 1_234
      step += 1
    }
    texts += [
      "Tue, 10 Jun 2003 04:00:00 GMT", "10 Jun 2003 04:00:00 +0000", "Sat, 1 Jan 2000 00:00:60 UT",
      "Sun, 31 Feb 2021 24:00:00 +0000", "Mon, 00 Jan 2020 10:00:00 +0000",
      "Mon, 45 Jan 2020 10:00:00 +0000", "Fri, 10 JUN 2003 04:00:00 -0599",
    ]
    #expect(texts.count > 400)
    for text in texts {
      let general = FeedDate.rfc822(text)
      let canonical = FeedDate.canonicalRFC822(Array(text.utf8))
      #expect(canonical == nil || canonical == general, "\(text)")
      #expect(FeedDate.parse(text) == general, "\(text)")
    }
    #expect(texts.filter { FeedDate.canonicalRFC822(Array($0.utf8)) != nil }.count > 400)
  }

  /// Every `pubDate`, `dc:date` and `updated` element of the fixture files.
  @Test func everyFixtureDateReadsAsBefore() throws {
    let pattern = try NSRegularExpression(
      pattern: "<(pubDate|dc:date|updated|published|lastBuildDate)>([^<]*)</")
    var count = 0
    let walker = FileManager.default.enumerator(at: Fixtures.root, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
      guard ["xml", "atom", "rss"].contains(url.pathExtension),
        let text = try? String(contentsOf: url, encoding: .utf8)
      else { continue }
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        guard let range = Range(match.range(at: 2), in: text) else { continue }
        let date = String(text[range]).trimmingCharacters(in: .whitespaces)
        let canonical = FeedDate.canonicalRFC822(Array(date.utf8))
        #expect(canonical == nil || canonical == FeedDate.rfc822(date), "\(date)")
        count += 1
      }
    }
    #expect(count > 100)
  }
}
