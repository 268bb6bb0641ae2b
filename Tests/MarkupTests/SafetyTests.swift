import Foundation
import Markup
import Testing

/// Hostile documents are refused before libxml2 expands anything, and nothing reaches the network.
@Suite struct SafetyTests {
  static func events(_ text: String, limits: MarkupLimits = MarkupLimits()) throws -> [XMLEvent] {
    var events: [XMLEvent] = []
    _ = try XMLEventParser.parse(bytes: Array(text.utf8), limits: limits) { events.append($0) }
    return events
  }

  /// The classic: nine levels of ten, 3 GB from under 1 KB.
  static let billionLaughs = """
    <?xml version="1.0"?>
    <!DOCTYPE lolz [
     <!ENTITY lol "lol">
     <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
     <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
     <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
     <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
     <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
     <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
     <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
     <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
     <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
    ]>
    <lolz>&lol9;</lolz>
    """

  @Test(arguments: [
    billionLaughs,
    "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>",
    "<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/x.dtd\"> %p;]><r/>",
    "<!DOCTYPE r [<!ENTITY big \"\(String(repeating: "x", count: 100_000))\">]><r>\(String(repeating: "&big;", count: 20_000))</r>",
  ])
  func entityAttacksAreRefusedBeforeParsing(document: String) {
    let start = Date()
    #expect {
      _ = try Self.events(document)
    } throws: { error in
      (error as? MarkupError)?.kind == .entityDeclaration
    }
    let milliseconds = Date().timeIntervalSince(start) * 1000
    #expect(milliseconds >= 0, "refused in \(String(format: "%.2f", milliseconds)) ms")
    #expect {
      _ = try XMLRecoveringReader(bytes: Array(document.utf8))
    } throws: { error in
      (error as? MarkupError)?.kind == .entityDeclaration
    }
  }

  /// Internal entities a real feed declares (a shop's name, a symbol) are expanded, nested
  /// ones too, and the document reads as if they were written out.
  @Test func internalEntitiesWithinTheBudgetAreExpanded() throws {
    let document = """
      <?xml version="1.0"?>
      <!DOCTYPE r [<!ENTITY shop "Trödel &amp; Co"><!ENTITY where "&shop;, Berlin">]>
      <r a="&shop;">&where;</r>
      """
    let events = try Self.events(document)
    let texts = events.compactMap { event -> String? in
      if case .text(let text) = event { return text } else { return nil }
    }
    #expect(texts.joined() == "Trödel & Co, Berlin")
    guard case .start(let root)? = events.first else {
      Issue.record("no root element")
      return
    }
    #expect(root.attribute("a") == "Trödel & Co")
  }

  @Test func oversizedBodiesAreRefusedUnread() {
    let limits = MarkupLimits(maxBytes: 1024)
    let body = "<r>" + String(repeating: "a", count: 2048) + "</r>"
    #expect(throws: MarkupError.self) { _ = try Self.events(body, limits: limits) }
    #expect(throws: MarkupError.self) {
      _ = try HTMLDocument(bytes: Array(body.utf8), limits: limits)
    }
    #expect(throws: MarkupError.self) {
      _ = try XMLRecoveringReader(bytes: Array(body.utf8), limits: limits)
    }
  }

  @Test func anExternalDTDIsNeitherFetchedNorNeeded() throws {
    // Port 9 on loopback: even if libxml2 tried, nothing would leave the machine.
    let events = try Self.events("<!DOCTYPE r SYSTEM \"http://127.0.0.1:9/r.dtd\"><r>ok</r>")
    #expect(events.contains(.text("ok")))
  }

  @Test func anEntityDeclarationInsideACommentBeforeTheRootIsStillRefused() {
    #expect(throws: MarkupError.self) {
      _ = try Self.events("<!-- <!ENTITY x \"y\"> --><r/>")
    }
  }

  @Test func theWordENTITYInsideTheDocumentIsFine() throws {
    let events = try Self.events("<r><![CDATA[<!ENTITY x \"y\">]]></r>")
    #expect(events.contains(.text("<!ENTITY x \"y\">")))
  }
}
