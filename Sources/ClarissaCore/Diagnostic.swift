/// One problem found in the user's input, printed like a compiler's message.
public struct Diagnostic: Sendable, Hashable, Error {
  /// How serious a diagnostic is: only errors fail validation.
  public enum Severity: String, Sendable, Hashable, Comparable {
    case error, warning, note

    private var rank: Int {
      switch self {
      case .error: 0
      case .warning: 1
      case .note: 2
      }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
  }

  /// A secondary message attached to a diagnostic, such as "first defined here".
  public struct Note: Sendable, Hashable {
    /// What the note says.
    public var message: String
    /// Where it points, if anywhere.
    public var location: SourceLocation?

    /// Creates a note, optionally pointing at a place.
    public init(_ message: String, at location: SourceLocation? = nil) {
      self.message = message
      self.location = location
    }
  }

  /// Error, warning or note.
  public var severity: Severity
  /// Lower-case text, user values in quotes.
  public var message: String
  /// Where the problem is; nil for problems of a whole file that cannot be read.
  public var location: SourceLocation?
  /// Further explanations, each possibly with its own place.
  public var notes: [Note]
  /// Secrets (a channel's token) that must not be printed: masked in the message and in the
  /// quoted source line.
  public var secrets: [String] = []

  /// The message with its ``secrets`` masked, for a report that quotes it.
  public var shownMessage: String { DiagnosticRenderer.mask(message, secrets).text }

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ message: String, at location: SourceLocation?, notes: [Note] = []
  ) {
    self.severity = severity
    self.message = message
    self.location = location
    self.notes = notes
  }

  /// An error at `location`.
  public static func error(
    _ message: String, at location: SourceLocation?, notes: [Note] = []
  ) -> Diagnostic {
    Diagnostic(.error, message, at: location, notes: notes)
  }

  /// A warning at `location`: it never fails validation.
  public static func warning(
    _ message: String, at location: SourceLocation?, notes: [Note] = []
  ) -> Diagnostic {
    Diagnostic(.warning, message, at: location, notes: notes)
  }
}

extension Array where Element == Diagnostic {
  /// True when at least one element is an error.
  public var hasErrors: Bool { contains { $0.severity == .error } }

  /// Sorted by place (file, line, column), keeping the order of equal places.
  public func sortedByLocation() -> [Diagnostic] {
    enumerated().sorted { a, b in
      switch (a.element.location, b.element.location) {
      case (let l?, let r?) where l != r: return l < r
      case (nil, _?): return true
      case (_?, nil): return false
      default: return a.offset < b.offset
      }
    }.map(\.element)
  }
}
