import ClarissaCore
import Foundation
import ListingStore

/// The listing page's "Text changed" section (issue 28): each change of its title or
/// description, newest first, words removed in `<del>` and added in `<ins>`.
extension Pages {
  /// The section, or nothing when the text never changed.
  static func textChanges(_ history: ListingHistory, now: Date) -> String {
    guard let changes = history.textChanges, !changes.isEmpty else { return "" }
    let items = TextChange.steps(changes, to: history.listing).map { step in
      let fields = step.diffs.map { diff in
        "<div class=\"diff\"><b>\(e(diff.field))</b>: \(html(diff.parts))</div>"
      }
      return "<li>\(time(step.change.changedAt, now: now))\(fields.joined())</li>"
    }
    return "<h2>Text changed</h2><ul class=\"text-changes\">\(items.joined())</ul>"
  }

  /// A word diff in HTML, every word escaped.
  static func html(_ parts: [WordDiff.Part]) -> String {
    parts.map { part in
      switch part {
      case .same(let text): return e(text)
      case .removed(let text): return "<del>\(e(text))</del>"
      case .added(let text): return "<ins>\(e(text))</ins>"
      }
    }.joined(separator: " ")
  }
}
