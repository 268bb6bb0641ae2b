/// A change to one search of searches.yaml, as the page's form makes it.
package enum SearchChange: Sendable, Equatable {
  /// A new search, its keys in this order, appended to `searches:`.
  case add([EditPair])
  /// The search named `name`: the keys of `set` given these values (a key it holds is
  /// rewritten where it stands, a new one goes at its end), the keys of `remove` taken out.
  case edit(name: String, set: [EditPair], remove: [String])
  /// The search named `name` taken out, with the comment lines directly above it.
  case delete(name: String)

  /// Pauses (`enabled: false`, the key the reader already has) or resumes (the key taken out,
  /// so that the search runs by default) the search named `name`.
  package static func pause(_ name: String, paused: Bool) -> SearchChange {
    paused
      ? .edit(name: name, set: [EditPair("enabled", .plain("false"))], remove: [])
      : .edit(name: name, set: [], remove: ["enabled"])
  }

  /// The search's name the change is made to (nil for a new search).
  package var target: String? {
    switch self {
    case .add: nil
    case .edit(let name, _, _), .delete(let name): name
    }
  }
}

/// Why a change cannot be written: the file does not parse, or the search is not there, or the
/// change would need what the writer does not do (said in the message).
package struct SearchEditProblem: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, for the form.
  package let message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
