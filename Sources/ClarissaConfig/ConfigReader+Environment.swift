internal import ClarissaCore
internal import YAML

/// `${NAME}` references: secrets come from the environment, never from the file.
extension ConfigReader {
  /// A text value with `${NAME}` and `${NAME:-fallback}` replaced from the environment;
  /// `$${` writes a literal `${`. An unset variable is an error at its own position.
  func expandedString(_ node: Node, _ what: String, optional: Bool = false) -> String? {
    guard let text = string(node, what, optional: optional) else { return nil }
    guard text.contains("${") else { return text }
    var output = ""
    var rest = Substring(text)
    var failed = false
    while let dollar = rest.firstIndex(of: "$") {
      output += rest[..<dollar]
      let afterDollar = rest[rest.index(after: dollar)...]
      if afterDollar.hasPrefix("${") {
        output += "${"
        rest = afterDollar.dropFirst(2)
        continue
      }
      guard afterDollar.hasPrefix("{") else {
        output += "$"
        rest = afterDollar
        continue
      }
      guard let close = afterDollar.firstIndex(of: "}") else {
        error("'${' has no closing '}' in \(what)", at: place(of: "${", in: node))
        return nil
      }
      let reference = afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close]
      if let value = resolve(reference, in: node, what) {
        output += value
      } else {
        failed = true
      }
      rest = afterDollar[afterDollar.index(after: close)...]
    }
    output += rest
    return failed ? nil : output
  }

  private func resolve(_ reference: Substring, in node: Node, _ what: String) -> String? {
    let parts = reference.split(separator: ":-", maxSplits: 1, omittingEmptySubsequences: false)
    let name = String(parts[0])
    let fallback = parts.count == 2 ? String(parts[1]) : nil
    let isName =
      !name.isEmpty && name.first.map { !$0.isNumber } == true
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    guard isName else {
      error(
        "'${\(reference)}' is not a valid variable reference in \(what); "
          + "write '${NAME}' or '${NAME:-fallback}'", at: place(of: "${\(reference)", in: node))
      return nil
    }
    if let value = environment[name], !value.isEmpty { return value }
    if let fallback { return fallback }
    let state = environment[name] == nil ? "is not set" : "is empty"
    error(
      "environment variable '\(name)' \(state) (used in \(what))",
      at: place(of: "${\(name)", in: node),
      notes: [Diagnostic.Note("export \(name)=... before running, or write '${\(name):-fallback}'")]
    )
    return nil
  }

  /// Where `needle` is written inside the scalar `node`: its own column when the source shows
  /// it, else the scalar's start.
  func place(of needle: String, in node: Node, atOffset hint: Int? = nil) -> SourceLocation {
    for lineNumber in node.start.line...max(node.start.line, node.end.line) {
      guard let line = sourceLine(lineNumber) else { break }
      let startColumn = lineNumber == node.start.line ? node.start.column : 1
      if let column = column(of: needle, in: line, from: startColumn) {
        return SourceLocation(file: file, line: lineNumber, column: column)
      }
    }
    return location(node)
  }

  private func column(of needle: String, in line: [Unicode.Scalar], from start: Int) -> Int? {
    let target = Array(needle.unicodeScalars)
    guard !target.isEmpty, line.count >= target.count else { return nil }
    var index = max(0, start - 1)
    while index + target.count <= line.count {
      if Array(line[index..<index + target.count]) == target { return index + 1 }
      index += 1
    }
    return nil
  }
}
