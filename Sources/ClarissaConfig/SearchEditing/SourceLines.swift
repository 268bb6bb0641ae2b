/// A file's text as lines, to be edited a line (or, in flow collections, a character range) at
/// a time so that what is not edited stays byte for byte as it was. Lines are split on `\n`
/// only: a `\r` before it stays part of its line, and joining gives the text back exactly.
struct SourceLines {
  /// The lines, without their `\n`.
  var lines: [String]

  init(_ text: String) {
    lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The text again.
  var text: String { lines.joined(separator: "\n") }

  /// The number of lines (a text ending in `\n` has an empty last line).
  var count: Int { lines.count }

  /// Line `number` (1-based); empty past the end.
  func line(_ number: Int) -> String {
    number >= 1 && number <= lines.count ? lines[number - 1] : ""
  }

  /// Whether line `number` holds nothing but spaces and, perhaps, a comment.
  func isBlankOrComment(_ number: Int) -> Bool {
    let content = line(number).drop { $0 == " " || $0 == "\t" }
    return content.isEmpty || content.first == "#" || content == "\r"
      || content.hasPrefix("\r")
  }

  /// Whether line `number` holds nothing but spaces.
  func isBlank(_ number: Int) -> Bool {
    line(number).allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
  }

  /// The column (1-based) of line `number`'s first character that is not a space.
  func contentColumn(_ number: Int) -> Int {
    line(number).unicodeScalars.prefix { $0 == " " }.count + 1
  }

  /// Line `number`'s characters before `column` (1-based, in Unicode scalars).
  func prefix(_ number: Int, before column: Int) -> String {
    String(String.UnicodeScalarView(line(number).unicodeScalars.prefix(max(0, column - 1))))
  }

  /// Line `number`'s characters from `column` on.
  func suffix(_ number: Int, from column: Int) -> String {
    String(String.UnicodeScalarView(line(number).unicodeScalars.dropFirst(max(0, column - 1))))
  }

  /// The text between two places (from `start`, up to but not including `end`).
  func slice(from start: (line: Int, column: Int), to end: (line: Int, column: Int)) -> String {
    if start.line == end.line {
      let scalars = line(start.line).unicodeScalars
      let from = min(scalars.count, max(0, start.column - 1))
      let upTo = min(scalars.count, max(from, end.column - 1))
      return String(
        String.UnicodeScalarView(
          scalars[
            scalars.index(
              scalars.startIndex, offsetBy: from)..<scalars.index(
                scalars.startIndex, offsetBy: upTo)]))
    }
    var parts = [suffix(start.line, from: start.column)]
    if end.line - start.line > 1 { parts += lines[start.line..<(end.line - 1)] }
    parts.append(prefix(end.line, before: end.column))
    return parts.joined(separator: "\n")
  }

  /// Replaces lines `first...last` (1-based; `last` = `first` - 1 inserts before `first`).
  mutating func replace(_ first: Int, _ last: Int, with new: [String]) {
    lines.replaceSubrange((first - 1)..<last, with: new)
  }

  /// Replaces the text from `start` up to `end` with `new` (which may hold no line break).
  mutating func replace(
    from start: (line: Int, column: Int), to end: (line: Int, column: Int), with new: String
  ) {
    let joined = prefix(start.line, before: start.column) + new + suffix(end.line, from: end.column)
    replace(start.line, end.line, with: [joined])
  }
}
