internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// The listing page's "Text changed" section (issue 28): each change of its title or
/// description, newest first, words removed in `<del>` and added in `<ins>`.
extension Pages {
  /// The section, or nothing when the text never changed.
  static func textChanges(_ history: ListingHistory, now: Date) -> HTML {
    guard let changes = history.textChanges, !changes.isEmpty else { return .empty }
    let items = TextChange.steps(changes, to: history.listing).map { step in
      let fields = step.diffs.map { diff in
        "<div class=\"diff\"><b>\(diff.field)</b>: \(html(diff.parts))</div>" as HTML
      }
      return "<li>\(time(step.change.changedAt, now: now))\(fields)</li>" as HTML
    }
    return "<h2>Text changed</h2><ul class=\"text-changes\">\(items)</ul>"
  }

  /// A word diff in HTML, every word escaped.
  static func html(_ parts: [WordDiff.Part]) -> HTML {
    parts.map { part -> HTML in
      switch part {
      case .same(let text): return "\(text)"
      case .removed(let text): return "<del>\(text)</del>"
      case .added(let text): return "<ins>\(text)</ins>"
      }
    }.joined(separator: " ")
  }
}
