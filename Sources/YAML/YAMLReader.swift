internal import CLibYAML

/// Limits that keep hostile or mistaken input from costing time or memory.
public struct YAMLLimits: Sendable {
  /// Deepest nesting of mappings and sequences accepted (libyaml itself slows down
  /// quadratically with depth, so the reader stops pulling events past this).
  public var maxDepth: Int
  /// Most nodes the document may hold once every alias is expanded (stops alias bombs).
  public var maxExpandedNodes: Int

  /// Creates limits; the defaults suit any hand-written config.
  public init(maxDepth: Int = 128, maxExpandedNodes: Int = 200_000) {
    self.maxDepth = maxDepth
    self.maxExpandedNodes = maxExpandedNodes
  }
}

/// What reading a YAML text produced: the root node (nil when the text holds no document or a
/// fatal problem stopped the reader) and every problem found.
public struct YAMLDocument: Sendable {
  /// The document's root, or nil.
  public var root: Node?
  /// Problems in text order; `.syntax`, `.depth`, `.aliasBudget` and `.documentCount` are fatal.
  public var problems: [YAMLProblem]
}

/// Reads YAML text through libyaml's event API into a ``Node`` tree with positions.
public enum YAMLReader {
  /// Parses `text` (UTF-8, or UTF-16 with a byte-order mark).
  public static func read(_ text: [UInt8], limits: YAMLLimits = YAMLLimits()) -> YAMLDocument {
    // libyaml does not copy its input: the buffer must outlive the whole parse.
    text.withUnsafeBufferPointer { buffer in
      var parser = yaml_parser_t()
      guard yaml_parser_initialize(&parser) != 0 else {
        let problem = YAMLProblem(
          .syntax, "libyaml could not start (out of memory)", at: Mark(line: 1, column: 1))
        return YAMLDocument(root: nil, problems: [problem])
      }
      defer { yaml_parser_delete(&parser) }
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var builder = TreeBuilder(limits: limits)
      var event = yaml_event_t()
      while !builder.isFinished {
        guard yaml_parser_parse(&parser, &event) != 0 else {
          builder.fail(problem(of: parser, in: buffer))
          break
        }
        builder.consume(event)
        let done = event.type == YAML_STREAM_END_EVENT
        yaml_event_delete(&event)
        if done { break }
      }
      return YAMLDocument(root: builder.root, problems: builder.problems)
    }
  }

  /// libyaml's events for `text`, counted and dropped: the parse every tree is built on, alone
  /// (the benchmark's reference for the tree). Nil when libyaml stops at a problem.
  public static func eventCount(_ text: [UInt8]) -> Int? {
    text.withUnsafeBufferPointer { buffer in
      var parser = yaml_parser_t()
      guard yaml_parser_initialize(&parser) != 0 else { return nil }
      defer { yaml_parser_delete(&parser) }
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
      var event = yaml_event_t()
      var count = 0
      while yaml_parser_parse(&parser, &event) != 0 {
        count += 1
        let done = event.type == YAML_STREAM_END_EVENT
        yaml_event_delete(&event)
        if done { return count }
      }
      return nil
    }
  }

  /// Parses a Swift string.
  public static func read(_ text: String, limits: YAMLLimits = YAMLLimits()) -> YAMLDocument {
    read(Array(text.utf8), limits: limits)
  }

  private static func problem(
    of parser: yaml_parser_t, in buffer: UnsafeBufferPointer<UInt8>
  ) -> YAMLProblem {
    let raw = parser.problem.map { String(cString: $0) } ?? "unknown problem"
    if parser.error == YAML_READER_ERROR {
      let mark = Self.mark(atByteOffset: parser.problem_offset, in: buffer)
      return YAMLProblem(.syntax, readerMessage(raw, value: parser.problem_value), at: mark)
    }
    let mark = Mark(parser.problem_mark)
    var notes: [YAMLNote] = []
    if let context = parser.context.map({ String(cString: $0) }) {
      notes.append(YAMLNote(context, at: Mark(parser.context_mark)))
    }
    let offending = character(at: mark, in: buffer)
    return YAMLProblem(.syntax, scannerMessage(raw, offending: offending), at: mark, notes: notes)
  }

  private static func readerMessage(_ raw: String, value: Int32) -> String {
    if raw.contains("UTF-8") || raw.contains("control characters") {
      return "\(raw) (the file is not UTF-8 text)"
    }
    return raw
  }

  /// libyaml's message, with a hint for the two characters people trip on.
  private static func scannerMessage(_ raw: String, offending: Unicode.Scalar?) -> String {
    if raw.contains("tab character") { return "\(raw); YAML indents with spaces only" }
    guard raw == "found character that cannot start any token", let offending else { return raw }
    switch offending {
    case "\t":
      return "found a tab character that cannot start any token; YAML indents with spaces only"
    case "@", "`":
      return "\(raw): '\(offending)' is reserved in YAML; put the value in quotes"
    default:
      return raw
    }
  }

  private static func character(
    at mark: Mark, in buffer: UnsafeBufferPointer<UInt8>
  ) -> Unicode.Scalar? {
    var line = 1
    var column = 1
    var decoder = UTF8()
    var iterator = buffer.makeIterator()
    while case .scalarValue(let scalar) = decoder.decode(&iterator) {
      if line == mark.line && column == mark.column { return scalar }
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
      if line > mark.line { return nil }
    }
    return nil
  }

  /// Reader errors carry a byte offset only; count lines and characters up to it.
  private static func mark(atByteOffset offset: Int, in buffer: UnsafeBufferPointer<UInt8>) -> Mark
  {
    var line = 1
    var column = 1
    for byte in buffer.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return Mark(line: line, column: column)
  }
}

extension Mark {
  /// libyaml's 0-based mark, as users count.
  init(_ mark: yaml_mark_t) {
    self.init(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
  }
}
