import ClarissaCore
import Foundation
import ListingStore

/// The marks a person sets (star, hide, note) on the cards and the listing page: what they say
/// and the forms that change them (POSTs to `/mark` with the page's CSRF token).
extension Pages {
  /// The badges of a card: starred, hidden, a note.
  static func markBadges(_ marks: ListingMarks?) -> [String] {
    guard let marks else { return [] }
    var badges: [String] = []
    if marks.starred { badges.append("<span class=\"badge starred-badge\">★ starred</span>") }
    if marks.hidden { badges.append("<span class=\"badge hidden-badge\">hidden</span>") }
    if marks.note != nil { badges.append("<span class=\"badge note-badge\">note</span>") }
    return badges
  }

  /// The listing page's facts: starred since, hidden since, the note.
  static func markFacts(_ marks: ListingMarks?, now: Date) -> [(String, String)] {
    guard let marks else { return [] }
    var facts: [(String, String)] = []
    if let starred = marks.starredAt { facts.append(("starred", time(starred, now: now))) }
    if let hidden = marks.hiddenAt {
      facts.append(
        ("hidden", time(hidden, now: now) + ": left out of the lists, the map and alerts"))
    }
    if let note = marks.note {
      facts.append(("note", "<span class=\"note-text\">\(e(note))</span>"))
    }
    return facts
  }

  /// Star/Unstar and Hide/Unhide buttons, and the note's form (its text, Save, Remove); each
  /// returns to `back` (a path on this server).
  static func markControls(
    _ key: ListingKey, _ marks: ListingMarks?, csrf: String, back: String
  ) -> String {
    let fields =
      csrfField(csrf)
      + "<input type=\"hidden\" name=\"key\" value=\"\(e(key.site + ":" + key.id))\">"
      + "<input type=\"hidden\" name=\"return\" value=\"\(e(back))\">"
    let starred = marks?.starred == true
    let hidden = marks?.hidden == true
    let star =
      starred
      ? "<button name=\"mark\" value=\"unstar\" class=\"star-button on\" title=\"stop watching it\">★ Unstar</button>"
      : "<button name=\"mark\" value=\"star\" class=\"star-button\" title=\"watch it: its changes are announced\">☆ Star</button>"
    let hide =
      hidden
      ? "<button name=\"mark\" value=\"unhide\" class=\"hide-button on\">Unhide</button>"
      : "<button name=\"mark\" value=\"hide\" class=\"hide-button\" title=\"never show nor announce it again\">Hide</button>"
    let note = marks?.note ?? ""
    let remove =
      note.isEmpty
      ? "" : "<button name=\"mark\" value=\"unnote\" class=\"note-remove\">Remove</button>"
    return """
      <form method="post" action="/mark" class="mark-form">\(fields)\(star)\(hide)</form>\
      <details class="note-form"\(note.isEmpty ? "" : " open")><summary>\(note.isEmpty ? "Add a note" : "Note")</summary>\
      <form method="post" action="/mark">\(fields)<textarea name="note" rows="2" maxlength="\(ListingMarks.noteLimit)">\(e(note))</textarea>\
      <button name="mark" value="note" class="note-save">Save note</button>\(remove)</form></details>
      """
  }

  /// The style of the marks' badges and forms (after ``Assets/style``).
  static let markStyle = """
    .badge.starred-badge { background: #b7791f; } .badge.hidden-badge { background: var(--warn); } .badge.note-badge { background: var(--accent); }
    .mark-form { display: flex; gap: .4rem; padding: 0 .75rem .5rem; margin: 0; }
    .mark-form button { flex: 1; background: transparent; color: var(--mark); border: 1px solid var(--mark); }
    .mark-form button.on { background: var(--mark); color: #fff; }
    .note-form { padding: 0 .75rem .7rem; font-size: .85rem; color: var(--muted); }
    .note-form form { display: flex; flex-wrap: wrap; gap: .3rem; margin-top: .3rem; }
    .note-form textarea { width: 100%; font: inherit; border-radius: .4rem; border: 1px solid #8886; background: Field; color: FieldText; }
    .note-text { white-space: pre-line; overflow-wrap: anywhere; }
    .actions { align-items: flex-start; }
    .actions .mark-form, .actions .note-form { padding: 0; }
    .actions .mark-form button { flex: none; white-space: nowrap; }
    """
}
