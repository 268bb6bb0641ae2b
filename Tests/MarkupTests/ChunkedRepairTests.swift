import Testing

@testable import Markup

/// HTML entities replaced as the document is given to libxml2, a chunk at a time (``ChunkFeed``),
/// instead of in a copy of the whole body made first: the events are those of the document
/// repaired whole, wherever a reference falls against libxml2's 256 KiB chunks, with elements
/// passed over or not, and the report counts every reference, read or passed over.
@Suite struct ChunkedRepairTests {
  /// 256 KiB, the chunk ``ChunkFeed`` gives at a time.
  static let chunk = 256 << 10

  static func events(
    _ bytes: [UInt8], depth: Int? = nil, passing: (XMLDigest) -> Bool = { _ in false }
  ) throws -> (events: [XMLEvent], outcome: XMLEventParser.Outcome) {
    var events: [XMLEvent] = []
    let outcome = try XMLEventParser.parse(
      bytes: bytes, limits: MarkupLimits(maxBytes: 8 << 20), passDepth: { depth },
      passing: passing
    ) { events.append($0) }
    return (events, outcome)
  }

  /// Where the root's start tag ends: the parser gives libxml2 the document up to there, then
  /// the rest a chunk at a time.
  static let root = "<?xml version=\"1.0\"?>\n<rss version=\"2.0\">"

  /// An RSS document whose first item is padded so that the `&eacute;` of the item after it
  /// starts `shift` bytes before the first chunk's end; then 400 items with `&nbsp;`, `&mdash;`
  /// and one in an attribute, so that later chunk ends fall on references too.
  static func document(shift: Int) -> [UInt8] {
    let head = root + "<channel><title>T&ndash;t</title>\n"
    let opening = "<item><title>pad</title><description>"
    let closing = "</description></item>\n<item><title>caf"
    let fill =
      root.utf8.count + chunk - shift - head.utf8.count - opening.utf8.count - closing.utf8.count
    var text = head + opening + String(repeating: "x", count: fill) + closing
    text += "&eacute; au lait</title></item>\n"
    for index in 0..<400 {
      text += "<item><title>Flat \(index)&nbsp;&mdash;&nbsp;2 rooms &amp; a garden</title>"
      text += "<link>https://example.org/\(index)</link><category label=\"a&nbsp;b\">c</category>"
      text += "<description><![CDATA[&nbsp; stays]]>"
      text += String(repeating: "&hellip;words ", count: 40) + "</description></item>\n"
    }
    return Array((text + "</channel></rss>\n").utf8)
  }

  @Test(arguments: [8, 7, 6, 5, 3, 1, 0])
  func aReferenceAcrossAChunksEndReadsAsInTheWholeRepair(shift: Int) throws {
    let bytes = Self.document(shift: shift)
    let reference = Array("&eacute;".utf8)
    let start = Self.root.utf8.count + Self.chunk - shift
    #expect(Array(bytes[start..<start + reference.count]) == reference)
    let whole = try #require(EntityRepair.replacingHTMLEntities(in: bytes))
    let chunked = try Self.events(bytes)
    let repaired = try Self.events(whole.bytes)
    #expect(chunked.outcome.error == nil)
    #expect(chunked.events == repaired.events)
    #expect(chunked.events.contains(.text("café au lait")))
    #expect(chunked.events.contains(.text("Flat 399\u{A0}\u{2014}\u{A0}2 rooms & a garden")))
    #expect(
      chunked.outcome.notes.contains(
        "replaced \(whole.count) HTML entities that XML does not define"))
    #expect(repaired.outcome.notes.isEmpty)
  }

  @Test func itemsPassedOverLeaveTheOthersRepairedAsBefore() throws {
    let bytes = Self.document(shift: 3)
    var digests: [XMLDigest] = []
    let all = try Self.events(bytes, depth: 3) {
      digests.append($0)
      return false
    }
    // The channel's title and the 402 items.
    #expect(digests.count == 403)
    // Every other item passed over: those left read as the whole repair reads them.
    let passed = Set(
      digests.enumerated().filter { $0.offset % 2 == 0 && $0.offset > 0 }.map(\.element))
    let some = try Self.events(bytes, depth: 3) { passed.contains($0) }
    #expect(some.outcome.error == nil)
    #expect(some.events.count < XMLPassTests.content(all.events).count)
    // Flat N is the digest N + 3: the even ones are read, the odd ones passed over.
    #expect(some.events.contains(.text("Flat 398\u{A0}\u{2014}\u{A0}2 rooms & a garden")))
    #expect(!some.events.contains(.text("Flat 399\u{A0}\u{2014}\u{A0}2 rooms & a garden")))
    #expect(some.events.contains(.text("T\u{2013}t")))
    // The report counts the references of the document, read or passed over.
    #expect(some.outcome.notes == all.outcome.notes)
  }

  @Test func theRecoveringReaderReadsTheWholeRepair() throws {
    let bytes = Array("<rss><channel><item><title>caf&eacute; &amp; b&nbsp;c</title></item>".utf8)
    let reader = try XMLRecoveringReader(bytes: bytes)
    var texts: [String] = []
    while let event = reader.next() {
      if case .text(let text) = event { texts.append(text) }
    }
    #expect(texts == ["café & b\u{A0}c"])
    #expect(reader.notes == ["replaced 2 HTML entities that XML does not define"])
  }

  @Test func referencesAreWrittenAsDecimalCharacterReferences() throws {
    let bytes = Array("<a>&nbsp;&eacute;&hearts;&Alpha;&thetasym;x&amp;</a>".utf8)
    let repaired = try #require(EntityRepair.replacingHTMLEntities(in: bytes))
    #expect(
      String(decoding: repaired.bytes, as: UTF8.self)
        == "<a>&#160;&#233;&#9829;&#913;&#977;x&amp;</a>")
    #expect(repaired.count == 5)
  }
}
