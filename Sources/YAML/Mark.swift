/// A position in the YAML text as users count it: 1-based line and column (Unicode scalars).
public struct Mark: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// 1-based line.
  public var line: Int
  /// 1-based column in Unicode scalars.
  public var column: Int

  /// Creates a mark at `line`:`column` (1-based).
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  public var description: String { "\(line):\(column)" }

  public static func < (lhs: Mark, rhs: Mark) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}
