internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import Presentation

/// The "text changed" section of `clarissa show` (issue 28): each change of the listing's title
/// or description, newest first, as a word diff (`[-old-]{+new+}`).
enum TextChangesSection {
  /// The section's lines, or nothing when the text never changed.
  static func text(_ history: ListingHistory, now: Date) -> String {
    guard let changes = history.textChanges, !changes.isEmpty else { return "" }
    var lines = ["text changed:"]
    for step in TextChange.steps(changes, to: history.listing) {
      lines.append("  " + ReportClock.time(step.change.changedAt, now: now, timeZone: .current))
      for diff in step.diffs {
        lines.append("    \(diff.field): " + SafeText.line(WordDiff.plain(diff.parts)))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
