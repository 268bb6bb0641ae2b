internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// The marks a person set, as `show` and `listings` print them.
extension ListingsOutput {
  /// `show`'s lines: starred since, hidden since, the note (its lines indented).
  static func marks(_ marks: ListingMarks?, time: (Date) -> String) -> [String] {
    guard let marks else { return [] }
    var lines: [String] = []
    if let starred = marks.starredAt { lines.append("  starred \(time(starred))") }
    if let hidden = marks.hiddenAt {
      lines.append(
        "  hidden \(time(hidden)): left out of listings, the pages and the feeds, never "
          + "announced ('clarissa unhide' shows it again)")
    }
    if let note = marks.note {
      let when = marks.notedAt.map { " (\(time($0)))" } ?? ""
      lines.append(
        "  note\(when): " + SafeText.lines(note).replacingOccurrences(of: "\n", with: "\n    "))
    }
    return lines
  }

  /// `listings`' line under a marked listing: `starred · hidden · note: its first line`.
  static func marks(_ marks: ListingMarks?) -> String? {
    guard let marks else { return nil }
    var parts: [String] = []
    if marks.starred { parts.append("starred") }
    if marks.hidden { parts.append("hidden") }
    if let note = marks.note {
      let first = SafeText.line(note.split(separator: "\n").first.map(String.init) ?? "")
      parts.append("note: " + (SafeText.cut(first, to: 80) ?? first))
    }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}
