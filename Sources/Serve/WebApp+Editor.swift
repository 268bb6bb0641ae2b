internal import ClarissaCore
internal import Foundation
internal import Synchronization
internal import WebServer

/// `/searches`: searches.yaml edited from the page (list, add, edit, pause, delete), through
/// the ``SearchEditing`` the command hands the app. Every POST passed the same guards as the
/// other forms (Host, token, CSRF, same origin) before it gets here; a save is refused when the
/// file changed since its form was opened (the form carries the file's SHA-256), and shown with
/// each located error, unsaved, when the new text does not pass the config reader.
extension WebApp {
  /// The editor, when the command handed one (nil: `serve.edit: false`, or none given).
  package var searchEditing: (any SearchEditing)? {
    get { editorSlot.withLock { $0 } }
    set { editorSlot.withLock { $0 = newValue } }
  }

  /// Answers `/searches/...`.
  func editor(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    guard let editing = searchEditing else {
      throw RequestProblem(
        404,
        "editing searches from the page is off (serve.edit: false, or no config file); edit "
          + "the file and reload")
    }
    switch (request.method, path) {
    case ("GET", []):
      return Pages.editorList(editing.snapshot(), csrf: csrf, notice: Self.notice(request))
    case ("GET", ["new"]):
      return Pages.editorForm(FormSearch(), original: "", snapshot: editing.snapshot(), csrf: csrf)
    case ("GET", ["edit"]):
      let snapshot = editing.snapshot()
      let name = request.query.first("name") ?? ""
      guard let search = snapshot.searches.first(where: { $0.name == name }) else {
        throw RequestProblem(404, "no search named '\(SafeText.line(String(name.prefix(200))))'")
      }
      return Pages.editorForm(search, original: name, snapshot: snapshot, csrf: csrf)
    case ("POST", ["save"]):
      return try saveForm(request, editing)
    case ("POST", ["pause"]):
      let form = request.form
      let name = form.first("name") ?? ""
      return try finish(
        editing.save(
          .pause(name, form.first("paused") == "1"), expecting: form.first("hash") ?? ""),
        done: name, editing)
    case ("POST", ["delete"]):
      let form = request.form
      let name = form.first("name") ?? ""
      return try finish(
        editing.save(.delete(name), expecting: form.first("hash") ?? ""), done: name, editing)
    case ("GET", _), ("POST", _):
      throw RequestProblem(404, "nothing at \(request.path)")
    default:
      throw RequestProblem(405, "\(request.method) is not allowed here")
    }
  }

  private func saveForm(_ request: WebRequest, _ editing: any SearchEditing) throws -> WebResponse {
    let form = request.form
    let search = Self.formSearch(form)
    let original = form.first("original") ?? ""
    let change: FormChange = original.isEmpty ? .add(search) : .edit(original: original, search)
    let outcome = editing.save(change, expecting: form.first("hash") ?? "")
    switch outcome {
    case .invalid(let problems):
      var response = Pages.editorForm(
        search, original: original, snapshot: editing.snapshot(), csrf: csrf, problems: problems)
      response.status = 422
      return response
    case .stale:
      // The form again, over the file as it is now, with the values sent: nothing is lost.
      var response = Pages.editorForm(
        search, original: original, snapshot: editing.snapshot(), csrf: csrf,
        notice: Self.staleNotice)
      response.status = 409
      return response
    default:
      return try finish(outcome, done: search.name, editing)
    }
  }

  private static let staleNotice: HTML = """
    <p class="message" id="stale">Not saved: searches.yaml changed since this form was opened. \
    The form now holds the file's current version with your values: check them and save again.</p>
    """

  /// A pause, delete or save done: back to the list (the config re-read at once), or the
  /// refusal.
  private func finish(
    _ outcome: EditorOutcome, done name: String, _ editing: any SearchEditing
  ) throws -> WebResponse {
    switch outcome {
    case .saved:
      // The pages show the new searches at once, as after a SIGHUP.
      config = editing.reloaded(keeping: config)
      return .redirect("/searches?saved=" + Self.queryValue(name))
    case .stale:
      throw RequestProblem(
        409, "not saved: searches.yaml changed since the page was opened; reload it and try again")
    case .invalid(let problems):
      let first = problems.first.map { "line \($0.line):\($0.column): \($0.message)" } ?? ""
      throw RequestProblem(422, "not saved: the file would have errors (\(first))")
    case .refused(let why):
      throw RequestProblem(400, "not saved: \(why)")
    }
  }

  private static func notice(_ request: WebRequest) -> HTML {
    guard let saved = request.query.first("saved") else { return .empty }
    return "<p class=\"message\" id=\"saved\">Saved: \(String(saved.prefix(200))).</p>"
  }

  /// The form's fields as a search.
  static func formSearch(_ form: WebFields) -> FormSearch {
    var search = FormSearch()
    func text(_ name: String) -> String {
      SafeText.line(form.first(name) ?? "").trimmingCharacters(in: .whitespaces)
    }
    search.name = text("name")
    search.site = text("site")
    search.cities = text("cities").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    // Words as typed: a trailing space is kept, as in a filter's text.
    search.query = SafeText.line(form.first("query") ?? "")
    search.priceMin = text("price_min")
    search.priceMax = text("price_max")
    let effects = form.all("filter_effect")
    let texts = form.all("filter_text")
    let kinds = form.all("filter_kind")
    let ons = form.all("filter_on")
    for (index, pattern) in texts.enumerated() where !pattern.isEmpty {
      // A filter's text is kept as typed (trailing spaces included), control characters out.
      let kept = String(
        String.UnicodeScalarView(
          pattern.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
      search.filters.append(
        FormSearch.Filter(
          effect: index < effects.count && effects[index] == "exclude" ? "exclude" : "include",
          text: kept, regex: index < kinds.count && kinds[index] == "regex",
          on: index < ons.count && ["title", "description"].contains(ons[index])
            ? ons[index] : "both"))
    }
    let places = form.all("near_place")
    let distances = form.all("near_distance")
    for (place, distance) in zip(places, distances) where !place.isEmpty && !distance.isEmpty {
      search.near.append((SafeText.line(place), SafeText.line(distance)))
    }
    search.within = (form.first("within") ?? "").split(whereSeparator: \.isNewline).map {
      SafeText.line(String($0)).trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
    search.notify = form.all("notify").map { SafeText.line($0) }.filter { !$0.isEmpty }
    search.enabled = form.first("enabled") != "0"
    return search
  }
}
