internal import CLibXML2
internal import Foundation

/// Turns description HTML into safe plain text: markup dropped, entities decoded, paragraphs and
/// line breaks kept as newlines, scripts and styles left out.
public enum HTMLText {
  /// Elements that end a line.
  static let blocks: Set<String> = [
    "div", "li", "ul", "ol", "tr", "table", "pre", "section", "article", "header", "footer",
    "dl", "dt", "dd", "hr", "figure", "address", "nav", "aside", "td", "th",
  ]
  /// Elements that stand apart as paragraphs (an empty line before and after).
  static let paragraphs: Set<String> = [
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
  ]
  /// Elements whose text is no text to read. An `iframe` or `object`'s own text is what a
  /// browser shows without it, and is kept (as feedparser's sanitizer keeps it).
  static let skipped: Set<String> = [
    "script", "style", "noscript", "template", "applet", "head",
  ]

  /// Plain text of an HTML fragment or page, read by libxml2's HTML parser in SAX mode (no
  /// tree is built).
  public static func plainText(fromHTML html: String) -> String {
    Converter().plainText(fromHTML: html)
  }

  /// Whether converting `html` runs libxml2's parser (it holds `<` or `&`); without either, its
  /// plain text is ``normalize(_:)`` of it, a byte scan.
  public static func needsParser(_ html: String) -> Bool {
    // memchr is vectorized; this runs over every description of every poll.
    let found = html.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
      guard let base = bytes.baseAddress else { return false }
      return memchr(base, Int32(UInt8(ascii: "<")), bytes.count) != nil
        || memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil
    }
    return found ?? html.utf8.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }
  }

  /// Converts many fragments with one libxml2 parser context (a feed's items): creating a
  /// context costs more than reading a short description.
  public final class Converter {
    private let context: htmlParserCtxtPtr?
    private let sink = TextSink()
    private var handler = HTMLText.makeHandler()

    /// Creates a converter; use it from one thread at a time.
    public init() {
      MarkupLibrary.initialize()
      context = htmlNewParserCtxt()
      context?.pointee._private = Unmanaged.passUnretained(sink).toOpaque()
    }

    deinit {
      if let context { htmlFreeParserCtxt(context) }
    }

    /// Plain text of an HTML fragment or page.
    public func plainText(fromHTML html: String) -> String {
      // Most feed titles and many descriptions hold no markup at all.
      if !HTMLText.needsParser(html) { return HTMLText.normalize(html) }
      guard let context else { return HTMLText.normalize(html) }
      sink.reset()
      let html = HTMLText.openDeclarationsEscaped(html)
      let options =
        Int32(HTML_PARSE_RECOVER.rawValue) | Int32(HTML_PARSE_NOERROR.rawValue)
        | Int32(HTML_PARSE_NOWARNING.rawValue) | Int32(HTML_PARSE_NONET.rawValue)
      let original = context.pointee.sax
      withUnsafeMutablePointer(to: &handler) { pointer in
        context.pointee.sax = pointer
        var bytes = Array(html.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
          buffer.withMemoryRebound(to: CChar.self) {
            let document = htmlCtxtReadMemory(
              context, $0.baseAddress, Int32($0.count), nil, "UTF-8", options)
            if let document { xmlFreeDoc(document) }
          }
        }
        context.pointee.sax = original
      }
      return HTMLText.normalize(sink.text.output)
    }
  }

  /// The SAX callbacks: text, element starts and ends; everything else (errors, tree building)
  /// left out.
  static func makeHandler() -> htmlSAXHandler {
    var handler = htmlSAXHandler()
    handler.startElement = { context, name, _ in
      guard let sink = TextSink.of(context), let name else { return }
      sink.start(String(cString: name))
    }
    handler.endElement = { context, name in
      guard let sink = TextSink.of(context), let name else { return }
      sink.end(String(cString: name))
    }
    handler.characters = { context, characters, length in
      guard let sink = TextSink.of(context), let characters, sink.skipping == 0 else { return }
      sink.text.append(
        String(decoding: UnsafeBufferPointer(start: characters, count: Int(length)), as: UTF8.self))
    }
    handler.cdataBlock = handler.characters
    return handler
  }

  /// What the SAX callbacks write into.
  final class TextSink {
    var text = TextBuilder()
    var skipping = 0

    func reset() {
      text = TextBuilder()
      skipping = 0
    }

    static func of(_ context: UnsafeMutableRawPointer?) -> TextSink? {
      guard let context else { return nil }
      let parser = context.assumingMemoryBound(to: htmlParserCtxt.self)
      return parser.pointee._private.map {
        Unmanaged<TextSink>.fromOpaque($0).takeUnretainedValue()
      }
    }

    func start(_ name: String) {
      if HTMLText.skipped.contains(name) {
        skipping += 1
        return
      }
      guard skipping == 0 else { return }
      if name == "br" {
        text.lineBreak()
      } else if HTMLText.paragraphs.contains(name) {
        text.requestBreak(lines: 2)
      } else if HTMLText.blocks.contains(name) {
        text.requestBreak(lines: 1)
      }
    }

    func end(_ name: String) {
      if HTMLText.skipped.contains(name) {
        skipping = max(0, skipping - 1)
        return
      }
      guard skipping == 0 else { return }
      if HTMLText.paragraphs.contains(name) {
        text.requestBreak(lines: 2)
      } else if HTMLText.blocks.contains(name) {
        text.requestBreak(lines: 1)
      }
    }
  }

  /// Plain text tidied: spaces folded, lines trimmed, at most one empty line in a row, no
  /// leading or trailing blanks. Works on UTF-8 bytes: it runs on every title and description.
  public static func normalize(_ text: String) -> String {
    var text = text
    if text.withUTF8(isTidy) { return text }
    return text.withUTF8 { bytes in
      var output: [UInt8] = []
      output.reserveCapacity(bytes.count)
      var newlines = 0
      var space = false
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case 0x20, 0x09, 0x0D, 0x0B, 0x0C:
          space = true
          continue
        case 0x0A:
          newlines += 1
          space = false
          continue
        case 0xC2 where index < bytes.count && bytes[index] == 0xA0:  // no-break space
          index += 1
          space = true
          continue
        default:
          break
        }
        if !output.isEmpty {
          if newlines > 0 {
            output.append(0x0A)
            if newlines > 1 { output.append(0x0A) }
          } else if space {
            output.append(0x20)
          }
        }
        newlines = 0
        space = false
        output.append(byte)
      }
      return String(decoding: output, as: UTF8.self)
    }
  }
}

