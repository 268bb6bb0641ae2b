import FixtureSupport
import Foundation
import Markup
import Testing

/// The event parser gives names as written however many there are, and passing text over
/// leaves every other event as it was.
@Suite struct StreamReaderPathTests {
  static let feeds: [String] = {
    let folder = Fixtures.root.appendingPathComponent("feeds")
    let all = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return all.filter { $0.hasSuffix(".xml") }.sorted()
  }()

  static func events(_ bytes: [UInt8], skippingText: Bool = false) throws -> [XMLEvent] {
    var events: [XMLEvent] = []
    _ = try XMLEventParser.parse(bytes: bytes, skippingText: { skippingText }) {
      events.append($0)
    }
    return events
  }

  @Test func manyNamesAndNamespacesComeBackAsWritten() throws {
    // More names than the reader has slots, in namespaces of their own, each used twice.
    let names = (0..<300).map { "n\($0)" + String(repeating: "x", count: $0 % 40) }
    var document = "<root>"
    for (index, name) in Array(names.enumerated()) + Array(names.enumerated()) {
      document += "<p\(index):\(name) xmlns:p\(index)=\"urn:ns:\(name)\" a\(index)=\"v\"/>"
    }
    document += "</root>"
    let events = try Self.events(Array(document.utf8))
    var expected: [XMLEvent] = [.start(XMLElement(name: "root", namespace: nil, attributes: []))]
    for (index, name) in Array(names.enumerated()) + Array(names.enumerated()) {
      let attribute = XMLAttribute(name: "a\(index)", namespace: nil, value: "v")
      expected.append(
        .start(XMLElement(name: name, namespace: "urn:ns:\(name)", attributes: [attribute])))
      expected.append(.end(name: name, namespace: "urn:ns:\(name)"))
    }
    expected.append(.end(name: "root", namespace: nil))
    #expect(events == expected)
  }

  @Test func theFeedsAreThere() { #expect(Self.feeds.count >= 50) }

  @Test(arguments: feeds)
  func textPassedOverLeavesEveryOtherEvent(name: String) throws {
    let bytes = try Fixtures.bytes("feeds/\(name)")
    guard let all = try? Self.events(bytes) else { return }
    let skipped = try Self.events(bytes, skippingText: true)
    #expect(skipped == all.filter { if case .text = $0 { false } else { true } })
  }
}
