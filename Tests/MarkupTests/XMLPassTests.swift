import Markup
import Testing

/// Folded elements (``XMLEventParser``'s `folding`): a digest of all an element held, the same
/// wherever libxml2 split its text, different for any other content; handed over after all as
/// if never folded, or passed over.
@Suite struct XMLFoldTests {
  static func events(
    _ text: String, folding: @escaping (XMLEvent?) -> Bool = { _ in false },
    unfolding: (XMLDigest) -> Bool = { _ in true }
  ) throws -> (events: [XMLEvent], digests: [XMLDigest]) {
    var events: [XMLEvent] = []
    var digests: [XMLDigest] = []
    _ = try XMLEventParser.parse(
      bytes: Array(text.utf8), folding: { folding(events.last) },
      unfolding: {
        digests.append($0)
        return unfolding($0)
      }
    ) { events.append($0) }
    return (events, digests)
  }

  static func isItem(_ event: XMLEvent?) -> Bool {
    if case .start(let element)? = event { return element.name == "item" }
    return false
  }

  static let feed = """
    <?xml version="1.0"?>
    <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
    <item><title>One &amp; only</title><link>https://example.org/1</link>
    <description><![CDATA[<p>A <b>bike</b></p>]]></description><dc:creator>Ann</dc:creator>
    <enclosure url="https://example.org/1.jpg" type="image/jpeg"/></item>
    <item about="x"><title>Two</title><guid isPermaLink="false">g2</guid></item>
    </channel></rss>
    """

  @Test func aFoldedElementHandedOverAfterAllGivesTheEventsOfAnUnfoldedRead() throws {
    let plain = try Self.events(Self.feed)
    let folded = try Self.events(Self.feed, folding: Self.isItem)
    #expect(folded.events == plain.events)
    #expect(folded.digests.count == 2)
    #expect(plain.digests.isEmpty)
  }

  @Test func aFoldedElementPassedOverGivesItsStartAndEndAlone() throws {
    let passed = try Self.events(Self.feed, folding: Self.isItem, unfolding: { _ in false })
    let items = passed.events.filter {
      if case .start(let element) = $0 { return element.name == "item" }
      if case .end(let name, _) = $0 { return name == "item" }
      return false
    }
    #expect(items.count == 4)
    // The channel's title alone: nothing inside the items.
    let titles = passed.events.filter {
      if case .start(let element) = $0 { return element.name == "title" }
      return false
    }
    #expect(titles.count == 1)
    #expect(!passed.events.contains(.text("Two")))
  }

  @Test func anyChangeInsideChangesTheDigestAndNothingElseDoes() throws {
    let base = try Self.events(Self.feed, folding: Self.isItem).digests
    let again = try Self.events(Self.feed, folding: Self.isItem).digests
    #expect(base == again)
    let changes = [
      ("One &amp; only", "One &amp; onlY"),
      ("isPermaLink=\"false\"", "isPermaLink=\"true\""),
      ("<dc:creator>Ann</dc:creator>", "<dc:author>Ann</dc:author>"),
      ("1.jpg", "2.jpg"),
      ("<item about=\"x\">", "<item about=\"y\">"),
      ("<b>bike</b>", "<b>bike </b>"),
    ]
    for (from, to) in changes {
      let changed = try Self.events(
        Self.feed.replacingOccurrences(of: from, with: to), folding: Self.isItem
      ).digests
      #expect(changed != base, "\(from) -> \(to)")
      #expect(changed.count == 2)
      // The other item's digest is its own.
      #expect(Set(changed).intersection(base).count == 1, "\(from) -> \(to)")
    }
    // The same item elsewhere in the document (another title before it) keeps its digest.
    let moved = try Self.events(
      Self.feed.replacingOccurrences(of: "<title>T</title>", with: "<title>Other</title>"),
      folding: Self.isItem
    ).digests
    #expect(moved == base)
  }

  @Test func textSplitByLibxml2AtAnyChunkGivesOneDigest() throws {
    // An item whose text spans the parser's 256 KiB chunks, at offsets moved byte by byte.
    let long = String(repeating: "lorem ipsum &amp; dolor ", count: 16_000)
    var digests = Set<XMLDigest>()
    for shift in [0, 1, 7, 4_093, 100_001] {
      let text =
        "<rss><channel><title>\(String(repeating: "x", count: shift))</title>"
        + "<item><title>\(long)</title><x a=\"1\"/>\(long)</item></channel></rss>"
      let read = try Self.events(text, folding: Self.isItem)
      #expect(read.digests.count == 1)
      digests.formUnion(read.digests)
    }
    #expect(digests.count == 1)
  }

  @Test func aDigestReadsBackFromItsText() throws {
    let digest = try #require(try Self.events(Self.feed, folding: Self.isItem).digests.first)
    #expect(digest.description.count == 32)
    #expect(XMLDigest(digest.description) == digest)
    #expect(XMLDigest("zz") == nil)
    #expect(digest.mixed(with: "a") != digest.mixed(with: "b"))
    #expect(digest.mixed(with: "a") == digest.mixed(with: "a"))
  }
}
