import Channels
import ClarissaConfig
import ClarissaCore
import Feeds
import FixtureSupport
import Foundation
import Markup
import Sites
import Testing
import YAML

/// Every input a fuzzer ever crashed on (`Fixtures/fuzz/<target>/`) goes through the same code
/// as in its fuzzer; each must now finish without a crash.
@Suite struct FuzzRegressionTests {
  static let cases: [String] = ["yaml", "config", "feeds", "sapi", "html", "answers"].flatMap {
    target in
    let folder = Fixtures.root.appendingPathComponent("fuzz/\(target)")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return files.filter { !$0.hasPrefix(".") }.sorted().map { "\(target)/\($0)" }
  }

  @Test func theFuzzTargetsAreSeededAndKept() {
    for target in ["yaml", "config", "feeds", "sapi", "html", "answers"] {
      #expect(
        FileManager.default.fileExists(
          atPath: Fixtures.root.appendingPathComponent("fuzz/\(target)").path))
    }
  }

  @Test(arguments: cases)
  func aCrashingInputNoLongerCrashes(_ path: String) throws {
    let bytes = try Fixtures.bytes("fuzz/\(path)")
    switch path.split(separator: "/").first {
    case "yaml": _ = YAMLReader.read(bytes)
    case "config":
      let result = ConfigLoader.load(
        bytes: bytes, name: "fuzz.yaml", environment: [:], sites: Registry.sites,
        channels: ChannelRegistry.all)
      #expect(result.diagnostics.hasErrors == (result.config == nil))
    case "feeds": _ = try? FeedParser.parse(bytes)
    case "answers": AnswerBytes.handle(AnswerBytes.response(bytes))
    case "sapi":
      let site = CraigslistSite()
      _ = try? site.listings(
        from: SourceResponse(
          request: site.request(forSavedResponseIn: "api", city: "sfbay"), body: bytes))
    default:
      let site = CraigslistSite()
      _ = try? site.listings(
        from: SourceResponse(
          request: site.request(forSavedResponseIn: "html", city: "newyork/mnh"), body: bytes))
      _ = HTMLText.plainText(fromHTML: String(decoding: bytes, as: UTF8.self))
    }
  }
}
