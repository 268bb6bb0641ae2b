import Testing

@testable import Serve

/// The pages' ``HTML``: a string interpolated is text and escaped; markup goes in only as
/// another `HTML`.
@Suite struct ServeHTMLTests {
  @Test func anInterpolatedStringIsEscaped() {
    let title = "Tom's <b>\"desk\"</b> & more\u{1}"
    let html: HTML = "<h1 title=\"\(title)\">\(title)</h1>"
    let escaped = "Tom&apos;s &lt;b&gt;&quot;desk&quot;&lt;/b&gt; &amp; more"
    #expect(html.markup == "<h1 title=\"\(escaped)\">\(escaped)</h1>")
  }

  @Test func markupGoesInOnlyAsHTML() {
    let badge: HTML = "<span class=\"badge\">\("<new>")</span>"
    let card: HTML = "<div>\(badge) \(3) listings</div>"
    #expect(card.markup == "<div><span class=\"badge\">&lt;new&gt;</span> 3 listings</div>")
    #expect(String(describing: card) == card.markup)
  }

  @Test func partsAreJoinedWithTheirSeparator() {
    let parts: [HTML] = ["<i>a</i>", "\("b&c")", "<i>d</i>"]
    #expect(parts.joined(separator: " · ").markup == "<i>a</i> · b&amp;c · <i>d</i>")
    let list: HTML = "<ul>\(parts.map { "<li>\($0)</li>" as HTML })</ul>"
    #expect(list.markup == "<ul><li><i>a</i></li><li>b&amp;c</li><li><i>d</i></li></ul>")
    #expect(([] as [HTML]).joined(separator: ", ").isEmpty)
    var grown: HTML = "<p>"
    grown += "\("x<y")" + "</p>"
    #expect(grown.markup == "<p>x&lt;y</p>")
    #expect(Array(grown.markup.utf8) == grown.bytes)
  }
}
