import FixtureSupport
import Foundation
import Testing

/// `clarissa init` and what a command says when there is no config yet: a newcomer's first
/// minute, run in an empty folder as they would.
@Suite struct InitCommandTests {
  /// An empty folder of its own for each test, removed afterwards.
  final class Folder {
    let url: URL

    init() throws {
      url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "clarissa-init-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var config: URL { url.appendingPathComponent("searches.yaml") }

    func text() throws -> String { try String(contentsOf: config, encoding: .utf8) }
  }

  static let starter = CommandLineTests.packageRoot.appendingPathComponent(
    "examples/starter.yaml")

  @Test func initWritesTheStarterAndItValidatesWithoutAWarning() throws {
    let folder = try Folder()
    let written = try CommandLineTests.run(["init"], in: folder.url)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      written.stdout
        == "wrote searches.yaml: a starter with one search, 'desks'\n"
        + "next: edit it, then 'clarissa validate' and 'clarissa run --dry-run'\n")
    try Fixtures.expectGolden(try folder.text(), at: Self.starter)
    let validated = try CommandLineTests.run(["validate", "--strict"], in: folder.url)
    #expect(validated.status == 0)
    #expect(validated.stderr.isEmpty, "the starter warns:\n\(validated.stderr)")
    #expect(validated.stdout.contains("desks  craigslist  sfbay  every 30m  3 filters"))
  }

  @Test func theStarterTeachesWhatTheIssueAsks() throws {
    let text = try String(contentsOf: Self.starter, encoding: .utf8)
    let keys = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
    #expect(keys.components(separatedBy: "- name:").count == 2, "one search")
    for key in ["cities: [sfbay]", "price: {min: 50, max: 400}", "- exclude: [", "interval: 30m"] {
      #expect(keys.contains(key))
    }
    #expect(text.contains("\n# notify:\n#   phone: ntfys://ntfy.sh/${NTFY_TOPIC}\n"))
  }

  @Test func theCommentedChannelValidatesOnceUncommented() throws {
    let folder = try Folder()
    let text = try String(contentsOf: Self.starter, encoding: .utf8)
    let uncommented = [
      ("    # notify: [phone]", "    notify: [phone]  "),
      ("\n# notify:\n#   phone:", "\nnotify:\n  phone:"),
    ].reduce(text) { text, edit in text.replacingOccurrences(of: edit.0, with: edit.1) }
    #expect(uncommented != text)
    try uncommented.write(to: folder.config, atomically: true, encoding: .utf8)
    let outcome = try CommandLineTests.run(
      ["validate", "--strict"], environment: ["NTFY_TOPIC": "my-deals"], in: folder.url)
    #expect(outcome.status == 0)
    #expect(outcome.stderr.isEmpty, "\(outcome.stderr)")
    #expect(outcome.stdout.contains("phone"))
  }

  @Test func initNeverOverwritesWithoutForce() throws {
    let folder = try Folder()
    try "version: 1 # mine\n".write(to: folder.config, atomically: true, encoding: .utf8)
    let refused = try CommandLineTests.run(["init"], in: folder.url)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: 'searches.yaml' already exists; 'clarissa init --force' replaces it\n")
    #expect(try folder.text() == "version: 1 # mine\n")
    let forced = try CommandLineTests.run(["init", "--force"], in: folder.url)
    #expect(forced.status == 0)
    #expect(forced.stdout.hasPrefix("replaced searches.yaml"))
    #expect(try folder.text() == (try String(contentsOf: Self.starter, encoding: .utf8)))
  }

  @Test func initWritesWhereConfigSaysAndNamesItInTheNextSteps() throws {
    let folder = try Folder()
    let path = folder.url.appendingPathComponent("ads.yaml").path
    let outcome = try CommandLineTests.run(["init", "--config", path])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("'clarissa validate --config \(path)'"))
    let refused = try CommandLineTests.run(["init", "-c", path])
    #expect(refused.stderr.contains("'clarissa init --config \(path) --force' replaces it"))
  }

  @Test func initIntoAMissingFolderSaysWhy() throws {
    let folder = try Folder()
    let outcome = try CommandLineTests.run(["init", "-c", "nowhere/searches.yaml"], in: folder.url)
    #expect(outcome.status == 1)
    #expect(
      outcome.stderr == "error: cannot write 'nowhere/searches.yaml': no such file or directory\n")
  }

  @Test(arguments: [
    ["validate"], ["run"], ["watch"], ["explain", "--search", "desks"],
    ["notify", "test", "phone"],
  ])
  func aMissingConfigSaysWhereItLookedAndHowToStart(arguments: [String]) throws {
    let folder = try Folder()
    let outcome = try CommandLineTests.run(arguments, in: folder.url)
    #expect(outcome.status == 2)
    #expect(outcome.stderr.hasPrefix("error: no searches.yaml in /"))
    #expect(
      outcome.stderr.hasSuffix(
        "/\(folder.url.lastPathComponent); run 'clarissa init' to write a starter one, "
          + "or pass --config FILE\n"))
    #expect(outcome.stdout.isEmpty)
  }

  @Test func aFolderGivenAsTheConfigIsNamedAsOne() throws {
    let folder = try Folder()
    let outcome = try CommandLineTests.run(["validate", "--config", folder.url.path])
    #expect(outcome.status == 2)
    #expect(
      outcome.stderr
        == "error: '\(folder.url.path)' is a folder; pass the config file in it, as in "
        + "--config \(folder.url.path)/searches.yaml\n")
  }
}
