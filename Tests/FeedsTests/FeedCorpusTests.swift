import Feeds
import FixtureSupport
import Foundation
import Markup
import Testing

/// Every small feed in `Fixtures/feeds/` parses to its golden `.expected.json`: the document, or
/// the error for a document that is not a feed or is hostile.
@Suite struct FeedCorpusTests {
  static let names: [String] = {
    let folder = Fixtures.root.appendingPathComponent("feeds")
    let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return all.filter { !$0.hasSuffix(".expected.json") && $0 != "README.md" }.sorted()
  }()

  @Test func theCorpusCoversEveryFormat() {
    #expect(Self.names.count >= 60)
    for prefix in [
      "rss2-", "rss09", "rss1-", "atom-", "atom03-", "jsonfeed-", "broken-", "hostile-",
    ] {
      #expect(Self.names.contains { $0.hasPrefix(prefix) }, "no \(prefix) feeds")
    }
  }

  @Test(arguments: names)
  func parsesToGolden(name: String) throws {
    let bytes = try Fixtures.bytes("feeds/\(name)")
    let result: String
    do {
      let document = try FeedParser.parse(bytes, url: "https://feeds.example/\(name)")
      result = try Self.encode(document)
      if name.hasPrefix("broken-") || name.hasPrefix("hostile-") && !name.contains("dtd-only") {
        Issue.record("\(name) should have been refused")
      }
    } catch let error as FeedError {
      result = try Self.encode(["error": error.message])
    }
    let stem = name.split(separator: ".").dropLast().joined(separator: ".")
    try Fixtures.expectGolden(
      result, at: Fixtures.root.appendingPathComponent("feeds/\(stem).expected.json"))
  }

  static func encode<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
