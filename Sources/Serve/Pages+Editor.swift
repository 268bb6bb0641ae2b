internal import ClarissaCore
internal import WebServer

/// The search editor's pages: the list of searches with Add, Edit, Pause and Delete, and a
/// search's form. Plain forms, posted with the page's CSRF token and the file's SHA-256; they
/// work without script.
extension Pages {
  /// `/searches`: each search with its buttons; `notice` above them (saved, refused).
  static func editorList(
    _ snapshot: EditorSnapshot, csrf: String, notice: HTML = .empty
  ) -> WebResponse {
    let rows: [HTML] = snapshot.searches.map { search in
      let state: HTML = search.enabled ? "runs" : "<strong>paused</strong>"
      let link = "/searches/edit?name=" + WebApp.queryValue(search.name)
      return """
        <tr><td><a href="\(link)">\(search.name)</a></td><td>\(search.site.isEmpty ? "(default)" : search.site)</td>\
        <td>\(state)</td><td class="actions"><a class="button" href="\(link)">Edit</a>\
        <form method="post" action="/searches/pause"><input type="hidden" name="csrf" value="\(csrf)">\
        <input type="hidden" name="hash" value="\(snapshot.hash)">\
        <input type="hidden" name="name" value="\(search.name)">\
        <input type="hidden" name="paused" value="\(search.enabled ? "1" : "0")">\
        <button type="submit">\(search.enabled ? "Pause" : "Resume")</button></form>\
        <form method="post" action="/searches/delete"><input type="hidden" name="csrf" value="\(csrf)">\
        <input type="hidden" name="hash" value="\(snapshot.hash)">\
        <input type="hidden" name="name" value="\(search.name)">\
        <button type="submit" class="danger">Delete</button></form></td></tr>
        """
    }
    let problem: HTML = snapshot.problem.map { "<p class=\"message\">\($0)</p>" } ?? .empty
    return layout(
      "Edit searches", csrf: csrf,
      """
      <h1>Edit searches</h1>\(notice)\(problem)
      <p><a class="button" href="/searches/new">Add a search</a></p>
      <table class="editor"><thead><tr><th>Search</th><th>Site</th><th>State</th><th></th></tr></thead>
      <tbody>\(rows)</tbody></table>
      <p class="hint">Saving rewrites only the search changed; the file's previous version is kept \
      beside it as a .bak file.</p>
      """)
  }

  /// A search's form: `original` is the name it has in the file (empty for a new one).
  static func editorForm(
    _ search: FormSearch, original: String, snapshot: EditorSnapshot, csrf: String,
    problems: [EditorProblem] = [], notice: HTML = .empty
  ) -> WebResponse {
    let title = original.isEmpty ? "Add a search" : "Edit \(original)"
    let errors: [HTML] = problems.map { problem in
      let place = problem.line > 0 ? "line \(problem.line):\(problem.column)" : "the file"
      let field = problem.field.map { " (\($0))" } ?? ""
      return "<li><code>\(place)\(field)</code> \(problem.message)</li>"
    }
    let errorList: HTML =
      errors.isEmpty
      ? .empty
      : "<section class=\"problems\" id=\"problems\"><h2>Not saved: the file would have errors</h2><ul>\(errors)</ul></section>"
    return layout(
      title, csrf: csrf,
      """
      <h1>\(title)</h1>\(notice)\(errorList)
      <p class="hint">The search's own keys: a field left empty takes the value of \
      <code>defaults:</code>, if it has one.</p>
      <form method="post" action="/searches/save" class="editor">
      <input type="hidden" name="csrf" value="\(csrf)">
      <input type="hidden" name="hash" value="\(snapshot.hash)">
      <input type="hidden" name="original" value="\(original)">
      \(field("name", "Name", search.name, required: true))\
      \(field("site", "Site", search.site, hint: "empty: the defaults' site (craigslist)"))\
      \(search.url.isEmpty ? HTML.empty : "<p class=\"hint\">Pasted URL: <code>\(search.url)</code> (edit it in the file)</p>")\
      \(field("cities", "Cities", search.cities.joined(separator: ", "), hint: "comma-separated"))\
      \(field("query", "Query", search.query))\
      <fieldset><legend>Price</legend>\(field("price_min", "Min", search.priceMin))\
      \(field("price_max", "Max", search.priceMax))</fieldset>
      \(filterRows(search))\(nearRows(search, places: snapshot.places))\
      <label>Within (GeoJSON files, one a line)<textarea name="within" rows="2">\(search.within.joined(separator: "\n"))</textarea></label>
      \(channelBoxes(search, channels: snapshot.channels))\
      <label>State <select name="enabled"><option value="1"\(search.enabled ? HTML(" selected") : .empty)>runs</option>\
      <option value="0"\(search.enabled ? HTML.empty : " selected")>paused</option></select></label>
      \(search.unshown.isEmpty ? HTML.empty : "<p class=\"hint\">The file writes \(search.unshown.joined(separator: ", ")) in a way this form does not show: it is kept unless you change it here.</p>")\
      <p><button type="submit">Save</button> <a href="/searches">Cancel</a></p>
      </form>
      """)
  }

