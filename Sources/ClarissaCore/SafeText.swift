internal import Foundation

/// The one sanitiser for text that came from a site or a server, before it reaches a terminal,
/// a message, a page or the store. A title carrying ESC or BEL could clear a terminal, set its
/// window title, hide earlier lines or disguise a link (OSC 8); a CR could overwrite a line.
/// C0 and C1 control characters and DEL are removed; a line break or tab becomes a space in a
/// single-line field and is kept (as `\n` and `\t`) where a field is multi-line. Invalid UTF-8
/// and lone surrogates cannot reach here: every byte sequence is decoded with replacement
/// characters before it is a `String`.
public enum SafeText {
  /// `text` as one line: control characters removed, line breaks and tabs made spaces.
  public static func line(_ text: String) -> String {
    guard needsCleaning(text, multiline: false) else { return text }
    return clean(text, multiline: false)
  }

  /// `text` with its line breaks (`\n`; `\r\n` and a lone `\r` become `\n`) and tabs kept,
  /// every other control character removed.
  public static func lines(_ text: String) -> String {
    guard needsCleaning(text, multiline: true) else { return text }
    return clean(text, multiline: true)
  }

  /// Whether `text` holds anything ``line(_:)`` or ``lines(_:)`` would change: one pass over
  /// its bytes, so clean text (nearly all of it) costs no copy.
  public static func needsCleaning(_ text: String, multiline: Bool) -> Bool {
    // The bytes where they are: every text of every listing passes here, and walking `utf8` by
    // index cost four times the scan.
    text.withBytes { needsCleaning($0, multiline: multiline) }
  }

  private static func needsCleaning(_ bytes: UnsafeBufferPointer<UInt8>, multiline: Bool) -> Bool {
    var previous: UInt8 = 0
    for byte in bytes {
      if byte < 0x20 {
        if !(multiline && (byte == 0x0A || byte == 0x09)) { return true }
      } else if byte == 0x7F {
        return true
      } else if previous == 0xC2, (0x80...0x9F).contains(byte) {
        // U+0080-U+009F (C1) are C2 80-C2 9F in UTF-8.
        return true
      }
      previous = byte
    }
    return false
  }

  private static func clean(_ text: String, multiline: Bool) -> String {
    var scalars = String.UnicodeScalarView()
    var lastWasCR = false
    for scalar in text.unicodeScalars {
      defer { lastWasCR = scalar == "\r" }
      switch scalar.value {
      case 0x0A where multiline:
        if !lastWasCR { scalars.append("\n") }
      case 0x0D where multiline: scalars.append("\n")
      case 0x09 where multiline: scalars.append(scalar)
      case 0x09, 0x0A, 0x0D:
        if !lastWasCR || scalar != "\n" { scalars.append(" ") }
      case 0x00..<0x20, 0x7F...0x9F: continue
      default: scalars.append(scalar)
      }
    }
    return String(scalars)
  }

  /// `text` cut to at most `limit` characters, the cut marked with `…`; nil when it fits.
  public static func cut(_ text: String, to limit: Int) -> String? {
    // Counting characters walks the whole string; a byte count at or under the limit fits.
    guard text.utf8.count > limit, text.count > limit else { return nil }
    return String(text.prefix(max(0, limit - 1))) + "…"
  }
}
