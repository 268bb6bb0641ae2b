internal import ClarissaCore
internal import Foundation
internal import ListingStore

/// The marks a person sets (star, hide, note) on the cards and the listing page: what they say
/// and the forms that change them (POSTs to `/mark` with the page's CSRF token).
extension Pages {
  /// The badges of a card: starred, hidden, a note.
  static func markBadges(_ marks: ListingMarks?) -> [HTML] {
    guard let marks else { return [] }
    var badges: [HTML] = []
    if marks.starred { badges.append("<span class=\"badge starred-badge\">★ starred</span>") }
    if marks.hidden { badges.append("<span class=\"badge hidden-badge\">hidden</span>") }
    if marks.note != nil { badges.append("<span class=\"badge note-badge\">note</span>") }
    return badges
  }

  /// The listing page's facts: starred since, hidden since, the note.
  static func markFacts(_ marks: ListingMarks?, now: Date) -> [(String, HTML)] {
    guard let marks else { return [] }
    var facts: [(String, HTML)] = []
    if let starred = marks.starredAt { facts.append(("starred", time(starred, now: now))) }
    if let hidden = marks.hiddenAt {
      facts.append(
        ("hidden", "\(time(hidden, now: now)): left out of the lists, the map and alerts"))
    }
    if let note = marks.note {
      facts.append(("note", "<span class=\"note-text\">\(note)</span>"))
    }
    return facts
  }

  /// Star/Unstar and Hide/Unhide buttons, and the note's form (its text, Save, Remove); each
  /// returns to `back` (a path on this server).
  static func markControls(
    _ key: ListingKey, _ marks: ListingMarks?, csrf: String, back: String
  ) -> HTML {
    let fields: HTML = """
      \(csrfField(csrf))<input type="hidden" name="key" value="\(key.site + ":" + key.id)">\
      <input type="hidden" name="return" value="\(back)">
      """
    let note = marks?.note ?? ""
    return """
      <form method="post" action="/mark" class="mark-form">\(fields)\
      \(starButton(on: marks?.starred == true))\(hideButton(on: marks?.hidden == true))</form>\
      <details class="note-form"\(note.isEmpty ? "" : " open")>\
      <summary>\(note.isEmpty ? "Add a note" : "Note")</summary>\
      <form method="post" action="/mark">\(fields)\
      <textarea name="note" rows="2" maxlength="\(ListingMarks.noteLimit)">\(note)</textarea>\
      <button name="mark" value="note" class="note-save">Save note</button>\
      \(note.isEmpty ? HTML.empty : removeNoteButton)</form></details>
      """
  }

  /// Star, or Unstar when `on`.
  static func starButton(on: Bool) -> HTML {
    on
      ? """
      <button name="mark" value="unstar" class="star-button on" \
      title="stop watching it">★ Unstar</button>
      """
      : """
      <button name="mark" value="star" class="star-button" \
      title="watch it: its changes are announced">☆ Star</button>
      """
  }

  /// Hide, or Unhide when `on`.
  static func hideButton(on: Bool) -> HTML {
    on
      ? "<button name=\"mark\" value=\"unhide\" class=\"hide-button on\">Unhide</button>"
      : """
      <button name="mark" value="hide" class="hide-button" \
      title="never show nor announce it again">Hide</button>
      """
  }

  /// The note form's Remove.
  static let removeNoteButton: HTML =
    "<button name=\"mark\" value=\"unnote\" class=\"note-remove\">Remove</button>"
}
