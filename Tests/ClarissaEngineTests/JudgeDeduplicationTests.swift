import ClarissaCore
import Testing

@testable import ClarissaEngine

/// A search's listings once each, the first source to return an id winning, whether an answer
/// is taken whole (no id seen before) or read one listing at a time.
@Suite struct JudgeDeduplicationTests {
  static func listing(_ id: String) -> Listing {
    Listing(id: id, site: "feed", url: "https://x.example/\(id)", title: "t\(id)")
  }

  /// The first way it was done: one listing at a time, the source of each by id.
  static func oneAtATime(_ batches: [SourceBatch]) -> [(Listing, String)] {
    var sourceOf: [String: String] = [:]
    var unique: [(Listing, String)] = []
    for batch in batches {
      for listing in batch.listings where sourceOf[listing.id] == nil {
        sourceOf[listing.id] = batch.url
        unique.append((listing, batch.url))
      }
    }
    return unique
  }

  static let cases: [[[String]]] = [
    [], [[]], [["a", "b", "c"]], [["a", "b", "a", "c", "b"]], [["a", "b"], ["c", "d"]],
    [["a", "b"], ["b", "c"], ["c", "a", "d"]], [[], ["a"], [], ["a", "b"]],
    [["a", "a"], ["a"]], [["x"], ["y", "y", "z"], ["z", "w"]],
  ]

  @Test(arguments: cases)
  func takesEachIDOnceFromItsFirstSource(ids: [[String]]) {
    let batches = ids.enumerated().map { index, ids in
      SourceBatch(url: "https://source\(index).example", listings: ids.map(Self.listing))
    }
    let (listings, sources, _) = Judge.deduplicated(batches)
    let expected = Self.oneAtATime(batches)
    #expect(listings == expected.map(\.0))
    #expect(sources == expected.map(\.1))
  }
}
