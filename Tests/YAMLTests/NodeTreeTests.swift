import Testing
import YAML

/// Given YAML text, when it is read, then the tree keeps every node's place and style.
@Suite struct NodeTreeTests {
  @Test func everyNodeKeepsItsOneBasedPosition() throws {
    let document = YAMLReader.read("a: 1\nlist:\n  - x\n  - {k: v}\n")
    let root = try #require(document.root)
    let pairs = try #require(root.mapping)
    #expect(pairs[0].key.start == Mark(line: 1, column: 1))
    #expect(pairs[0].value.start == Mark(line: 1, column: 4))
    let items = try #require(pairs[1].value.sequence)
    #expect(items[0].start == Mark(line: 3, column: 5))
    let inner = try #require(items[1].mapping)
    #expect(inner[0].value.start == Mark(line: 4, column: 9))
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let root = try #require(YAMLReader.read("café: crème\n").root)
    let pair = try #require(root.mapping?.first)
    #expect(pair.value.start == Mark(line: 1, column: 7))
  }

  @Test func scalarsStayTextWithTheirStyle() throws {
    let root = try #require(
      YAMLReader.read("country: no\nzip: '01234'\nq: \"a\\tb\"\nlit: |\n  x\n  y\nt: 22:30\n").root)
    let values = try #require(root.mapping).map { $0.value.scalar }
    #expect(values[0] == Scalar("no", style: .plain))
    #expect(values[1] == Scalar("01234", style: .singleQuoted))
    #expect(values[2] == Scalar("a\tb", style: .doubleQuoted))
    #expect(values[3] == Scalar("x\ny\n", style: .literal))
    #expect(values[4] == Scalar("22:30", style: .plain), "YAML 1.1 sexagesimals stay text")
  }

  @Test func nullSpellings() throws {
    let root = try #require(YAMLReader.read("a:\nb: ~\nc: null\nd: ''\ne: none\n").root)
    let nulls = try #require(root.mapping).map(\.value.isNull)
    #expect(nulls == [true, true, true, false, false])
  }

  @Test func emptyTextHasNoDocumentAndNoProblem() {
    let document = YAMLReader.read("# only a comment\n")
    #expect(document.root == nil)
    #expect(document.problems.isEmpty)
  }
}
