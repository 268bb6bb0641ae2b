/// A problem found while reading YAML text, with its place.
public struct YAMLProblem: Sendable, Hashable, Error {
  /// What kind of problem, so callers can tell a syntax error from a limit.
  public enum Kind: Sendable, Hashable {
    /// libyaml could not read or parse the text (the document is unusable after it).
    case syntax
    /// A key appears twice in one mapping.
    case duplicateKey
    /// `*name` without an earlier `&name`.
    case undefinedAlias
    /// Aliases expand to more nodes than the budget allows.
    case aliasBudget
    /// Collections nest deeper than the limit.
    case depth
    /// The text holds no document, or more than one.
    case documentCount
  }

  /// What kind of problem this is.
  public var kind: Kind
  /// Lower-case description.
  public var message: String
  /// Where it is.
  public var mark: Mark
  /// Secondary places: libyaml's context ("while parsing a block mapping"), a first definition.
  public var notes: [YAMLNote]

  /// Creates a problem.
  public init(_ kind: Kind, _ message: String, at mark: Mark, notes: [YAMLNote] = []) {
    self.kind = kind
    self.message = message
    self.mark = mark
    self.notes = notes
  }
}

/// A secondary message of a ``YAMLProblem``, at its own place.
public struct YAMLNote: Sendable, Hashable {
  /// What the note says.
  public var message: String
  /// Where it points.
  public var mark: Mark

  /// Creates a note.
  public init(_ message: String, at mark: Mark) {
    self.message = message
    self.mark = mark
  }
}
