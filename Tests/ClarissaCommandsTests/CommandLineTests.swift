import FixtureSupport
import Foundation
import Testing

/// Runs the built `clarissa` binary as a user would and checks its output and exit status.
@Suite struct CommandLineTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  typealias Outcome = TestTools.Outcome

  /// The `clarissa` binary built next to the test bundle.
  static func binary() throws -> URL {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL,
      Bundle.main.bundleURL.deletingLastPathComponent(),
    ].map { $0.appendingPathComponent("clarissa") }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
  }

  static func run(
    _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil
  ) throws -> Outcome {
    var env = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    env.merge(environment) { $1 }
    return try TestTools.run(try binary(), arguments, environment: env, in: folder ?? packageRoot)
  }

  @Test func validateAcceptsTheBundledConfigAndSummarizesIt() throws {
    let outcome = try Self.run(["validate"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.hasPrefix("searches.yaml: valid\n"))
    #expect(outcome.stdout.contains("requests per round"))
    #expect(outcome.stdout.contains("manhattan-apartments"))
    #expect(outcome.stderr.isEmpty)
  }

  @Test func validateSummarizesRepostsAndChangesWhereTheyDifferFromTheDefaults() throws {
    let outcome = try Self.run([
      "validate", "--config", "Fixtures/config/valid/reposts-and-changes.yaml",
    ])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    let desks = try #require(lines.first { $0.hasPrefix("  desks") })
    #expect(
      desks.hasSuffix("on: new, price drop (7.5%, 20), back after 7d  reposts folded within 60d"))
    let chairs = try #require(lines.first { $0.hasPrefix("  chairs") })
    #expect(chairs.hasSuffix("on: price rise (5%, 10)  reposts: notified"))
    let bundled = try Self.run(["validate"])
    #expect(!bundled.stdout.contains("on: "), "the defaults are not repeated on every line")
  }

  @Test func validateSaysWhichSearchesAllowPrivateRedirects() throws {
    let outcome = try Self.run([
      "validate", "--config", "Fixtures/config/valid/private-redirects.yaml",
    ])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n").map(String.init)
    let nas = try #require(lines.first { $0.hasPrefix("  nas") })
    #expect(nas.hasSuffix("report only  private redirects allowed"))
    let market = try #require(lines.first { $0.hasPrefix("  market") })
    #expect(!market.contains("private redirects"))
  }

  @Test func validateReportsEveryProblemAndExitsTwo() throws {
    let outcome = try Self.run([
      "validate", "--config", "Fixtures/config/invalid/many-problems.yaml",
    ])
    #expect(outcome.status == 2)
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr.contains(
        "Fixtures/config/invalid/many-problems.yaml:14:5: error: unknown key 'max_prize' in search 'aeron' (write 'price: {max: ...}')"
      ))
    #expect(outcome.stderr.hasSuffix("many-problems.yaml: 18 errors, 2 warnings\n"))
  }

  @Test func strictTurnsWarningsIntoFailure() throws {
    let path = "Fixtures/config/valid/with-warnings.yaml"
    #expect(try Self.run(["validate", "-q", "--config", path]).status == 0)
    let strict = try Self.run(["validate", "--strict", "--config", path])
    #expect(strict.status == 2)
    #expect(strict.stderr.contains("warning: interval 1m in search 'fast'"))
  }

  @Test func quietPrintsNothingForAValidConfig() throws {
    let outcome = try Self.run([
      "validate", "--quiet", "--config", "Fixtures/config/valid/minimal.yaml",
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.isEmpty && outcome.stderr.isEmpty)
  }

  @Test func aMissingFileIsAClearError() throws {
    let outcome = try Self.run(["validate", "--config", "nowhere/searches.yaml"])
    #expect(outcome.status == 2)
    #expect(
      outcome.stderr
        == "error: no searches.yaml in \(Self.packageRoot.path)/nowhere; "
        + "run 'clarissa init --config nowhere/searches.yaml' to write a starter one\n")
  }

  @Test func environmentVariablesReachTheConfig() throws {
    let path = "Fixtures/config/invalid/missing-env-var.yaml"
    let unset = try Self.run(["validate", "--config", path])
    #expect(unset.status == 2)
    let set = try Self.run(
      ["validate", "--config", path],
      environment: ["CLARISSA_FIXTURE_UNSET_TOPIC": "deals", "CLARISSA_FIXTURE_EMPTY": "x"])
    #expect(set.status == 0, "\(set.stderr)")
  }

  @Test(arguments: [["--help"], ["validate", "--help"]])
  func helpTeachesWithExamples(arguments: [String]) throws {
    let outcome = try Self.run(arguments)
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("clarissa validate"))
  }

  @Test func aWrongFlagIsAUsageError() throws {
    let outcome = try Self.run(["validate", "--confg", "x.yaml"])
    #expect(outcome.status == 64)
    #expect(outcome.stderr.contains("--config"))
  }
}

