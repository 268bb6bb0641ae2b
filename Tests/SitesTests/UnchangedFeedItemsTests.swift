import ClarissaCore
import Feeds
import FixtureSupport
import Foundation
import Testing

@testable import SiteFormat
@testable import Sites

/// The generic feed adapter given the digests of its last reading (``KnownItems``): every item
/// of a well-formed feed is passed over, none of another; the listings it still reads are the
/// ones it reads without digests; and the reading's generation is pinned to what it reads.
@Suite struct UnchangedFeedItemsTests {
  static let site = GenericFeedSite()

  static func known(_ batch: ListingBatch, salt: String = "s") -> KnownItems {
    KnownItems(ids: Dictionary(batch.digests.map { ($1, $0) }) { first, _ in first }, salt: salt)
  }

  @Test(arguments: LazyDescriptionTests.files)
  func aFeedReadAgainUnchangedIsPassedOverWhole(file: String) throws {
    var response = try LazyDescriptionTests.response(file)
    guard let plain = try? Self.site.listings(from: response) else { return }
    response.known = KnownItems(ids: [:], salt: "s")
    let first = try Self.site.listings(from: response)
    // With digests to keep, the same listings.
    #expect(first.listings == plain.listings, "\(file)")
    #expect(first.unchanged.isEmpty)
    response.known = Self.known(first)
    let again = try Self.site.listings(from: response)
    // Ids given twice keep no digest: those are read again; every other item is passed over.
    let twice = Set(
      plain.listings.map(\.id).filter { id in
        plain.listings.filter { $0.id == id }.count > 1
      })
    #expect(Set(again.unchanged) == Set(first.digests.keys), "\(file)")
    #expect(again.listings.allSatisfy { twice.contains($0.id) || first.digests[$0.id] == nil })
    // Other limits, another salt: nothing is passed over.
    response.known = Self.known(first, salt: "other")
    #expect(try Self.site.listings(from: response).unchanged.isEmpty)
  }

  @Test func oneChangedItemIsReadAndTheOthersPassedOver() throws {
    let text = try String(decoding: Fixtures.bytes("http/feed.xml"), as: UTF8.self)
    var response = SourceResponse(
      request: RequestSpec(url: "https://feeds.example/f.xml", mode: "feed"),
      body: Array(text.utf8))
    response.known = KnownItems(ids: [:], salt: "")
    let first = try Self.site.listings(from: response)
    try #require(first.listings.count >= 2)
    let changed = first.listings[0]
    let edited = text.replacingOccurrences(of: changed.title, with: changed.title + " (sold)")
    response.body = Array(edited.utf8)
    response.known = Self.known(first, salt: "")
    let again = try Self.site.listings(from: response)
    #expect(again.listings.map(\.id) == [changed.id])
    #expect(again.listings.first?.title == changed.title + " (sold)")
    #expect(Set(again.unchanged) == Set(first.listings.dropFirst().map(\.id)))
    #expect(again.digests[changed.id] != first.digests[changed.id])
  }

  /// What the fixtures read to: the content hashes of every listing of every feed fixture.
  /// When this changes, items read into other listings than before: raise
  /// `FeedListings.generation` (so that no store passes over an item it read the old way) and
  /// write both figures here.
  @Test func theGenerationIsPinnedToWhatTheFixturesReadTo() throws {
    var hashes: [String] = []
    for file in LazyDescriptionTests.files {
      guard let batch = try? Self.site.listings(from: LazyDescriptionTests.response(file)) else {
        continue
      }
      hashes += batch.listings.map(ListingField.contentHash)
    }
    let digest = ContentHash.hex(hashes)
    #expect(
      FeedListings.generation == 2 && digest == Self.pinned,
      "the fixtures now read to \(digest): raise FeedListings.generation and pin both")
  }

  static let pinned = "9df8454ba0759895"
}
