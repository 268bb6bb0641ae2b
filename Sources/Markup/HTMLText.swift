import CLibXML2

/// Turns description HTML into safe plain text: markup dropped, entities decoded, paragraphs and
/// line breaks kept as newlines, scripts and styles left out.
public enum HTMLText {
  /// Elements that end a line.
  private static let blocks: Set<String> = [
    "div", "li", "ul", "ol", "tr", "table", "pre", "section", "article", "header", "footer",
    "dl", "dt", "dd", "hr", "figure", "address", "nav", "aside", "td", "th",
  ]
  /// Elements that stand apart as paragraphs (an empty line before and after).
  private static let paragraphs: Set<String> = [
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
  ]
  private static let skipped: Set<String> = [
    "script", "style", "noscript", "template", "iframe", "object", "head", "svg",
  ]

  /// Plain text of an HTML fragment or page.
  public static func plainText(fromHTML html: String) -> String {
    // Most feed titles and many descriptions hold no markup at all.
    if !html.utf8.contains(UInt8(ascii: "<")) && !html.utf8.contains(UInt8(ascii: "&")) {
      return normalize(html)
    }
    guard let document = try? HTMLDocument(html: html), let root = document.root else {
      return normalize(html)
    }
    var text = TextBuilder()
    var stack: [(node: xmlNodePtr, closing: Bool)] = [(root.pointer, false)]
    while let (node, closing) = stack.popLast() {
      let name = node.pointee.name.map { String(cString: $0) } ?? ""
      if closing {
        text.requestBreak(lines: paragraphs.contains(name) ? 2 : 1)
        continue
      }
      switch node.pointee.type {
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        if let content = node.pointee.content { text.append(String(cString: content)) }
      case XML_ELEMENT_NODE:
        if skipped.contains(name) { continue }
        if name == "br" { text.lineBreak() }
        let isParagraph = paragraphs.contains(name)
        if isParagraph || blocks.contains(name) {
          text.requestBreak(lines: isParagraph ? 2 : 1)
          stack.append((node, true))
        }
        for child in HTMLNode.childPointers(of: node).reversed() { stack.append((child, false)) }
      default:
        continue
      }
    }
    return normalize(text.output)
  }

  /// Plain text tidied: spaces folded, lines trimmed, at most one empty line in a row, no leading/trailing blanks.
  public static func normalize(_ text: String) -> String {
    var lines: [String] = []
    var blank = false
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let words = rawLine.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" })
      if words.isEmpty {
        if !lines.isEmpty && !blank { blank = true }
        continue
      }
      if blank {
        lines.append("")
        blank = false
      }
      lines.append(words.joined(separator: " "))
    }
    return lines.joined(separator: "\n")
  }
}

/// Collects text with line breaks that collapse: two block ends in a row make one break.
private struct TextBuilder {
  private(set) var output = ""
  private var pending = 0

  mutating func requestBreak(lines: Int) { pending = max(pending, lines) }

  mutating func lineBreak() {
    flush()
    output += "\n"
  }

  mutating func append(_ text: String) {
    if text.allSatisfy(\.isWhitespace) && pending > 0 { return }
    flush()
    output += text
  }

  private mutating func flush() {
    if pending > 0, !output.isEmpty { output += String(repeating: "\n", count: pending) }
    pending = 0
  }
}
