import FixtureSupport
import Foundation
import Testing

/// `serve:` as `clarissa serve` and `validate` take it: its address and token file stand in
/// for flags not given (the flags win), and `validate` shows the section.
@Suite(.serialized) struct ServeSectionCommandTests {
  static func folder(serve: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-section-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "version: 1\nserve:\n\(serve)searches: []\n".write(
      to: folder.appendingPathComponent("searches.yaml"), atomically: true, encoding: .utf8)
    return folder
  }

  @Test func theAddressAndTokenFileComeFromTheConfigWhenNoFlagSaysOtherwise() throws {
    let folder = try Self.folder(serve: "  address: 0.0.0.0:0\n  token_file: token\n")
    try "weak\n".write(
      to: folder.appendingPathComponent("token"), atomically: true, encoding: .utf8)
    let config = folder.appendingPathComponent("searches.yaml").path
    // The token file named by the config (relative to its folder) is read, and refused.
    let weak = try CommandLineTests.run(["serve", "--config", config])
    #expect(weak.status != 0)
    #expect(weak.stderr.contains("at least 22 characters"), "\(weak.stderr)")
    // --token wins over the file; the config's address still needs it to be strong.
    let flag = try CommandLineTests.run(["serve", "--config", config, "--token", "short"])
    #expect(flag.stderr.contains("at least 22 characters"), "\(flag.stderr)")
    let bare = try Self.folder(serve: "  address: 0.0.0.0:0\n")
    let open = try CommandLineTests.run([
      "serve", "--config", bare.appendingPathComponent("searches.yaml").path,
    ])
    #expect(open.status != 0)
    #expect(open.stderr.contains("0.0.0.0:0 is not a loopback address"), "\(open.stderr)")
  }

  /// A tunnel to a loopback serve hands on strangers' requests, often with a loopback Host:
  /// with a public serve.url and no token, serve would have opened everything to them.
  @Test func aPublicServeURLWithoutATokenIsRefusedAtStart() throws {
    let folder = try Self.folder(
      serve: "  url: https://flats.example.net\n  address: 127.0.0.1:0\n")
    let outcome = try CommandLineTests.run([
      "serve", "--config", folder.appendingPathComponent("searches.yaml").path,
    ])
    #expect(outcome.status != 0)
    #expect(
      outcome.stderr.contains("names a host that is not this machine"), "\(outcome.stderr)")
    #expect(outcome.stderr.contains("--token-file"))
  }

  @Test func validateShowsTheSection() throws {
    let folder = try Self.folder(
      serve: "  url: https://flats.example.net\n  action_expiry: 2d\n")
    let outcome = try CommandLineTests.run([
      "validate", "--config", folder.appendingPathComponent("searches.yaml").path,
    ])
    #expect(outcome.status == 0, "\(outcome.stderr)")
    #expect(
      outcome.stdout.contains(
        "serve: https://flats.example.net (ntfy and Telegram buttons, working 2d)"),
      "\(outcome.stdout)")
  }
}
