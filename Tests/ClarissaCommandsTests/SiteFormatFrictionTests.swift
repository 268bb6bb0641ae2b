import FixtureSupport
import Foundation
import Testing

/// The site format's frictions, each a command run as a user would in
/// `Fixtures/sites/frictions/` (`NAME.args`, one argument a line) whose exit status, output and
/// errors are its `NAME.expected` (`CLARISSA_RECORD=1` writes them; read each by eye).
@Suite struct SiteFormatFrictionTests {
  static let folder = CommandLineTests.packageRoot.appendingPathComponent(
    "Fixtures/sites/frictions")

  static var cases: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".args") }.map { String($0.dropLast(".args".count)) }
      .sorted()
  }

  @Test(arguments: cases)
  func aFrictionShowsWhatItShouldSay(name: String) throws {
    let arguments = try String(
      contentsOf: Self.folder.appendingPathComponent("\(name).args"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let outcome = try CommandLineTests.run(arguments, in: Self.folder)
    let shown =
      "$ clarissa \(arguments.joined(separator: " "))\nexit \(outcome.status)\n"
      + "--- stdout\n\(outcome.stdout)--- stderr\n\(outcome.stderr)"
    try Fixtures.expectGolden(shown, at: Self.folder.appendingPathComponent("\(name).expected"))
  }

  @Test func everyFrictionOfTheIssueHasACase() {
    #expect(Self.cases.count >= 10)
  }
}
