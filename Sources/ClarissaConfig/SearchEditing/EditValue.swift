internal import Foundation

/// A value the search editor writes into searches.yaml: text (quoted when YAML needs it), a
/// plain token written as it is (a number, `true`, `30m`), a list or a mapping.
package indirect enum EditValue: Sendable, Equatable {
  /// Text: written plain when YAML reads it back as the same string, else quoted.
  case text(String)
  /// A number, boolean or duration, written as it is (quoted only if it could not be plain).
  case plain(String)
  /// A list, written `[a, b]` when every item is a short plain scalar, else one `- ` a line.
  case list([EditValue])
  /// A mapping in the order given, written `{a: 1}` when every value is a plain scalar.
  case map([EditPair])

  /// Whether this is a scalar (text or plain).
  var isScalar: Bool {
    switch self {
    case .text, .plain: true
    case .list, .map: false
    }
  }
}

/// One key of a mapping the editor writes, with its value.
package struct EditPair: Sendable, Equatable {
  /// The key, as written.
  package var key: String
  /// Its value.
  package var value: EditValue

  /// A key and its value.
  package init(_ key: String, _ value: EditValue) {
    self.key = key
    self.value = value
  }
}

/// Renders ``EditValue``s as YAML, block style at a given indentation, flow style inside flow
/// collections. The text it writes reads back, through libyaml, as the value it was given
/// (SearchWriterTests checks every value of 200 edits that way).
enum YAMLRendering {
  /// Plain scalars YAML 1.1 or 1.2 reads as something other than a string.
  private static let typedWords: Set<String> = [
    "", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n",
  ]

  /// `key: value` as lines, the key at `indent` spaces (the first line without them: the
  /// caller puts them, or a `- `, in front).
  static func pairLines(_ key: String, _ value: EditValue, indent: Int) -> [String] {
    let name = self.key(key, flow: false)
    switch value {
    case .text, .plain:
      return ["\(name): \(scalar(value, flow: false))"]
    case .list(let items) where items.isEmpty:
      return ["\(name): []"]
    case .map(let pairs) where pairs.isEmpty:
      return ["\(name): {}"]
    case .list(let items) where items.allSatisfy(\.isScalar) && flowFits(items):
      return ["\(name): [" + items.map { scalar($0, flow: true) }.joined(separator: ", ") + "]"]
    case .map(let pairs) where pairs.allSatisfy(\.value.isScalar) && flowFits(pairs.map(\.value)):
      let inner = pairs.map { "\(self.key($0.key, flow: true)): \(scalar($0.value, flow: true))" }
      return ["\(name): {" + inner.joined(separator: ", ") + "}"]
    case .list, .map:
      let pad = String(repeating: " ", count: indent + 2)
      return ["\(name):"] + blockLines(value, indent: indent + 2).map { pad + $0 }
    }
  }

  /// A list's or mapping's lines in block style, each without the leading `indent` spaces.
  private static func blockLines(_ value: EditValue, indent: Int) -> [String] {
    switch value {
    case .text, .plain:
      return [scalar(value, flow: false)]
    case .list(let items):
      return items.flatMap { item -> [String] in
        switch item {
        case .text, .plain: return ["- " + scalar(item, flow: false)]
        case .list:
          let lines = blockLines(item, indent: indent + 2)
          return ["- " + lines[0]] + lines.dropFirst().map { "  " + $0 }
        case .map(let pairs):
          if pairs.isEmpty { return ["- {}"] }
          var lines: [String] = []
          for (index, pair) in pairs.enumerated() {
            let own = pairLines(pair.key, pair.value, indent: indent + 2)
            lines.append((index == 0 ? "- " : "  ") + own[0])
            lines += own.dropFirst().map { String($0.dropFirst(indent)) }
          }
          return lines
        }
      }
    case .map(let pairs):
      return pairs.flatMap { pair in
        let own = pairLines(pair.key, pair.value, indent: indent)
        return [own[0]] + own.dropFirst().map { String($0.dropFirst(indent)) }
      }
    }
  }

  /// Whether a flow collection of these scalars stays short enough for one line.
  private static func flowFits(_ items: [EditValue]) -> Bool {
    let length = items.reduce(0) { total, item in
      switch item {
      case .text(let text), .plain(let text): total + text.count + 2
      default: total + 100
      }
    }
    return length <= 60
  }

  /// A scalar value as YAML, in block or flow context.
  static func scalar(_ value: EditValue, flow: Bool) -> String {
    switch value {
    case .plain(let token):
      return isPlainSafe(token, flow: flow, typedAllowed: true) ? token : quoted(token)
    case .text(let text):
      return isPlainSafe(text, flow: flow, typedAllowed: false) ? text : quoted(text)
    case .list, .map:
      return "~"
    }
  }

  /// A mapping's key: plain when it can be (the config reader reads every key as text, so
  /// `on` stays `on`), else quoted.
  static func key(_ text: String, flow: Bool) -> String {
    scalar(.plain(text), flow: flow)
  }

  /// Whether `text` may be written plain and read back as the same string: no indicator at its
  /// start, no `: ` or ` #` inside, no space at either end, nothing YAML would read as another
  /// type (unless `typedAllowed`), and in flow context none of `,[]{}`.
  static func isPlainSafe(_ text: String, flow: Bool, typedAllowed: Bool) -> Bool {
    guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else {
      return false
    }
    if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
    if first == " " || last == " " || last == ":" || first == "\t" || last == "\t" { return false }
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{FEFF}" {
        return false
      }
      if flow, ",[]{}".unicodeScalars.contains(scalar) { return false }
    }
    if text.contains(": ") || text.contains(" #") || text.contains("\t") { return false }
    if !typedAllowed {
      if typedWords.contains(text.lowercased()) { return false }
      if looksNumeric(text) { return false }
    }
    return true
  }

  /// Whether a plain scalar could be read as a number (YAML 1.1 or 1.2: signs, dots, hex, octal,
  /// sexagesimal, `.inf`, `.nan`, digits with `_`).
  private static func looksNumeric(_ text: String) -> Bool {
    let lowered = text.lowercased()
    if [".inf", "-.inf", "+.inf", ".nan"].contains(lowered) { return true }
    let allowed = Set("0123456789+-._:eoxabcdef")
    return lowered.first.map { "0123456789+-.".contains($0) } == true
      && lowered.allSatisfy(allowed.contains)
  }

  /// Single quotes (a `'` doubled), or double quotes with escapes when the text holds a line
  /// break or another control character, which single quotes cannot carry.
  static func quoted(_ text: String) -> String {
    let needsEscapes = text.unicodeScalars.contains {
      $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{FEFF}"
        || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{85}"
    }
    guard needsEscapes else { return "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{FEFF}"
          || scalar == "\u{2028}" || scalar == "\u{2029}"
        {
          out += String(format: "\\u%04X", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}