/// `inspect`, `sites` and `validate --print-urls`, run as a user would.
@Suite struct AdapterCommandTests {
  @Test func inspectPrintsTheListingsOfASavedResponse() throws {
    let outcome = try CommandLineTests.run(
      [
        "inspect", "Fixtures/craigslist/littlerock-rea-sapi-1.json", "--site", "craigslist",
        "--city", "littlerock",
      ])
    #expect(outcome.status == 0)
    #expect(
      outcome.stdout.hasPrefix(
        "2 listings (craigslist, api) from Fixtures/craigslist/littlerock-rea-sapi-1.json\n"))
    #expect(
      outcome.stdout.contains("7921751209  $85,000  2026-04-21 14:47:31Z  littlerock  Hot Springs"))
    #expect(outcome.stderr.contains("note: dropped 47 rows from nearby areas"))
  }

  @Test func inspectJSONMatchesTheGoldenFile() throws {
    let outcome = try CommandLineTests.run(
      ["inspect", "Fixtures/craigslist/sfbay-apa-1.xml", "--city", "sfbay", "--format", "json"])
    let golden = try String(
      contentsOf: CommandLineTests.packageRoot.appendingPathComponent(
        "Fixtures/craigslist/sfbay-apa-1.listings.json"),
      encoding: .utf8)
    #expect(outcome.status == 0)
    #expect(outcome.stdout == golden)
  }

  @Test func inspectGuessesTheMode() throws {
    let outcome = try CommandLineTests.run([
      "inspect", "Fixtures/craigslist/newyork-apa-search-1.html",
    ])
    #expect(outcome.stdout.hasPrefix("153 listings (craigslist, html)"))
  }

  @Test func inspectJudgesASavedAnswerAsASearchsRunWould() throws {
    let outcome = try CommandLineTests.run([
      "inspect", "Fixtures/craigslist/sfbay-sss-sapi-1.json", "--search", "ipads",
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.hasPrefix(
        "Fixtures/craigslist/sfbay-sss-sapi-1.json read as the answer of search 'ipads' "
          + "(craigslist)\n"))
    #expect(outcome.stdout.contains("included by '\\bipad\\b' (title): \"iPad\" in title"))
    #expect(outcome.stdout.contains("would be recorded silently (the search's first run)"))
    #expect(outcome.stdout.hasSuffix("360 listings, 213 pass the filters, 0 new\n"))
    let unknown = try CommandLineTests.run([
      "inspect", "Fixtures/craigslist/sfbay-sss-sapi-1.json", "--search", "ipad",
    ])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("no search named 'ipad'"), "\(unknown.stderr)")
  }

  @Test func inspectReportsABlockPage() throws {
    let outcome = try CommandLineTests.run([
      "inspect", "Fixtures/craigslist/synthetic/blocked.html", "--mode", "html",
    ])
    #expect(outcome.status == 3)
    #expect(outcome.stderr.contains("error: Craigslist answered with a block page"))
  }

  @Test func sitesListsAdaptersAndCities() throws {
    let list = try CommandLineTests.run(["sites"])
    #expect(list.status == 0)
    let rows = list.stdout.split(separator: "\n").map {
      $0.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
        !$0.isEmpty
      }
    }
    #expect(rows.contains { $0.starts(with: ["backpage", "defunct"]) })
    #expect(rows.contains { $0.starts(with: ["oodle", "unverified"]) })
    #expect(rows.contains { $0.starts(with: ["kleinanzeigen", "active"]) })
    let cities = try CommandLineTests.run(["sites", "craigslist", "--cities", "east bay"])
    #expect(cities.stdout.contains("sfbay/eby"))
    let unknown = try CommandLineTests.run(["sites", "craiglist"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("did you mean 'craigslist'"))
  }

  @Test func printURLsListsEveryRequestOfARun() throws {
    let outcome = try CommandLineTests.run(["validate", "-q", "--print-urls"])
    #expect(outcome.status == 0)
    let lines = outcome.stdout.split(separator: "\n")
    #expect(lines.count == 3, "3 requests per round in the bundled config")
    #expect(lines.allSatisfy { $0.split(separator: "\t").count == 4 })
    #expect(
      lines.first?.hasPrefix("ipads\tsfbay\tapi\thttps://sapi.craigslist.org/") == true)
  }
}
