internal import ClarissaConfig
internal import Serve

/// The search editor's form fields to and from searches.yaml's keys. A field the form sends
/// as it was shown leaves its key alone (its lines, comments included, stay as they are); a
/// field changed sets its key, and emptied removes it.
enum FormSearches {
  /// A search of the file as the form shows it.
  static func form(_ values: SearchValues) -> FormSearch {
    var search = FormSearch()
    search.name = values.name
    search.site = scalar(values.value("site"))
    search.url = scalar(values.value("url"))
    search.cities = texts(values.value("cities"))
    search.query = scalar(values.value("query"))
    if case .map(let bounds)? = values.value("price") {
      search.priceMin = scalar(bounds.first { $0.key == "min" }?.value)
      search.priceMax = scalar(bounds.first { $0.key == "max" }?.value)
    }
    search.within = texts(values.value("within"))
    search.notify = texts(values.value("notify"))
    search.enabled = scalar(values.value("enabled")).lowercased() != "false"
    switch values.value("near") {
    case .map(let pairs)?:
      search.near = pairs.map { (place: $0.key, distance: scalar($0.value)) }
    case nil: break
    default: search.unshown.append("near")
    }
    if let filters = values.value("filters") {
      if let read = self.filters(filters) {
        search.filters = read
      } else {
        search.unshown.append("filters")
      }
    }
    return search
  }

  /// `filters:` as the form's rows; nil when they hold what the form has no field for
  /// (`match`, `case_sensitive`, anything but plain text in a pattern).
  private static func filters(_ value: EditValue) -> [FormSearch.Filter]? {
    guard case .list(let items) = value else { return nil }
    var rows: [FormSearch.Filter] = []
    for item in items {
      guard case .map(let pairs) = item,
        pairs.allSatisfy({ ["include", "exclude", "regex", "on"].contains($0.key) }),
        let effect = pairs.first(where: { $0.key == "include" || $0.key == "exclude" })
      else { return nil }
      let regex = scalar(pairs.first { $0.key == "regex" }?.value).lowercased() == "true"
      let on = scalar(pairs.first { $0.key == "on" }?.value)
      for text in texts(effect.value) {
        rows.append(
          FormSearch.Filter(
            effect: effect.key, text: text, regex: regex, on: on.isEmpty ? "both" : on))
      }
    }
    return rows
  }

  private static func scalar(_ value: EditValue?) -> String {
    switch value {
    case .text(let text)?, .plain(let text)?: text
    default: ""
    }
  }

  private static func texts(_ value: EditValue?) -> [String] {
    switch value {
    case .list(let items)?: items.map { scalar($0) }
    case .text(let text)?, .plain(let text)?: [text]
    default: []
    }
  }

  /// The name of the search a change ends up with (for locating its problems).
  static func editedName(_ change: FormChange) -> String? {
    switch change {
    case .add(let search), .edit(_, let search): search.name
    case .pause(let name, _), .delete(let name): name
    }
  }

  /// The writer's change for a form's.
  static func change(_ change: FormChange, in searches: [SearchValues]) throws(SearchEditProblem)
    -> SearchChange
  {
    switch change {
    case .pause(let name, let paused): return .pause(name, paused: paused)
    case .delete(let name): return .delete(name: name)
    case .add(let search):
      guard !search.name.isEmpty else { throw SearchEditProblem("a search needs a name") }
      let pairs = keys(of: search)
      return .add(pairs.compactMap { key, value in value.map { EditPair(key, $0) } })
    case .edit(let original, let search):
      guard let current = searches.first(where: { $0.name == original }) else {
        throw SearchEditProblem("no search named '\(original)' in the file")
      }
      guard !search.name.isEmpty else { throw SearchEditProblem("a search needs a name") }
      let before = Dictionary(
        keys(of: form(current)).map { ($0.0, $0.1) }, uniquingKeysWith: { first, _ in first })
      var set: [EditPair] = []
      var remove: [String] = []
      for (key, value) in keys(of: search) where before[key].flatMap({ $0 }) != value {
        if let value {
          set.append(EditPair(key, value))
        } else if current.value(key) != nil {
          remove.append(key)
        }
      }
      // A field the form cannot show is kept unless it was changed here.
      let kept = form(current).unshown
      set.removeAll { kept.contains($0.key) && isEmpty($0.value) }
      remove.removeAll { kept.contains($0) }
      return .edit(name: original, set: set, remove: remove)
    }
  }

  private static func isEmpty(_ value: EditValue) -> Bool {
    switch value {
    case .list(let items): items.isEmpty
    case .map(let pairs): pairs.isEmpty
    case .text(let text), .plain(let text): text.isEmpty
    }
  }

  /// The form's fields as keys and values (nil: the key is not written).
  static func keys(of search: FormSearch) -> [(String, EditValue?)] {
    func text(_ value: String) -> EditValue? { value.isEmpty ? nil : .text(value) }
    var price: [EditPair] = []
    if !search.priceMin.isEmpty { price.append(EditPair("min", .plain(search.priceMin))) }
    if !search.priceMax.isEmpty { price.append(EditPair("max", .plain(search.priceMax))) }
    let filters: [EditValue] = search.filters.map { filter in
      var pairs = [EditPair(filter.effect, .text(filter.text))]
      if filter.regex { pairs.append(EditPair("regex", .plain("true"))) }
      if filter.on != "both" { pairs.append(EditPair("on", .plain(filter.on))) }
      return .map(pairs)
    }
    return [
      ("name", .text(search.name)),
      ("site", text(search.site)),
      ("cities", search.cities.isEmpty ? nil : .list(search.cities.map { .text($0) })),
      ("query", text(search.query)),
      ("price", price.isEmpty ? nil : .map(price)),
      ("filters", filters.isEmpty ? nil : .list(filters)),
      (
        "near",
        search.near.isEmpty
          ? nil : .map(search.near.map { EditPair($0.place, .plain($0.distance)) })
      ),
      ("within", search.within.isEmpty ? nil : .list(search.within.map { .text($0) })),
      ("notify", search.notify.isEmpty ? nil : .list(search.notify.map { .text($0) })),
      ("enabled", search.enabled ? nil : .plain("false")),
    ]
  }
}
