/// What the page's search editor asks of searches.yaml. Serve links neither the config reader
/// with its sites and channel kinds nor libcurl, so the command that serves (`serve`, `watch
/// --http`) hands the app an implementation made with the loader `validate` uses.
package protocol SearchEditing: Sendable {
  /// The file as it is now: its hash, its searches as the form shows them, the names the form
  /// offers.
  func snapshot() -> EditorSnapshot
  /// Writes `change` when the file's SHA-256 is still `hash` and the new text is valid through
  /// the config reader; else says why not, and leaves the file as it was.
  func save(_ change: FormChange, expecting hash: String) -> EditorOutcome
  /// The config the pages show, read again after a save (as a SIGHUP reads it).
  func reloaded(keeping previous: ServedConfig) -> ServedConfig
}

/// searches.yaml as the editor found it.
package struct EditorSnapshot: Sendable {
  /// The file's SHA-256 in hex: the form carries it, and a save is refused when it changed.
  package var hash: String
  /// The searches in file order (their own keys; `defaults:` not applied).
  package var searches: [FormSearch]
  /// The config's channel names (`notify:`), offered as check boxes.
  package var channels: [String]
  /// The config's place names (`places:`), offered for `near`.
  package var places: [String]
  /// Why the file cannot be edited (it does not parse, it is not there); nil when it can.
  package var problem: String?

  /// Creates a snapshot.
  package init(
    hash: String, searches: [FormSearch], channels: [String], places: [String],
    problem: String? = nil
  ) {
    self.hash = hash
    self.searches = searches
    self.channels = channels
    self.places = places
    self.problem = problem
  }
}

/// One search as the form shows and sends it; an empty text is a key not written.
package struct FormSearch: Sendable, Equatable {
  /// One `filters:` entry the form edits.
  package struct Filter: Sendable, Equatable {
    /// `include` or `exclude`.
    package var effect: String
    /// The word, phrase or pattern.
    package var text: String
    /// Whether `text` is a regular expression.
    package var regex: Bool
    /// `title`, `description` or `both`.
    package var on: String

    /// Creates a filter.
    package init(effect: String, text: String, regex: Bool = false, on: String = "both") {
      self.effect = effect
      self.text = text
      self.regex = regex
      self.on = on
    }
  }

  package var name = ""
  package var site = ""
  package var cities: [String] = []
  package var query = ""
  package var filters: [Filter] = []
  package var priceMin = ""
  package var priceMax = ""
  /// `near:` as place name and distance (`3 km`).
  package var near: [(place: String, distance: String)] = []
  /// `within:` files.
  package var within: [String] = []
  /// `notify:` channel names.
  package var notify: [String] = []
  /// False for `enabled: false`.
  package var enabled = true
  /// The pasted `url:`, shown and kept (the form does not edit it).
  package var url = ""
  /// Whether the file writes a key in a shape the form cannot show (filters with options it
  /// has no field for, `near: all`); such a key is kept unless its field is changed.
  package var unshown: [String] = []

  /// An empty search.
  package init() {}

  package static func == (left: FormSearch, right: FormSearch) -> Bool {
    left.name == right.name && left.site == right.site && left.cities == right.cities
      && left.query == right.query && left.filters == right.filters
      && left.priceMin == right.priceMin && left.priceMax == right.priceMax
      && left.near.map { [$0.place, $0.distance] } == right.near.map { [$0.place, $0.distance] }
      && left.within == right.within && left.notify == right.notify
      && left.enabled == right.enabled && left.url == right.url
  }
}

/// A change the form asks for.
package enum FormChange: Sendable {
  /// A new search.
  case add(FormSearch)
  /// The search named `original`, its fields now these.
  case edit(original: String, FormSearch)
  /// The search paused (true) or resumed.
  case pause(String, Bool)
  /// The search taken out.
  case delete(String)
}

/// One problem of the text a change would write, where it is.
package struct EditorProblem: Sendable, Equatable {
  /// Its line and column in the file as it would be (0 when it has none).
  package var line: Int
  package var column: Int
  /// The search's key the line belongs to (`query`, `filters`), when it is in the search.
  package var field: String?
  /// The reader's message.
  package var message: String

  package init(line: Int, column: Int, field: String?, message: String) {
    self.line = line
    self.column = column
    self.field = field
    self.message = message
  }
}

/// What became of a save.
package enum EditorOutcome: Sendable, Equatable {
  /// Written; the file's new hash.
  case saved(hash: String)
  /// Not written: the file changed since the form was opened.
  case stale
  /// Not written: the new text has errors.
  case invalid([EditorProblem])
  /// Not written, for this reason (no such search, the file could not be written).
  case refused(String)
}
