internal import ClarissaCore
internal import Foundation

/// What a refusing receiver or program said, fit for one line of a report: white space (line
/// breaks included) folded, tags dropped when asked (error pages are often HTML), at most
/// `limit` characters, the end kept when `keepingEnd` (a program's last words say most).
package enum Excerpt {
  package static func oneLine<Bytes: Collection<UInt8>>(
    _ body: Bytes, droppingTags: Bool = false, limit: Int = 160, keepingEnd: Bool = false
  ) -> String {
    var text: [UInt8] = []
    var inTag = false
    for byte in body {
      switch byte {
      case UInt8(ascii: "<") where droppingTags: inTag = true
      case UInt8(ascii: ">") where inTag:
        inTag = false
        if text.last != 0x20 { text.append(0x20) }
      case _ where inTag: continue
      case 0x09, 0x0A, 0x0D, 0x20: if !text.isEmpty, text.last != 0x20 { text.append(0x20) }
      default: text.append(byte)
      }
    }
    // A server's words reach a terminal and the logs: no control character among them.
    let line = SafeText.line(String(decoding: text, as: UTF8.self))
      .trimmingCharacters(in: .whitespaces)
    guard line.count > limit else { return line }
    return keepingEnd ? "…" + String(line.suffix(limit - 1)) : String(line.prefix(limit - 1)) + "…"
  }
}
