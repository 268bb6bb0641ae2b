import FixtureSupport
import Foundation
import Testing

/// A comment that names a file sends the reader there: every path a comment in the sources,
/// the sites or the tests names (from a top folder of the repository: `Sources/...`,
/// `docs/...`) is in the repository, so no comment points at a file that moved or never was.
@Suite struct CommentPathTests {
  static let folders = ["Sources", "Sites", "Tests"]
  static let roots = ["Sources/", "Sites/", "Tests/", "Fixtures/", "docs/", ".ci/", "examples/"]

  /// The repository paths named in the comment part of `line` (after `//`), with a pattern's
  /// `<...>` or `*` left out.
  static func paths(inComment line: String) -> [String] {
    guard let start = line.range(of: "//") else { return [] }
    let comment = line[start.upperBound...]
    let stops = CharacterSet.whitespaces.union(CharacterSet(charactersIn: "`'\"(),;:"))
    return comment.components(separatedBy: stops).compactMap { word in
      guard let root = roots.first(where: { word.hasPrefix($0) }), word.count > root.count else {
        return nil
      }
      let path = String(word.reversed().drop { ".,)".contains($0) }.reversed())
      return path.contains("<") || path.contains("*") || path.contains("...") ? nil : path
    }
  }

  @Test func pathsAreReadFromComments() {
    #expect(
      CommentPathTests.paths(inComment: "let a = 1 // see docs/serve.md.") == ["docs/serve.md"])
    #expect(
      CommentPathTests.paths(inComment: "/// (`Sources/YAML/YAMLReader.swift`, Sites/<Name>/)")
        == ["Sources/YAML/YAMLReader.swift"])
    #expect(CommentPathTests.paths(inComment: "let path = \"docs/x.md\"").isEmpty)
  }

  @Test func everyPathACommentNamesExists() throws {
    let root = TestTools.packageRoot
    var checked = 0
    for folder in Self.folders {
      let base = root.appendingPathComponent(folder)
      for file in TestTools.swiftFiles(under: folder) {
        let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
          for path in Self.paths(inComment: line) {
            checked += 1
            if !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) {
              Issue.record(
                "\(folder)/\(file):\(index + 1): a comment names '\(path)', not in the repository")
            }
          }
        }
      }
    }
    #expect(checked > 100, "comments name paths (\(checked) checked)")
  }
}
