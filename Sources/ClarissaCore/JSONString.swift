/// Text as the content of a JSON string (RFC 8259): quotes, backslashes and control characters
/// escaped; the one escaper of the project (the store's JSON, request bodies of declared sites).
public enum JSONString {
  /// `text` escaped, without the surrounding quotes.
  public static func escaped(_ text: String) -> String {
    // Most texts (ids, URLs, titles) need no escaping: returned whole.
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
      return text
    }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{0}"..."\u{1F}":
        out += "\\u00" + (scalar.value < 16 ? "0" : "") + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