  private static func field(
    _ name: String, _ label: String, _ value: String, required: Bool = false, hint: String = ""
  ) -> HTML {
    let hintHTML: HTML = hint.isEmpty ? .empty : " <small>\(hint)</small>"
    return """
      <label>\(label)\(hintHTML) <input type="text" name="\(name)" value="\(value)"\
      \(required ? HTML(" required") : .empty)></label>
      """
  }

  private static func filterRows(_ search: FormSearch) -> HTML {
    let rows = search.filters + Array(repeating: FormSearch.Filter(effect: "", text: ""), count: 2)
    let html: [HTML] = rows.map { filter in
      func option(_ value: String, _ current: String, _ label: String) -> HTML {
        "<option value=\"\(value)\"\(value == current ? HTML(" selected") : .empty)>\(label)</option>"
      }
      return """
        <div class="filter-row"><select name="filter_effect">\(option("include", filter.effect, "include"))\
        \(option("exclude", filter.effect, "exclude"))</select>\
        <input type="text" name="filter_text" value="\(filter.text)" aria-label="word, phrase or pattern">\
        <select name="filter_kind">\(option("text", filter.regex ? "regex" : "text", "text"))\
        \(option("regex", filter.regex ? "regex" : "text", "regex"))</select>\
        <select name="filter_on">\(option("both", filter.on, "title and description"))\
        \(option("title", filter.on, "title"))\(option("description", filter.on, "description"))</select></div>
        """
    }
    return "<fieldset><legend>Filters (an empty row is none)</legend>\(html)</fieldset>"
  }

  private static func nearRows(_ search: FormSearch, places: [String]) -> HTML {
    let rows =
      search.near + Array(repeating: (place: "", distance: ""), count: places.isEmpty ? 0 : 1)
    guard !rows.isEmpty else { return .empty }
    let html: [HTML] = rows.map { row in
      let names =
        ([""] + places + (places.contains(row.place) || row.place.isEmpty ? [] : [row.place]))
      let options: [HTML] = names.map {
        "<option value=\"\($0)\"\($0 == row.place ? HTML(" selected") : .empty)>\($0.isEmpty ? "—" : $0)</option>"
      }
      return """
        <div class="near-row"><select name="near_place">\(options)</select>\
        <input type="text" name="near_distance" value="\(row.distance)" aria-label="distance, such as 3 km"></div>
        """
    }
    return
      "<fieldset><legend>Near (a place of 'places:' and a distance: 3 km, 500 m, 2 mi)</legend>\(html)</fieldset>"
  }

  private static func channelBoxes(_ search: FormSearch, channels: [String]) -> HTML {
    let names = channels + search.notify.filter { !channels.contains($0) }
    guard !names.isEmpty else { return .empty }
    let boxes: [HTML] = names.map { name in
      """
      <label class="inline"><input type="checkbox" name="notify" value="\(name)"\
      \(search.notify.contains(name) ? HTML(" checked") : .empty)> \(name)</label>
      """
    }
    return "<fieldset><legend>Notify</legend>\(boxes)</fieldset>"
  }
}
