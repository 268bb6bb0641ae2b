internal import Foundation

/// A busy classifieds feed made up for the poll benchmark: RSS 2.0, `count` items, the same
/// bytes for the same arguments (a fixed pseudo-random sequence). Items look like a real site's:
/// a title with the price most of the time, a permalink guid, an RFC 822 date, a category, a
/// description in HTML (CDATA or escaped, with paragraphs, lists, entities and line breaks),
/// an image enclosure on most. About 600 bytes an item.
///
/// `variant` 0 is the feed as first polled; another variant holds the same items (the same ids,
/// nothing new) with a few changed: every 400th item from a variant-dependent offset has a
/// new price and a line added to its description, and the first ten items come last, as when a
/// site moves bumped ads. Two variants differ from each other and from 0, so that each poll of
/// a benchmark sees bytes it has not seen last time.
struct ClassifiedsCorpus {
  let count: Int
  let variant: Int

  /// The feed's bytes.
  func bytes() -> [UInt8] {
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel>
      <title>Bay Area classifieds: everything</title>
      <link>https://classifieds.example/sfbay/</link>
      <description>Every new ad, newest first</description>
      <language>en-us</language>

      """
    out.reserveCapacity(count * 640)
    let order = Array(0..<count)
    let shown = variant == 0 ? order : Array(order.dropFirst(10) + order.prefix(10))
    for index in shown { out += item(index) }
    out += "</channel>\n</rss>\n"
    return Array(out.utf8)
  }

  /// Whether this variant changes item `index`.
  func changes(_ index: Int) -> Bool {
    variant != 0 && index % 400 == (variant * 37) % 400
  }

  private func item(_ index: Int) -> String {
    var random = SplitMix(seed: UInt64(index) &* 0x9E37_79B9 &+ 17)
    let kind = Self.kinds[Int(random.next() % UInt64(Self.kinds.count))]
    let id = 7_800_000_000 + index * 7
    let link = "https://classifieds.example/sfbay/\(kind.path)/d/\(slug(kind, &random))/\(id).html"
    var price = kind.prices.lowerBound + Int(random.next() % UInt64(kind.prices.count))
    if changes(index) { price = price * 9 / 10 }
    let where_ = Self.places[Int(random.next() % UInt64(Self.places.count))]
    let noun = kind.nouns[Int(random.next() % UInt64(kind.nouns.count))]
    // One in seven titles names no price (jobs, "make an offer"); its description may.
    let titled = random.next() % 7 != 0
    let title = titled ? "\(noun) - $\(grouped(price)) (\(where_))" : "\(noun) (\(where_))"
    let posted = Date(timeIntervalSince1970: 1_795_000_000 - Double(index) * 37)
    var lines = [
      "<p>\(Self.openers[Int(random.next() % UInt64(Self.openers.count))]) \(noun.lowercased())"
        + " in \(where_) &amp; nearby.</p>",
      "<ul><li>\(Self.features[Int(random.next() % UInt64(Self.features.count))])</li>"
        + "<li>\(Self.features[Int(random.next() % UInt64(Self.features.count))])</li></ul>",
    ]
    if !titled { lines.append("<p>Asking <b>$\(grouped(price))</b> or best offer.</p>") }
    if random.next() % 3 == 0 {
      lines.append("<p>Call or text 415-555-\(1000 + index % 9000)<br/>")
    }
    if changes(index) { lines.append("<p><em>Price reduced, variant \(variant).</em></p>") }
    let html = lines.joined(separator: "\n")
    let description =
      random.next() % 2 == 0
      ? "<![CDATA[\(html)]]>"
      : html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
        of: "<", with: "&lt;"
      )
      .replacingOccurrences(of: ">", with: "&gt;")
    var item = """
      <item>
      <title>\(title.replacingOccurrences(of: "&", with: "&amp;"))</title>
      <link>\(link)</link>
      <guid isPermaLink="true">\(link)</guid>
      <pubDate>\(Self.rfc822(posted))</pubDate>
      <category>\(kind.category.replacingOccurrences(of: "&", with: "&amp;"))</category>
      <dc:creator>seller\(index % 5000)@classifieds.example</dc:creator>
      <description>\(description)</description>

      """
    if random.next() % 4 != 0 {
      item +=
        "<enclosure url=\"https://images.classifieds.example/\(id)_600x450.jpg\""
        + " type=\"image/jpeg\" length=\"\(40_000 + Int(random.next() % 90_000))\"/>\n"
    }
    return item + "</item>\n"
  }

  private func slug(_ kind: Kind, _ random: inout SplitMix) -> String {
    let noun = kind.nouns[Int(random.next() % UInt64(kind.nouns.count))]
    return noun.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber })
      .joined(separator: "-")
  }

  private func grouped(_ amount: Int) -> String {
    amount >= 1000 ? "\(amount / 1000),\(String(format: "%03d", amount % 1000))" : "\(amount)"
  }

  private static func rfc822(_ date: Date) -> String { dates.string(from: date) }

  private static let dates: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "America/Los_Angeles")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
    return formatter
  }()

  struct Kind {
    let category: String
    let path: String
    let nouns: [String]
    let prices: Range<Int>
  }

  static let kinds = [
    Kind(
      category: "apartments / housing for rent", path: "apa",
      nouns: [
        "Sunny 2BR/1BA flat", "Studio with garden view", "3BR house, 2 car garage",
        "Remodeled 1BR near BART", "Top floor 2BR, bay views",
      ], prices: 1_400..<6_500),
    Kind(
      category: "furniture - by owner", path: "fuo",
      nouns: [
        "Herman Miller Aeron chair, size B", "Mid-century walnut dresser",
        "IKEA Kallax shelf 4x4", "Leather sofa, 3 seat", "Solid oak dining table",
      ],
      prices: 20..<1_200),
    Kind(
      category: "electronics - by owner", path: "ele",
      nouns: [
        "RTX 3080 10GB", "MacBook Air M2 13\"", "Sony WH-1000XM4 headphones",
        "LG 27\" 4K monitor", "iPad Pro 11 (2021)",
      ], prices: 60..<1_600),
    Kind(
      category: "cars & trucks - by owner", path: "cto",
      nouns: [
        "2014 Toyota Prius, 98k miles", "2009 Honda Civic EX", "2017 Subaru Outback",
        "2012 Ford F-150 XLT", "2019 Tesla Model 3 LR",
      ], prices: 3_500..<38_000),
    Kind(
      category: "bicycles - by owner", path: "bik",
      nouns: [
        "Trek FX 3 hybrid, 56cm", "Specialized Allez road bike", "Brompton C Line",
        "Kids' 20\" BMX", "Surly Long Haul Trucker",
      ], prices: 80..<2_400),
  ]
  static let places = [
    "mission district", "oakland downtown", "berkeley", "san jose west", "palo alto",
    "richmond / point", "daly city", "noe valley", "sunnyvale", "hayward / castro valley",
  ]
  static let openers = [
    "Well kept", "Barely used", "Moving sale:", "Great condition", "Must go this week:",
    "Lightly used", "Like new",
  ]
  static let features = [
    "no smoking, no pets", "pick up only, cash or Venmo", "original receipt available",
    "cat ok &ndash; dog ok", "w/d in unit", "delivery possible for a fee",
    "first come, first served",
    "serious buyers only", "open house Saturday 11&ndash;1",
  ]
}

/// SplitMix64: a small, fixed pseudo-random sequence (the corpus must be the same every run).
struct SplitMix {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
