import ClarissaCore
import Foundation
import Testing

@testable import ClarissaEngine

/// The state file's format: a round trip keeps everything, one line per seen listing, version 1
/// files still load, any JSON parser reads it.
@Suite struct StateCodecTests {
  static func sample() -> State {
    var state = State()
    let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    state.searches["ipads"] = SearchState(
      lastRun: t0,
      seen: [
        "7915891289": SeenListing(
          firstSeen: t0.addingTimeInterval(-86_400), lastSeen: t0,
          deliveredTo: ["terminal", "phone"]),
        "7931742798": SeenListing(firstSeen: t0, lastSeen: t0, deliveredTo: [], pending: ["hook"]),
        "weird \"id\"\\\n\u{1}é": SeenListing(
          firstSeen: t0, lastSeen: t0, deliveredTo: ["chan\"nel"]),
      ])
    state.searches["ipads"]?.sources = ["https://sfbay.craigslist.org/search/sss?query=ipad"]
    state.searches["ipads"]?.lastAttempt = t0.addingTimeInterval(60)
    state.searches["never-ran"] = SearchState()
    state.validators["https://example.org/feed"] = Validators(etag: "\"v1\"", lastModified: nil)
    state.cooldowns["sapi.craigslist.org"] = Cooldown(
      until: t0.addingTimeInterval(3600), reason: "403")
    let listing = Listing(
      id: "1", site: "feed", url: "https://example.org/1", title: "A \"quoted\" title", price: 5,
      currency: "EUR")
    state.held = [HeldListing(search: "ipads", listing: listing, heldAt: t0)]
    state.undelivered = [
      Undelivered(
        search: "ipads", listing: listing, channels: ["hook"], attempts: 2, lastError: "HTTP 500")
    ]
    state.recent = [RecentListing(search: "ipads", listing: listing, found: t0)]
    return state
  }

  @Test func aRoundTripKeepsEverything() throws {
    let state = Self.sample()
    let decoded = try StateCodec.decode(Data(try StateCodec.encode(state)))
    #expect(decoded == state)
  }

  @Test func itIsPlainJSONWithOneLinePerSeenListing() throws {
    let text = String(decoding: try StateCodec.encode(Self.sample()), as: UTF8.self)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["version"] as? Int == 2)
    #expect(
      text.contains(
        "\n        \"7915891289\" : [\"2026-05-27T20:26:40Z\", \"2026-05-28T20:26:40Z\", [\"terminal\", \"phone\"], []]"
      ))
    let lines = text.split(separator: "\n")
    let first = try #require(lines.firstIndex { $0.contains("7915891289") })
    #expect(lines[first + 1].contains("7931742798"), "ids sorted, one per line")
  }

  @Test func versionOneFilesStillLoad() throws {
    let old = """
      {
        "cooldowns" : {}, "held" : [], "searches" : {
          "ipads" : { "lastRun" : "2026-05-03T19:00:00Z", "seen" : {
            "7915891289" : { "deliveredTo" : ["terminal"], "firstSeen" : "2026-05-03T19:00:00Z", "lastSeen" : "2026-05-03T19:00:00Z", "pending" : [] }
          } }
        },
        "validators" : {}, "version" : 1
      }
      """
    let state = try StateCodec.decode(Data(old.utf8))
    #expect(state.searches["ipads"]?.seen["7915891289"]?.deliveredTo == ["terminal"])
    #expect(state.searches["ipads"]?.sources == nil, "written before sources were kept")
    #expect(state.recent.isEmpty && state.undelivered.isEmpty)
  }

  @Test func aVersionTwoFileWithoutSourcesKnowsNone() throws {
    let text = """
      {"version" : 2, "searches" : {"a" : {"lastRun" : "2026-05-03T19:00:00Z", "seen" : {}}}}
      """
    #expect(try StateCodec.decode(Data(text.utf8)).searches["a"]?.sources == nil)
  }

  @Test func aNewerVersionIsRecognised() {
    do {
      _ = try StateCodec.decode(Data("{\"version\" : 9, \"searches\" : {}}".utf8))
      Issue.record("must refuse")
    } catch let error as StateCodecError {
      #expect(error.newerVersion == 9)
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test(arguments: [
    "", "{",
    "{\"version\" : 2, \"searches\" : {\"a\" : {\"seen\" : {\"1\" : [\"x\", \"y\", [], []]}}}}",
    "{\"version\" : 2, \"searches\" : {\"a\" : {\"seen\" : {\"1\" : [\"2026-05-03T19:00:00Z\"",
    "[1, 2]", "{\"searches\" : {}}",
  ])
  func brokenTextIsAnErrorNeverACrash(text: String) {
    #expect(throws: (any Error).self) { _ = try StateCodec.decode(Data(text.utf8)) }
  }

  @Test func theRadixOrderIsTheSortedOrder() {
    var generator = SystemRandomNumberGenerator()
    let keys: [UInt64] =
      (0..<5_000).map { _ in UInt64.random(in: 7_000_000_000...7_000_100_000, using: &generator) }
      + (0..<500).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) } + [0, 0, 5]
    let order = StateCodec.radixOrder(keys)
    #expect(order.map { keys[$0] } == keys.sorted())
    #expect(Set(order).count == keys.count, "every position exactly once")
  }

  @Test func manyLinesWithRepeatedChannelListsRoundTrip() throws {
    var state = State()
    let t0 = Date(timeIntervalSince1970: 1_780_000_000)
    var seen: [String: SeenListing] = [:]
    let lists: [[String]] = [[], ["phone"], ["phone", "mail"], ["mail"]]
    for index in 0..<3_000 {
      seen[String(7_900_000_000 + index * 7)] = SeenListing(
        firstSeen: t0.addingTimeInterval(Double(-index * 3_600)), lastSeen: t0,
        deliveredTo: lists[index % 4], pending: lists[(index / 4) % 4])
    }
    seen["not-a-number"] = SeenListing(firstSeen: t0, lastSeen: t0)
    state.searches["big"] = SearchState(lastRun: t0, seen: seen)
    let bytes = try StateCodec.encode(state)
    #expect(try StateCodec.decode(Data(bytes)) == state)
    // One id is not a number: every id is then ordered by its bytes.
    let text = String(decoding: bytes, as: UTF8.self)
    let ids = text.split(separator: "\n").filter { $0.hasPrefix("        \"") }.map {
      String($0.dropFirst(9).prefix { $0 != "\"" })
    }
    #expect(ids == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    #expect(ids.count == 3_001)
  }

  @Test(arguments: [0.0, 1_780_000_000, 951_782_400, 4_102_444_799, -86_400])
  func datesRoundTrip(seconds: Double) {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(ISODate.parse(ISODate.format(date)) == date)
    #expect(ISODate.format(date) == ISO8601DateFormatter().string(from: date))
  }
}
