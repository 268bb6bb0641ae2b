import Foundation
import Testing

/// Runs the built `clarissa` binary as a user would and checks its output and exit status.
@Suite struct CommandLineTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The `clarissa` binary built next to the test bundle.
  static func binary() throws -> URL {
    let candidates = [
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
      Bundle.main.bundleURL,
      Bundle.main.bundleURL.deletingLastPathComponent(),
    ].map { $0.appendingPathComponent("clarissa") }
    return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
  }

  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Outcome {
    let process = Process()
    process.executableURL = try binary()
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    var env = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    env.merge(environment) { $1 }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  @Test func validateAcceptsTheBundledConfigAndSummarizesIt() throws {
    let outcome = try Self.run(["validate"])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.hasPrefix("searches.yaml: valid\n"))
    #expect(outcome.stdout.contains("requests per round"))
    #expect(outcome.stdout.contains("aeron-chairs"))
    #expect(outcome.stderr.isEmpty)
  }

  @Test func validateReportsEveryProblemAndExitsTwo() throws {
    let outcome = try Self.run([
      "validate", "--config", "Fixtures/config/invalid/many-problems.yaml",
    ])
    #expect(outcome.status == 2)
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr.contains(
        "Fixtures/config/invalid/many-problems.yaml:14:5: error: unknown key 'max_prize' in search 'aeron'; did you mean 'max_price'?"
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
    #expect(outcome.stderr.hasPrefix("error: no such file 'nowhere/searches.yaml'\n"))
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
