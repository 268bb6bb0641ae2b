import Feeds
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// Given the price's two regular expressions and the byte scanner that stands in for them, when
/// both read the same text, then they find the same first match of each expression: the same
/// marker, amount and spacing, at the same place. Over every line of every fixture file, every
/// title and description of the feed fixtures, and made-up texts crowded with markers, digits
/// and separators.
@Suite struct PriceScannerTests {
  @Test func theScannerFindsWhatTheExpressionsFindInEveryFixtureText() throws {
    let texts = try Self.fixtureTexts()
    #expect(texts.count > 40_000)
    let (read, found) = Self.compare(texts)
    #expect(read > texts.count * 9 / 10, "the scanner reads most texts itself")
    #expect(found > 500, "the texts hold prices to find")
  }

  @Test func theScannerFindsWhatTheExpressionsFindInMadeUpTexts() {
    let pieces = [
      "$", "US", "US$", "C", "CA", "A", "AU", "NZ", "USD", "EUR", "CHF", "SEK", "1", "2", "34",
      "567", "8901", ".", ",", "'", "’", " ", "\u{A0}", "-", "–", "—", "€", "£", "¥", "₹", "x",
      "_", "ü", "×", "S", "D", "E", "\n", ".–", ",-", "000",
    ]
    var random = UInt64(0x5EED)
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    let texts = (0..<60_000).map { _ in
      (0..<(1 + next(10))).map { _ in pieces[next(pieces.count)] }.joined()
    }
    let (read, found) = Self.compare(texts)
    #expect(read == texts.count, "every made-up text is one the scanner reads")
    #expect(found > 10_000)
  }

  /// The amount read by bytes is the amount read through `Double(String)`: made-up amounts of
  /// digits, marks and separators, and every amount the fixtures' prices hold.
  @Test func theAmountReadByBytesIsTheWrittenAmount() throws {
    let pieces = ["0", "1", "5", "9", "12", "345", "6789", ",", ".", "'", " ", "’", "\u{A0}"]
    var random = UInt64(0xA40)
    var texts = ["12.", "0.5", "1.200,50", "99,5", "1,200", "2'350", "1 234", "9999999999999999"]
    for _ in 0..<50_000 {
      var text = ""
      for _ in 0..<(1 + Int(random % 7)) {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += pieces[Int((random >> 33) % UInt64(pieces.count))]
      }
      texts.append(text)
    }
    for text in texts {
      #expect(FeedPrice.amount(text) == FeedPrice.writtenAmount(text), "\(text)")
    }
  }

  /// Texts the scanner leaves to the expressions: a digit of another script, a letter past
  /// Latin-1; the price is the expressions' all the same.
  @Test func textsItCannotClassAreLeftToTheExpressions() throws {
    for text in ["١٢٣ $", "𝟘 $5", "Цена 500 €", "ＵＳＤ 5", "µ 5 EUR", "ª5 EUR"] {
      #expect(PriceScanner.matches(in: text) == nil, "\(text)")
      let scanned = FeedPrice.first(in: text)
      let unscanned = FeedPrice.first(in: text, scanning: false)
      #expect(scanned?.amount == unscanned?.amount && scanned?.currency == unscanned?.currency)
    }
    let price = try #require(FeedPrice.first(in: "Velo CHF 2'350.– (Zürich)"))
    #expect(price.amount == 2350 && price.currency == "CHF")
    #expect(PriceScanner.matches(in: "Velo CHF 2'350.– (Zürich)") != nil, "Latin-1 read")
  }

  /// Compares the scanner with the expressions over `texts`: how many it read itself, and how
  /// many held a match.
  static func compare(_ texts: [String]) -> (read: Int, found: Int) {
    var (read, found) = (0, 0)
    for text in texts {
      let scanned = FeedPrice.first(in: text)
      let unscanned = FeedPrice.first(in: text, scanning: false)
      #expect(scanned?.amount == unscanned?.amount, "\(text)")
      #expect(scanned?.currency == unscanned?.currency, "\(text)")
      guard let scanned = PriceScanner.matches(in: text) else { continue }
      read += 1
      let after = expressionMatch(FeedPrice.markerFirst, text, marker: 1, spacing: 2, amount: 3)
      let before = expressionMatch(FeedPrice.numberFirst, text, marker: 3, spacing: 2, amount: 1)
      #expect(scanned.markerFirst == after, "marker first: \(text)")
      #expect(scanned.numberFirst == before, "number first: \(text)")
      if after != nil || before != nil { found += 1 }
    }
    return (read, found)
  }

  /// An expression's first match in the whole text, its groups as byte offsets.
  static func expressionMatch(
    _ expression: NSRegularExpression?, _ text: String, marker: Int, spacing: Int, amount: Int
  ) -> PriceScanner.Match? {
    let whole = NSRange(text.startIndex..., in: text)
    guard let match = expression?.firstMatch(in: text, range: whole) else { return nil }
    func bytes(_ group: Int) -> Range<Int>? {
      Range(match.range(at: group), in: text).map {
        text.utf8.distance(
          from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(
            from: text.startIndex, to: $0.upperBound)
      }
    }
    guard let markerRange = bytes(marker), let amountRange = bytes(amount) else { return nil }
    return PriceScanner.Match(
      marker: markerRange, amount: amountRange, touches: match.range(at: spacing).length == 0)
  }

  /// Every line of every text fixture (feeds, pages, JSON answers, configs), and every title
  /// and description of the feed fixtures as the parser makes them (references replaced).
  static func fixtureTexts() throws -> [String] {
    let kinds: Set<String> = ["xml", "atom", "html", "json", "txt", "rss", "yaml", "md"]
    var texts: [String] = []
    let walker = FileManager.default.enumerator(at: Fixtures.root, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
      guard kinds.contains(url.pathExtension), let data = try? Data(contentsOf: url),
        data.count < 3_000_000
      else { continue }
      let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
      texts += lines.filter { $0.utf8.count < 4_000 }.map(String.init)
      if let document = try? FeedParser.parse(Array(data)) {
        texts += document.items.flatMap { [$0.title, $0.text] }
      }
    }
    return texts
  }
}
