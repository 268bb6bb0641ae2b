import Foundation
import Markup
import Testing

/// Given XML and HTML as real sites write them, the readers give events and text as browsers
/// would understand them.
@Suite struct ReaderTests {
  @Test func elementsAttributesNamespacesAndEmptyElements() throws {
    var events: [XMLEvent] = []
    let outcome = try XMLEventParser.parse(
      bytes: Array(
        "<a xmlns:m=\"urn:m\"><m:b k=\"v&amp;w&#38;&lt;\"/>t&amp;<![CDATA[<c>]]>u</a>".utf8)
    ) { events.append($0) }
    #expect(
      events == [
        .start(XMLElement(name: "a", namespace: nil, attributes: [])),
        .start(
          XMLElement(
            name: "b", namespace: "urn:m",
            attributes: [XMLAttribute(name: "k", namespace: nil, value: "v&w&<")])),
        .end(name: "b", namespace: "urn:m"),
        .text("t&<c>u"),
        .end(name: "a", namespace: nil),
      ])
    #expect(outcome.error == nil)
  }

  @Test func htmlEntitiesAreUnderstoodOutsideCDATAOnly() throws {
    var text = ""
    let outcome = try XMLEventParser.parse(
      bytes: Array("<a>caf&eacute;&nbsp;<![CDATA[&nbsp;]]></a>".utf8)
    ) { if case .text(let t) = $0 { text += t } }
    #expect(text == "café\u{A0}&nbsp;")
    #expect(outcome.notes == ["replaced 2 HTML entities that XML does not define"])
  }

  @Test func malformedXMLReportsLibxml2sMessageWithPosition() throws {
    var events: [XMLEvent] = []
    let outcome = try XMLEventParser.parse(bytes: Array("<a>\n<b>t</a><c/>".utf8)) {
      events.append($0)
    }
    let error = try #require(outcome.error)
    #expect(error.kind == .malformed)
    #expect(error.line == 2)
    #expect(error.message.contains("mismatch"))
    // What came before the error was given (a's start, its line break, b's start); nothing
    // after it, not even the text the error cut off.
    #expect(events.count == 3)
  }

  struct Enough: Error {}

  @Test func anErrorThrownByTheHandlerStopsTheParseAndAnEmptyDocumentCouldNotStart() throws {
    var seen = 0
    #expect(throws: Enough.self) {
      _ = try XMLEventParser.parse(bytes: Array("<a><b/><c/><d/></a>".utf8)) { _ in
        seen += 1
        if seen == 2 { throw Enough() }
      }
    }
    #expect(seen == 2)
    var none = 0
    let empty = try XMLEventParser.parse(bytes: []) { _ in none += 1 }
    #expect(none == 0)
    #expect(empty.error != nil)
  }

  @Test func recoveringReaderKeepsWhatFollowsAnError() throws {
    let reader = try XMLRecoveringReader(bytes: Array("<a><b>1 & 2</b><c>after</c></a>".utf8))
    var texts: [String] = []
    while let event = reader.next() { if case .text(let t) = event { texts.append(t) } }
    #expect(texts.contains("after"))
    #expect(reader.error != nil)
  }

  @Test func htmlTextKeepsParagraphsAndDropsScripts() {
    let html =
      "<p>One&nbsp;&amp; <b>two</b></p><script>alert(1)</script><style>p{}</style>line<br>break<ul><li>a</li><li>b</li></ul>"
    #expect(HTMLText.plainText(fromHTML: html) == "One & two\n\nline\nbreak\na\nb")
  }

  @Test func htmlTextOfPlainTextIsTidiedOnly() {
    #expect(HTMLText.plainText(fromHTML: "  a  b \n\n\n c ") == "a b\n\nc")
  }

  @Test func deepHTMLIsReadWithoutRecursion() throws {
    let html =
      String(repeating: "<div>", count: 100_000) + "deep"
      + String(repeating: "</div>", count: 100_000)
    let document = try HTMLDocument(html: html)
    #expect(document.root != nil)
    _ = HTMLText.plainText(fromHTML: html)
  }

  @Test func htmlNodesFindClassesAndAttributes() throws {
    let document = try HTMLDocument(
      html:
        "<ol><li class=\"x result\" title=\"A &amp; B\"><a href=\"/1\">1</a></li><li class=\"x\">no</li></ol>"
    )
    let results = document.elements(named: "li").filter { $0.hasClass("result") }
    #expect(results.count == 1)
    #expect(results.first?.attribute("title") == "A & B")
    #expect(results.first?.first("a")?.attribute("href") == "/1")
  }

  /// An element's text as a reader sees it: `<br>` and blocks break lines, paragraphs stand
  /// apart, the page's own line breaks and runs of spaces are one space, scripts are left out.
  @Test func anElementsTextKeepsTheLinesAReaderSees() throws {
    let document = try HTMLDocument(
      html: "<div id=t>  Ruhige\n   Lage.<br>Balkon<br/><b>nach</b> Süden.<div>Frei ab"
        + " August.</div><p>Keine Haustiere.</p><script>var x = 1;</script><ul><li>a</li>"
        + "<li>b</li></ul></div><script id=s>{\"a\":\n 1}</script>")
    let text = try #require(document.elements(named: "div").first?.text)
    #expect(
      text == "Ruhige Lage.\nBalkon\nnach Süden.\nFrei ab August.\n\nKeine Haustiere.\n\na\nb")
    #expect(document.elements(named: "script").last?.text == "{\"a\": 1}")
  }
}
