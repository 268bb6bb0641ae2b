import Markup
import Testing

/// Elements passed over unread (``XMLEventParser``'s `passDepth` and `passing`): a digest of
/// each element of the depth asked for, as written and in its place, the same for the same
/// bytes wherever they are, different for any other content or context; an element passed
/// over gives no event, and everything else reads as it does without passing.
@Suite struct XMLPassTests {
  static func events(
    _ text: String, depth: Int? = 3, passing: (XMLDigest) -> Bool = { _ in false }
  ) throws -> (events: [XMLEvent], digests: [XMLDigest], error: MarkupError?) {
    var events: [XMLEvent] = []
    var digests: [XMLDigest] = []
    let outcome = try XMLEventParser.parse(
      bytes: Array(text.utf8), passDepth: { depth },
      passing: {
        digests.append($0)
        return passing($0)
      }
    ) { events.append($0) }
    return (events, digests, outcome.error)
  }

  /// The events without white space between elements (which passing leaves out).
  static func content(_ events: [XMLEvent]) -> [XMLEvent] {
    events.filter {
      if case .text(let text) = $0 { return !text.allSatisfy(\.isWhitespace) }
      return true
    }
  }

  static let feed = """
    <?xml version="1.0"?>
    <rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>T</title>
    <item><title>One &amp; only</title><link>https://example.org/1</link>
    <description><![CDATA[<p>A <b>bike</b></item></p>]]></description><dc:creator>Ann</dc:creator>
    <!-- <item> in a comment --><?pi <item>?>
    <enclosure url="https://example.org/1.jpg" type="image/jpeg" title="a > b"/></item>
    <item about="x"><title>Two</title><guid isPermaLink="false">g2</guid></item>
    <item/>
    </channel></rss>
    """

  @Test func nothingPassedOverReadsAsWithoutPassing() throws {
    let plain = try Self.events(Self.feed, depth: nil)
    let asked = try Self.events(Self.feed)
    #expect(Self.content(asked.events) == Self.content(plain.events))
    #expect(asked.error == nil)
    // The channel's title and the three items: every element of depth 3.
    #expect(asked.digests.count == 4)
    #expect(Set(asked.digests).count == 4)
    #expect(plain.digests.isEmpty)
  }

  @Test func anElementPassedOverGivesNoEventAndTheRestReadsAsWithoutIt() throws {
    let all = try Self.events(Self.feed).digests
    let items = Array(all.dropFirst())
    let passed = try Self.events(Self.feed, passing: { items.contains($0) })
    #expect(passed.error == nil)
    #expect(passed.digests == all)
    let without = try Self.events(
      "<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        + "<channel><title>T</title></channel></rss>", depth: nil)
    #expect(Self.content(passed.events) == Self.content(without.events))
    // The second item alone passed over: the first is read whole, CDATA, comment and all.
    let second = try Self.events(Self.feed, passing: { $0 == all[2] })
    #expect(second.events.contains(.text("<p>A <b>bike</b></item></p>")))
    #expect(!second.events.contains(.text("Two")))
    #expect(second.events.contains(.end(name: "rss", namespace: nil)))
  }

  @Test func anyChangeInsideChangesTheDigestAndTheHeaderDoesNot() throws {
    let base = try Self.events(Self.feed).digests
    #expect(try Self.events(Self.feed).digests == base)
    let changes = [
      ("One &amp; only", "One &amp; onlY"),
      ("isPermaLink=\"false\"", "isPermaLink=\"true\""),
      ("<dc:creator>Ann</dc:creator>", "<dc:author>Ann</dc:author>"),
      ("1.jpg", "2.jpg"),
      ("<item about=\"x\">", "<item about=\"y\">"),
      ("<b>bike</b>", "<b>bike </b>"),
    ]
    for (from, to) in changes {
      let changed = try Self.events(Self.feed.replacingOccurrences(of: from, with: to)).digests
      #expect(changed.count == 4)
      // One item's digest changed; the title's and the other items' are their own.
      #expect(Set(changed).intersection(base).count == 3, "\(from) -> \(to)")
    }
    // The same items after another header (another title, a build date) keep their digests.
    let moved = try Self.events(
      Self.feed.replacingOccurrences(
        of: "<title>T</title>", with: "<title>Other</title><lastBuildDate>now</lastBuildDate>")
    ).digests
    #expect(Array(moved.dropFirst(2)) == Array(base.dropFirst()))
  }

  @Test func whatTheBytesMeanInTheirPlaceIsPartOfTheDigest() throws {
    let base = Set(try Self.events(Self.feed).digests)
    // Another namespace for the same prefix, another base, another DOCTYPE: every digest moves.
    let contexts = [
      ("xmlns:dc=\"http://purl.org/dc/elements/1.1/\"", "xmlns:dc=\"urn:other\""),
      ("<channel>", "<channel xml:base=\"https://example.org/b/\">"),
      ("<?xml version=\"1.0\"?>", "<?xml version=\"1.0\"?><!DOCTYPE rss [<!-- > ] -->]>"),
    ]
    for (from, to) in contexts {
      let changed = try Self.events(Self.feed.replacingOccurrences(of: from, with: to))
      #expect(changed.error == nil, "\(from) -> \(to)")
      #expect(changed.digests.count == 4)
      #expect(Set(changed.digests).isDisjoint(with: base), "\(from) -> \(to)")
    }
  }

  @Test func anItemAcrossLibxml2sChunksIsPassedOverWhereverItFalls() throws {
    let long = String(repeating: "lorem ipsum &amp; dolor ", count: 16_000)
    let item = "<item><title>\(long)</title><x a=\"1\"/>\(long)</item>"
    var digests = Set<XMLDigest>()
    for shift in [0, 1, 7, 4_093, 100_001] {
      let text =
        "<rss><channel><title>\(String(repeating: "x", count: shift))</title>"
        + "\(item)<item><title>after</title></item></channel></rss>"
      let all = try Self.events(text).digests
      #expect(all.count == 3)
      digests.insert(all[1])
      let passed = try Self.events(text, passing: { $0 == all[1] })
      #expect(passed.error == nil)
      #expect(passed.events.contains(.text("after")))
      #expect(
        !passed.events.contains { if case .text(let t) = $0 { t.contains("lorem") } else { false } }
      )
    }
    #expect(digests.count == 1)
  }

  @Test func aDocumentNotReadAsUTF8IsNeverPassedOver() throws {
    let latin = Self.feed.replacingOccurrences(
      of: "<?xml version=\"1.0\"?>", with: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>")
    let read = try Self.events(latin, passing: { _ in true })
    #expect(read.digests.isEmpty)
    #expect(read.events.contains(.text("Two")))
  }

  @Test func aBrokenDocumentAfterAPassedOverItemIsStillAnError() throws {
    let all = try Self.events(Self.feed).digests
    let broken = Self.feed.replacingOccurrences(of: "<item/>", with: "<item><oops></item>")
    let read = try Self.events(broken, passing: { all.contains($0) })
    #expect(read.error != nil)
  }

  @Test func aDigestReadsBackFromItsText() throws {
    let digest = try #require(try Self.events(Self.feed).digests.first)
    #expect(digest.description.count == 32)
    #expect(XMLDigest(digest.description) == digest)
    #expect(XMLDigest("zz") == nil)
    let other = XMLDigest(high: 1, low: 2)
    #expect(digest.mixed(with: other) != digest.mixed(with: XMLDigest(high: 1, low: 3)))
    #expect(digest.mixed(with: other) == digest.mixed(with: other))
  }
}
