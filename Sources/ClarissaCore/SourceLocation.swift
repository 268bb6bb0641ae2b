/// A place in a source file, as a person counts it: 1-based line and column (in characters).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The file's path as the user named it.
  public var file: String
  /// 1-based line number.
  public var line: Int
  /// 1-based column, counted in Unicode scalars.
  public var column: Int

  /// Creates a location in `file` at `line`:`column` (both 1-based).
  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// The same file and line, `offset` characters further right.
  public func advanced(by offset: Int) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column + offset)
  }

  public var description: String { "\(file):\(line):\(column)" }

  public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
    (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
  }
}
