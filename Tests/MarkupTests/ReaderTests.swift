import Foundation
import Markup
import Testing

/// Given XML and HTML as real sites write them, the readers give events and text as browsers
/// would understand them.
@Suite struct ReaderTests {
  @Test func elementsAttributesNamespacesAndEmptyElements() throws {
    let (events, error) = try XMLStreamReader.reading(
      bytes: Array("<a xmlns:m=\"urn:m\"><m:b k=\"v\"/>t</a>".utf8)
    ) { reader in
      var events: [XMLEvent] = []
      while let event = reader.next() { events.append(event) }
      return (events, reader.error)
    }
    #expect(
      events == [
        .start(XMLElement(name: "a", namespace: nil, attributes: [])),
        .start(
          XMLElement(
            name: "b", namespace: "urn:m",
            attributes: [XMLAttribute(name: "k", namespace: nil, value: "v")])),
        .end(name: "b", namespace: "urn:m"),
        .text("t"),
        .end(name: "a", namespace: nil),
      ])
    #expect(error == nil)
  }

  @Test func htmlEntitiesAreUnderstoodOutsideCDATAOnly() throws {
    let (text, notes) = try XMLStreamReader.reading(
      bytes: Array("<a>caf&eacute;&nbsp;<![CDATA[&nbsp;]]></a>".utf8)
    ) { reader in
      var text = ""
      while let event = reader.next() { if case .text(let t) = event { text += t } }
      return (text, reader.notes)
    }
    #expect(text == "café\u{A0}&nbsp;")
    #expect(notes == ["replaced 2 HTML entities that XML does not define"])
  }

  @Test func malformedXMLReportsLibxml2sMessageWithPosition() throws {
    let found = try XMLStreamReader.reading(bytes: Array("<a>\n<b></a>".utf8)) { reader in
      while reader.next() != nil {}
      return reader.error
    }
    let error = try #require(found)
    #expect(error.kind == .malformed)
    #expect(error.line == 2)
    #expect(error.message.contains("mismatch"))
  }

  @Test func theReaderEndsWithItsBodyAndAnEmptyDocumentSaysItCouldNotStart() throws {
    let reader = try XMLStreamReader.reading(bytes: Array("<a>t</a>".utf8)) { $0 }
    #expect(reader.next() == nil)
    // Left just after an empty element's start, whose end was still to come.
    let left = try XMLStreamReader.reading(bytes: Array("<a><b/></a>".utf8)) { reader in
      _ = (reader.next(), reader.next())
      return reader
    }
    #expect(left.next() == nil)
    #expect(reader.error == nil)
    let empty = try XMLStreamReader.reading(bytes: []) { reader in
      (reader.next(), reader.error)
    }
    #expect(empty.0 == nil)
    #expect(empty.1 != nil)
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
