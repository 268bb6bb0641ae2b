import ClarissaCore
import ClarissaEngine
import ListingStore
import Testing

/// Given plain-text filters, when listings are judged, then words match whole (case and accents
/// ignored), `*` stands for letters, phrases span punctuation, and `match: substring` matches
/// inside words as before.
@Suite struct FilterMatchingTests {
  static func filter(_ text: String, _ match: Filter.Match = .words, caseSensitive: Bool = false)
    throws -> Filter
  {
    try Filter(.exclude, on: .title, pattern: text, match: match, caseSensitive: caseSensitive)
  }

  @Test(arguments: [
    ("iso", "Maison Martin Margiela iPad case", false),
    ("iso", "ISO: a 1br near the park", true),
    ("iso", "Looking for (iso) a desk", true),
    ("cm", "Road bike 56cm frame", false),
    ("cm", "Road bike 56 cm frame", true),
    ("madison", "Madison Ave studio", true),
    ("son", "Madison, Harrison and Edison", false),
  ])
  func wordsMatchWhole(pattern: String, title: String, expected: Bool) throws {
    #expect(try Self.filter(pattern).matches(title) == expected)
  }

  @Test func aStarStandsForLettersAndDigits() throws {
    let bike = try Self.filter("bike*")
    #expect(bike.matches("Two bikes for sale"))
    #expect(bike.matches("BIKER jacket"))
    #expect(bike.matches("a bike"))
    #expect(!bike.matches("motorbike"))
    let phone = try Self.filter("*phone")
    #expect(phone.matches("Apple iPhone 12"))
    #expect(!phone.matches("iphones"))
  }

  @Test func phrasesSpanSpacesAndPunctuation() throws {
    let phrase = try Self.filter("one bedroom")
    #expect(phrase.matches("Sunny one-bedroom apartment"))
    #expect(phrase.matches("ONE   Bedroom, Mission"))
    #expect(!phrase.matches("one large bedroom"))
    #expect(!phrase.matches("someone bedrooms"))
    #expect(try Self.filter("we buy").matches("💥We Buy iPhone 17"))
  }

  @Test func accentsAndCaseAreIgnoredUnlessCaseSensitive() throws {
    #expect(try Self.filter("cafe").matches("Table de Café"))
    #expect(try Self.filter("café").matches("CAFE table"))
    #expect(try Self.filter("Zürich").matches("zurich flat"))
    let cafe = try Self.filter("cafe")
    let text = FilterText(title: "Table de Café", description: "", for: [cafe])
    #expect(cafe.firstMatch(in: text)?.matched == "Café", "shown as written")
    let exact = try Self.filter("Café", caseSensitive: true)
    #expect(exact.matches("Table de Café"))
    #expect(!exact.matches("table de cafe"))
    #expect(!exact.matches("table de café"))
  }

  @Test func substringModeMatchesInsideWords() throws {
    #expect(try Self.filter("iso", .substring).matches("Maison Margiela"))
    #expect(try Self.filter("cm", .substring).matches("56cm"))
    #expect(try Self.filter("cafe", .substring).matches("Cafés"))
  }

  @Test func punctuationInAWordIsLiteral() throws {
    #expect(try Self.filter("c++").matches("Learn C++ fast"))
    #expect(try Self.filter("1br").matches("Sunny 1BR!"))
    #expect(try !Self.filter("1br").matches("21br"))
    #expect(try Self.filter("$100").matches("only $100 obo"))
    #expect(try !Self.filter("a.b").matches("axb"), "a dot is a dot, not any character")
  }

  /// Compiled expressions are shared by what a filter says: the same text with other options is
  /// another expression, whichever was made first.
  @Test func sharedExpressionsFollowEveryOption() throws {
    let plain = try Self.filter("a.b")
    let regex = try Filter(.exclude, on: .title, pattern: "a.b", isRegex: true)
    #expect(!plain.matches("axb"))
    #expect(regex.matches("axb"))
    #expect(try !Self.filter("a.b").matches("axb"), "the plain filter again, after the regex")
    #expect(try !Self.filter("iso").matches("Maison"))
    #expect(try Self.filter("iso", .substring).matches("Maison"))
    #expect(try !Self.filter("iso").matches("Maison"), "words again, after substring")
    #expect(try Self.filter("Café").matches("table de cafe"))
    #expect(try !Self.filter("Café", caseSensitive: true).matches("table de cafe"))
    #expect(try Self.filter("Café").matches("table de cafe"), "folded again, after exact")
    let sensitive = try Filter(.exclude, pattern: "ipad", isRegex: true, caseSensitive: true)
    let insensitive = try Filter(.exclude, pattern: "ipad", isRegex: true)
    #expect(!sensitive.matches("iPad"))
    #expect(insensitive.matches("iPad"))
  }

  @Test func explainNamesTheWordsThatDecided() throws {
    let search = Search(
      name: "ipads", site: "craigslist",
      filters: [
        try Filter(.exclude, on: .title, pattern: "iso"),
        try Filter(.include, on: .both, pattern: "ipad*"),
      ])
    let margiela = Listing(
      id: "1", site: "craigslist", url: "https://example.org/1",
      title: "Maison Martin Margiela iPad Case", description: "")
    let iso = Listing(
      id: "2", site: "craigslist", url: "https://example.org/2", title: "ISO an iPad mini",
      description: "")
    let kept = ListingFilter.verdict(margiela, for: search)
    #expect(kept.accepted)
    #expect(kept.reason == "included by 'ipad*' (both): \"iPad\" in title")
    let dropped = ListingFilter.verdict(iso, for: search)
    #expect(!dropped.accepted)
    #expect(dropped.reason == "excluded by 'iso' (title): \"ISO\" in title")
  }
}
