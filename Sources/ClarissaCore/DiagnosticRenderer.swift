/// Prints diagnostics the way compilers do: `file:line:column: error: message`, then the source
/// line and a caret under the column.
public struct DiagnosticRenderer: Sendable {
  /// The text of each file by the name used in its locations, for quoting source lines.
  public var sources: [String: String]
  /// Whether to color the severity (ANSI); off for files, pipes and `NO_COLOR`.
  public var colored: Bool

  /// Creates a renderer that quotes lines from `sources`.
  public init(sources: [String: String] = [:], colored: Bool = false) {
    self.sources = sources
    self.colored = colored
  }

  /// The whole text for `diagnostics`, each followed by its notes; ends with a newline if any.
  public func render(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.map(render).joined()
  }

  /// The text for one diagnostic and its notes.
  public func render(_ diagnostic: Diagnostic) -> String {
    let secrets = diagnostic.secrets
    var out = block(diagnostic.severity, diagnostic.message, diagnostic.location, secrets)
    for note in diagnostic.notes {
      out += block(.note, note.message, note.location, secrets)
    }
    return out
  }

  private func block(
    _ severity: Diagnostic.Severity, _ message: String, _ location: SourceLocation?,
    _ secrets: [String]
  ) -> String {
    let prefix = location.map { "\($0): " } ?? ""
    var out = "\(prefix)\(paint(severity)): \(Self.mask(message, secrets).text)\n"
    if let location, let line = sourceLine(location) {
      let (shown, column) = Self.mask(line, secrets, column: location.column)
      out += shown + "\n" + caret(under: shown, column: column) + "\n"
    }
    return out
  }

  /// `text` with each of `secrets` made `***`, and where `column` (1-based, in Unicode scalars)
  /// moves to.
  static func mask(_ text: String, _ secrets: [String], column: Int = 1) -> (
    text: String, column: Int
  ) {
    var scalars = Array(text.unicodeScalars)
    var column = column
    for secret in secrets.sorted(by: { $0.count > $1.count }) {
      let needle = Array(secret.unicodeScalars)
      guard !needle.isEmpty else { continue }
      var index = 0
      while index + needle.count <= scalars.count {
        guard Array(scalars[index..<index + needle.count]) == needle else {
          index += 1
          continue
        }
        scalars.replaceSubrange(index..<index + needle.count, with: "***".unicodeScalars)
        if index + needle.count < column { column -= needle.count - 3 }
        index += 3
      }
    }
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars)
    return (String(out), column)
  }

  private func paint(_ severity: Diagnostic.Severity) -> String {
    guard colored else { return severity.rawValue }
    let code =
      switch severity {
      case .error: "1;31"
      case .warning: "1;35"
      case .note: "1;36"
      }
    return "\u{1B}[\(code)m\(severity.rawValue)\u{1B}[0m"
  }

  private func sourceLine(_ location: SourceLocation) -> String? {
    guard let text = sources[location.file], location.line >= 1 else { return nil }
    var lineNumber = 1
    var start = text.unicodeScalars.startIndex
    var index = start
    let scalars = text.unicodeScalars
    while index < scalars.endIndex {
      if lineNumber == location.line { break }
      if scalars[index] == "\n" {
        lineNumber += 1
        start = scalars.index(after: index)
      }
      index = scalars.index(after: index)
    }
    guard lineNumber == location.line else { return nil }
    var end = start
    while end < scalars.endIndex, scalars[end] != "\n", scalars[end] != "\r" {
      end = scalars.index(after: end)
    }
    let line = String(scalars[start..<end])
    return Self.printable(line)
  }

  /// Replaces control characters (other than tab) so that a binary line cannot garble a terminal.
  private static func printable(_ line: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in line.unicodeScalars {
      if scalar == "\t" || (scalar.value >= 0x20 && scalar.value != 0x7F && scalar.value != 0xFEFF)
      {
        out.append(scalar)
      } else {
        out.append("\u{FFFD}")
      }
    }
    return String(out)
  }

  /// Spaces up to the column (tabs kept, so the caret lines up) and a `^`.
  private func caret(under line: String, column: Int) -> String {
    var pad = ""
    for (offset, scalar) in line.unicodeScalars.enumerated() where offset < column - 1 {
      pad.append(scalar == "\t" ? "\t" : " ")
    }
    let shortfall = max(0, column - 1 - line.unicodeScalars.count)
    return pad + String(repeating: " ", count: shortfall) + "^"
  }
}
