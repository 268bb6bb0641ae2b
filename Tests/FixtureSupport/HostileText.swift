/// What an attacker puts in a listing's text for a terminal: ESC sequences that clear the
/// screen, set the window title, make an OSC 8 link and move the cursor up; BEL, DEL, CSI as one
/// C1 character, and a CR that rewrites the line.
public enum HostileText {
  /// The escape sequences, in one string.
  public static let escapes =
    "\u{1B}[2J\u{1B}]0;pwned\u{07}\u{1B}]8;;https://evil.example/\u{1B}\\link\u{1B}]8;;\u{1B}\\"
    + "\u{1B}[3A\u{7F}\u{9B}31m\r"

  /// True when `text` holds a control character other than a line break or a tab.
  public static func hasControl(_ text: String) -> Bool {
    text.unicodeScalars.contains {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
    }
  }
}
