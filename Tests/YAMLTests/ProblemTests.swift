import Testing
import YAML

/// Given broken or hostile YAML, the reader reports a located problem and stops safely.
@Suite struct ProblemTests {
  @Test func duplicateKeysAreReportedWithTheFirstPlace() throws {
    let document = YAMLReader.read("a: 1\nb: 2\na: 3\n")
    let problem = try #require(document.problems.first)
    #expect(problem.kind == .duplicateKey)
    #expect(problem.mark == Mark(line: 3, column: 1))
    #expect(problem.notes.first?.mark == Mark(line: 1, column: 1))
    #expect(document.root?.mapping?.count == 2, "the first value is kept")
  }

  @Test func syntaxErrorsCarryLibyamlProblemAndContext() throws {
    let document = YAMLReader.read("list: [a, b\nnext: 1\n")
    let problem = try #require(document.problems.first)
    #expect(problem.kind == .syntax)
    #expect(problem.message == "did not find expected ',' or ']'")
    #expect(problem.mark == Mark(line: 2, column: 5))
    #expect(
      problem.notes == [YAMLNote("while parsing a flow sequence", at: Mark(line: 1, column: 7))])
    #expect(document.root == nil)
  }

  @Test func invalidUTF8IsLocatedFromItsByteOffset() throws {
    let bytes = Array("a: 1\nb: caf".utf8) + [0xE9] + Array("\n".utf8)
    let problem = try #require(YAMLReader.read(bytes).problems.first)
    #expect(problem.kind == .syntax)
    #expect(problem.mark == Mark(line: 2, column: 7))
  }

  @Test func undefinedAliasIsAnError() throws {
    let problem = try #require(YAMLReader.read("a: *nowhere\n").problems.first)
    #expect(problem.kind == .undefinedAlias)
    #expect(problem.mark == Mark(line: 1, column: 4))
  }

  @Test func aliasesExpandAndAreMarked() throws {
    let root = try #require(YAMLReader.read("a: &x [1, 2]\nb: *x\n").root)
    let b = try #require(root.mapping?[1].value)
    #expect(b.isAlias)
    #expect(b.sequence?.count == 2)
  }

  @Test func mergeKeysAddMissingKeysOnly() throws {
    let text = "base: &base {a: 1, b: 2}\nthis:\n  <<: *base\n  b: 3\n  c: 4\n"
    let root = try #require(YAMLReader.read(text).root)
    let merged = try #require(root.mapping?[1].value.mapping)
    let pairs = merged.map { ($0.key.scalar?.value ?? "", $0.value.scalar?.value ?? "") }
    #expect(pairs.map(\.0) == ["a", "b", "c"])
    #expect(pairs.map(\.1) == ["1", "3", "4"])
  }

  /// Mappings of a few keys are checked by comparing keys in turn, larger ones through a table:
  /// both report every repeated key at its place, keep the first value, and keep `<<` merges
  /// where they stand.
  @Test(arguments: [3, 40])
  func duplicateKeysBesideMergesInSmallAndLargeMappings(keys: Int) throws {
    let own = (0..<keys).map { "  k\($0): \($0)" }
    let lines =
      ["base: &base {a: 1, k0: 9}", "this:", "  k0: first", "  <<: *base"] + own
      + ["  k1: again", "  z: 1"]
    let document = YAMLReader.read(lines.joined(separator: "\n") + "\n")
    let duplicates = document.problems.filter { $0.kind == .duplicateKey }
    #expect(duplicates.map(\.mark) == [Mark(line: 5, column: 3), Mark(line: keys + 5, column: 3)])
    #expect(
      duplicates.map(\.notes.first?.mark) == [Mark(line: 3, column: 3), Mark(line: 6, column: 3)])
    let pairs = try #require(document.root?.mapping?[1].value.mapping)
    let names = pairs.map { $0.key.scalar?.value ?? "" }
    #expect(names == ["k0", "a"] + (1..<keys).map { "k\($0)" } + ["z"])
    #expect(pairs.first?.value.scalar?.value == "first")
    #expect(pairs.count(where: { $0.key.scalar?.value == "k1" }) == 1)
    #expect(pairs.first { $0.key.scalar?.value == "k1" }?.value.scalar?.value == "1")
  }

  @Test(arguments: [true, false])
  func hundredThousandLevelsAreRejectedAtTheLimit(flow: Bool) throws {
    let depth = 100_000
    let text: String
    if flow {
      text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    } else {
      // "- - - x" nests block sequences on one line: deep, yet linear in size.
      text = String(repeating: "- ", count: depth) + "x\n"
    }
    let document = YAMLReader.read(text)
    let problem = try #require(document.problems.first)
    #expect(problem.kind == .depth)
    #expect(document.root == nil)
  }

  @Test func nestingUpToTheLimitIsAccepted() {
    let limits = YAMLLimits(maxDepth: 128)
    let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
    #expect(YAMLReader.read(ok, limits: limits).problems.isEmpty)
    let tooDeep = "[" + ok + "]"
    #expect(YAMLReader.read(tooDeep, limits: limits).problems.first?.kind == .depth)
  }

  @Test func aliasBombIsStoppedByTheBudget() throws {
    var lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in 1...12 {
      lines.append(
        "a\(level): &a\(level) ["
          + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]")
    }
    let document = YAMLReader.read(lines.joined(separator: "\n"))
    let problem = try #require(document.problems.first)
    #expect(problem.kind == .aliasBudget)
    #expect(document.root == nil)
  }

  @Test func aFewAliasesStayWithinTheBudget() {
    let text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
    #expect(YAMLReader.read(text).problems.isEmpty)
  }
}
