internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// A listing's marks as the API answers them.
struct MarkAnswer: Encodable {
  /// `SITE:ID`.
  var key: String
  /// Whether the request changed them (absent for a read).
  var changed: Bool?
  /// Its marks now (`{}` when none).
  var marks: ListingMarks
}

/// Marks from the pages and the API: star, unstar, hide, unhide, a note; the starred and the
/// hidden views. Every change goes through ``mark(_:on:)``.
extension WebApp {
  /// Sets `mark` on the listing the store has under `key` (404 when it has none); returns whether
  /// its marks changed, and what they are now.
  func mark(_ mark: ListingMark, on key: ListingKey) throws -> (changed: Bool, marks: ListingMarks)
  {
    try requireListing(key)
    let changed = try store.setMark(mark, on: [key], at: clock()) > 0
    return (changed, try store.marks(of: [key])[key] ?? ListingMarks())
  }

  private func requireListing(_ key: ListingKey) throws {
    guard try store.holds(key) else {
      throw RequestProblem(404, "no listing \(key.site):\(key.id) in the store")
    }
  }

  /// The change a word names: `star`, `unstar`, `hide`, `unhide`, `note` (with `note`'s text;
  /// empty removes it), `unnote`.
  static func mark(named word: String, note: String?) -> ListingMark? {
    switch word {
    case "star": .star
    case "unstar": .unstar
    case "hide": .hide
    case "unhide": .unhide
    case "note": .note(note)
    case "unnote": .note(nil)
    default: nil
    }
  }

  /// `POST /mark` from a card or the listing page: `key` (SITE:ID), `mark`, `note`; then back
  /// to `return`.
  func setMark(form request: WebRequest) throws -> WebResponse {
    let form = request.form
    guard let key = form.first("key").flatMap(Self.key) else {
      throw RequestProblem(400, "key: send the listing as SITE:ID")
    }
    guard let change = Self.mark(named: form.first("mark") ?? "", note: form.first("note")) else {
      throw RequestProblem(400, "mark: one of star, unstar, hide, unhide, note, unnote")
    }
    _ = try mark(change, on: key)
    return .redirect(Self.local(form.first("return") ?? Pages.listingPath(key)))
  }

  /// `/starred` and `/hidden`: the listings page of the starred or the hidden, the latest
  /// marked first, with the page's filters.
  func markedPage(_ request: WebRequest, _ marked: MarkFilter) throws -> WebResponse {
    let rest = request.target.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
    return try listingsPage(
      WebRequest(
        method: "GET", target: "/listings?\(marked.rawValue)=1&\(rest)", headers: request.headers))
  }

  /// The marks a query asks for: `starred=1` or `hidden=1` (only those), `with_hidden=1`
  /// (everything); else the hidden are left out.
  static func marked(_ fields: WebFields) throws -> MarkFilter {
    let yes = { (name: String) in
      ["1", "true", "on", "yes"].contains(fields.first(name)?.lowercased() ?? "")
    }
    let asked =
      [(yes("starred"), MarkFilter.starred), (yes("hidden"), .hidden)]
      + [(yes("with_hidden"), MarkFilter.any)]
    let chosen = asked.filter(\.0).map(\.1)
    guard chosen.count <= 1 else {
      throw RequestProblem(400, "choose one of starred, hidden and with_hidden")
    }
    return chosen.first ?? .notHidden
  }

  /// The title of the starred or the hidden view.
  static func markedTitle(_ query: ListingQuery) -> String? {
    switch query.marked {
    case .starred: "Starred"
    case .hidden: "Hidden"
    case .notHidden, .any: nil
    }
  }

  /// The query's marks as a parameter (`starred=1&`), for the pager and the forms.
  static func markedParameter(_ query: ListingQuery) -> (name: String, value: String)? {
    switch query.marked {
    case .starred: ("starred", "1")
    case .hidden: ("hidden", "1")
    case .any: ("with_hidden", "1")
    case .notHidden: nil
    }
  }

  /// `/api/listings/SITE/ID/(star|hide|note|marks)`: `POST` sets (`unstar`, `unhide` clear;
  /// `note` takes `{"note": "text"}`, null or empty removes it), `DELETE` clears, `GET marks`
  /// reads.
  func markAPI(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    let key = ListingKey(site: path[1], id: path[2])
    let action = path[3]
    if request.method == "GET" && action == "marks" {
      try requireListing(key)
      return Self.encoded(
        MarkAnswer(
          key: "\(key.site):\(key.id)", marks: try store.marks(of: [key])[key] ?? ListingMarks()))
    }
    let change: ListingMark?
    switch (request.method, action) {
    case ("POST", "note"): change = .note(try Self.noteText(request))
    case ("POST", _) where action != "marks": change = Self.mark(named: action, note: nil)
    case ("DELETE", "star"): change = .unstar
    case ("DELETE", "hide"): change = .unhide
    case ("DELETE", "note"): change = .note(nil)
    default:
      let known = ["star", "unstar", "hide", "unhide", "note", "marks"]
      guard known.contains(action) else {
        throw RequestProblem(
          404,
          "no API at \(request.path): a listing's marks are at .../star, .../hide, "
            + ".../note (POST sets, DELETE clears) and .../marks (GET); see docs/serve.md")
      }
      throw RequestProblem(405, "\(request.method) is not allowed on \(request.path)")
    }
    guard let change else {
      throw RequestProblem(
        404, "no API at \(request.path): POST .../star, .../unstar, .../hide, .../unhide, .../note")
    }
    let (changed, marks) = try mark(change, on: key)
    return Self.encoded(MarkAnswer(key: "\(key.site):\(key.id)", changed: changed, marks: marks))
  }

  /// The note of `{"note": "text"}` (null or empty: none).
  private static func noteText(_ request: WebRequest) throws -> String? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
      object.keys.contains("note")
    else {
      throw RequestProblem(400, "send {\"note\": \"text\"} as JSON (null or \"\" removes the note)")
    }
    if object["note"] is NSNull { return nil }
    guard let text = object["note"] as? String else {
      throw RequestProblem(400, "note: a string, or null to remove the note")
    }
    return text
  }
}