extension HTMLText {
  /// `<!` that starts no declaration, comment or CDATA section (`<!'`, or a ` <!DOCTYPE ` that
  /// no `>` closes) as text: libxml2 would drop it, and the rest of the text with it, where
  /// feedparser keeps it as text.
  static func openDeclarationsEscaped(_ html: String) -> String {
    // A byte scan first: Foundation's search, which the loop below needs for its matches,
    // costs more than the HTML parser on a short description, and finds nothing where the
    // bytes `<!` are not.
    guard holdsBytes(UInt8(ascii: "<"), UInt8(ascii: "!"), in: html), html.contains("<!") else {
      return html
    }
    var out = ""
    var rest = html[...]
    while let open = rest.range(of: "<!") {
      out += rest[..<open.lowerBound]
      let after = rest[open.upperBound...]
      let declares =
        after.hasPrefix("--") || after.hasPrefix("[")
        || (after.first?.isLetter == true && after.contains(">"))
      out += declares ? "<!" : "&lt;!"
      rest = after
    }
    return out + rest
  }

  /// Whether `first` is followed by `second` somewhere in `text`'s UTF-8 bytes.
  static func holdsBytes(_ first: UInt8, _ second: UInt8, in text: String) -> Bool {
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if previous == first && byte == second { return true }
      previous = byte
    }
    return false
  }

  /// Whether `normalize` would change nothing (most titles): no space at either end, no runs of
  /// spaces, no tabs, returns or no-break spaces, no blank lines.
  static func isTidy(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = bytes.first, let last = bytes.last else { return true }
    if first == 0x20 || first == 0x0A || last == 0x20 || last == 0x0A { return false }
    var previous: UInt8 = 0
    for byte in bytes {
      switch byte {
      case 0x09, 0x0B, 0x0C, 0x0D, 0xA0: return false
      case 0x20 where previous == 0x20 || previous == 0x0A: return false
      case 0x0A where previous == 0x20 || previous == 0x0A: return false
      default: break
      }
      previous = byte
    }
    return true
  }
}

/// Collects text with line breaks that collapse: two block ends in a row make one break.
struct TextBuilder {
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
