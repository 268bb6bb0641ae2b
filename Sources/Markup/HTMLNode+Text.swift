internal import CLibXML2

extension HTMLNode {
  /// The text inside as a reader sees it: spaces and source line breaks folded into one space,
  /// a line break for each `<br>` and at each block element's start and end (`div`, `li`,
  /// `tr`...), an empty line around paragraphs and headings; scripts and styles left out.
  /// Each line is trimmed; no line break at either end. A script or style asked for itself gives
  /// its text on one line.
  public var text: String {
    // An attribute, a text node, or an element whose text is data (a script's JSON).
    guard pointer.pointee.type == XML_ELEMENT_NODE, !HTMLText.skipped.contains(name) else {
      return HTMLText.folded(textContent)
    }
    var builder = TextBuilder()
    // Depth first without recursion (deep pages are safe); an element is met again at its end.
    var stack: [(node: xmlNodePtr, entering: Bool)] = [(pointer, true)]
    while case (let node, let entering)? = stack.popLast() {
      switch node.pointee.type {
      case XML_ELEMENT_NODE:
        let name = node.pointee.name.map { String(cString: $0) } ?? ""
        if HTMLText.skipped.contains(name) { continue }
        guard entering else {
          builder.requestBreak(lines: HTMLText.breakLines(after: name))
          continue
        }
        if name == "br" {
          builder.lineBreak()
          continue
        }
        builder.requestBreak(lines: HTMLText.breakLines(after: name))
        stack.append((node, false))
        stack.append(contentsOf: Self.childPointers(of: node).reversed().map { ($0, true) })
      case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
        guard let content = xmlNodeGetContent(node) else { continue }
        defer { clarissa_xml_free(content) }
        builder.append(HTMLText.spacesFolded(String(cString: content)))
      default: continue
      }
    }
    return HTMLText.trimmedLines(builder.output)
  }
}

extension HTMLText {
  /// The line breaks an element's start and end make: 2 for a paragraph, 1 for a block, else 0.
  static func breakLines(after name: String) -> Int {
    paragraphs.contains(name) ? 2 : blocks.contains(name) ? 1 : 0
  }

  /// The line breaks an element's start or end makes in text collected from XML: `<br>`'s
  /// one, a block's one, a paragraph's two (``normalize(_:)`` folds runs).
  public static func lineBreaks(at name: String) -> String {
    String(repeating: "\n", count: name == "br" ? 1 : breakLines(after: name))
  }

  /// Whether an element's text is left out (scripts, styles).
  public static func isSkipped(_ name: String) -> Bool { skipped.contains(name) }

  /// Every run of whitespace (line breaks too) as one space, as HTML shows text.
  static func spacesFolded(_ text: String) -> String {
    var output = ""
    var space = false
    for character in text {
      if character.isWhitespace {
        space = true
        continue
      }
      if space { output.append(" ") }
      space = false
      output.append(character)
    }
    if space { output.append(" ") }
    return output
  }

  /// Text on one line: whitespace folded, none at the ends.
  public static func folded(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// Each line trimmed, at most one empty line in a row, none at either end.
  static func trimmedLines(_ text: String) -> String {
    var lines: [Substring] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " })
      let kept = Substring(String(trimmed.reversed()))
      if kept.isEmpty, lines.last?.isEmpty ?? true { continue }
      lines.append(kept)
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.joined(separator: "\n")
  }
}
