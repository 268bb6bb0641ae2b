public import Foundation

/// Text written into XML and HTML that clarissa makes (Atom feeds, the HTML page, the web
/// interface).
public enum MarkupText {
  /// `2026-05-03T19:00:00Z`: RFC 3339 in UTC, as Atom and the pages show times.
  public static func timestamp(_ date: Date) -> String {
    DateFormat.internet.string(from: date)
  }

  /// Text safe in XML and HTML content and attributes (quotes included); control characters
  /// XML forbids are dropped. Atom feeds, the HTML page and `clarissa serve`'s pages use it.
  public static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
      default:
        if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }
}
