import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// Photo identity by hash distance (``PhotoMatch``) on imagehash's own hashes of the corpus
/// (Fixtures/photos/dhash.tsv): the threshold's table reproduced, the band look-up's promise
/// checked on every pair, and the hashes kept, looked up, exported and imported by the store.
@Suite struct PhotoMatchTests {
  /// The originals and their variants of originals/ and variants/.
  static func corpus() throws -> (originals: [PhotoCorpus.Entry], variants: [PhotoCorpus.Entry]) {
    let entries = try PhotoCorpus.entries()
    return (
      entries.filter { $0.path.hasPrefix("originals/") },
      entries.filter { $0.path.hasPrefix("variants/") }
    )
  }

  /// A photo address for a corpus file.
  static func url(_ entry: PhotoCorpus.Entry) -> String {
    "https://photos.example/\(entry.path)"
  }

  /// Fixtures/photos/README.md's threshold table at t = 5, from the hashes: 216 of the 217
  /// variants that are no crops are within 5 bits of their original, and none of the 820
  /// pairs of unrelated originals is (the closest at 6).
  @Test func theThresholdFoldsVariantsAndNoUnrelatedPair() throws {
    let (originals, variants) = try Self.corpus()
    #expect(originals.count == 41 && variants.count == 244)
    let byName = Dictionary(uniqueKeysWithValues: originals.map { ($0.original, $0.hash) })
    let plain = variants.filter { !($0.kind ?? "").hasPrefix("crop") }
    let folded = plain.filter { PhotoMatch.same($0.hash, byName[$0.original] ?? ~$0.hash) }
    #expect(plain.count == 217 && folded.count == 216)
    #expect(
      plain.filter { !folded.map(\.path).contains($0.path) }.map(\.path)
        == ["variants/skimage-brick--bright.png"])
    var unrelated: [Int] = []
    for (index, first) in originals.enumerated() {
      for second in originals[(index + 1)...] {
        unrelated.append(PhotoMatch.distance(first.hash, second.hash))
      }
    }
    #expect(unrelated.count == 820 && unrelated.min() == 6)
    #expect(unrelated.filter { $0 <= PhotoMatch.maxDistance }.isEmpty)
  }

  /// Two hashes within 5 bits share one of the six bands exactly (pigeonhole), on every pair
  /// of the corpus's 285 hashes; and the bands single out few of the others.
  @Test func everyPairWithinFiveSharesABand() throws {
    let (originals, variants) = try Self.corpus()
    let all = originals + variants
    var near = 0
    var sharing = 0
    for (index, first) in all.enumerated() {
      let bands = Set(PhotoMatch.bands(first.hash))
      for second in all[(index + 1)...] {
        let shares = !bands.isDisjoint(with: PhotoMatch.bands(second.hash))
        if shares { sharing += 1 }
        if PhotoMatch.same(first.hash, second.hash) {
          near += 1
          #expect(shares, "\(first.path) / \(second.path)")
        }
      }
    }
    let pairs = all.count * (all.count - 1) / 2
    #expect(near > 200 && sharing >= near && sharing < pairs / 4, "\(near) \(sharing) \(pairs)")
  }

  /// The stored integer is the hash's 64 bits (half the corpus has the top bit set), and the
  /// hexadecimal form is imagehash's.
  @Test func aHashIsStoredAndWrittenAsImagehashWritesIt() throws {
    let text = String(decoding: try Fixtures.bytes("photos/dhash.tsv"), as: UTF8.self)
    var negative = 0
    for line in text.split(separator: "\n").dropFirst() {
      let hex = String(line.split(separator: "\t")[1])
      let hash = try #require(PhotoMatch.hash(hex: hex))
      #expect(PhotoMatch.hex(hash) == hex)
      #expect(PhotoMatch.hash(stored: PhotoMatch.stored(hash)) == hash)
      if PhotoMatch.stored(hash) < 0 { negative += 1 }
    }
    #expect(negative > 100)
    #expect(PhotoMatch.hash(hex: "f7fef8f2e2e2f2f") == nil)
    #expect(PhotoMatch.hash(hex: "g7fef8f2e2e2f2f8") == nil)
  }

  /// The store keeps every corpus photo by address (one refused with its note) and finds, for
  /// each original, exactly the kept photos within 5 bits: its variants that are, and no
  /// other original.
  @Test func theStoreFindsEachOriginalsVariantsByItsBands() throws {
    let (originals, variants) = try Self.corpus()
    let store = try StoreSamples.store()
    let at = StoreSamples.start
    try store.rememberPhotoHashes(
      (originals + variants).map {
        PhotoHash(url: Self.url($0), hash: $0.hash, width: 400, height: 250, fetchedAt: at)
      } + [
        PhotoHash(
          url: "https://photos.example/hostile/bomb.png", hash: nil, width: 0, height: 0,
          fetchedAt: at, note: "20000 x 20000 pixels: more than the limit")
      ])
    let kept = try store.photoHashes([
      Self.url(originals[0]), "https://photos.example/hostile/bomb.png",
    ])
    #expect(kept[Self.url(originals[0])]?.hash == originals[0].hash)
    #expect(kept["https://photos.example/hostile/bomb.png"]?.note?.hasPrefix("20000") == true)
    try store.locked { database in
      for original in originals {
        let found = try ListingStore.similarPhotos(to: original.hash, in: database).map(\.url)
        let expected = (originals + variants).filter { PhotoMatch.same($0.hash, original.hash) }
        #expect(Set(found) == Set(expected.map(Self.url)), "\(original.path)")
        #expect(found.filter { $0.contains("originals/") } == [Self.url(original)])
      }
    }
  }

  /// `state export` writes each photo as a `photoHash` line with imagehash's hex, and `state
  /// import` brings it back with its bands: the imported store finds the variants too.
  @Test func photoHashesGoThroughExportAndImport() throws {
    let (originals, variants) = try Self.corpus()
    let aqua = (originals + variants).filter { $0.original == "mate-aqua" }
    let store = try StoreSamples.store()
    try store.rememberPhotoHashes(
      aqua.map {
        PhotoHash(
          url: Self.url($0), hash: $0.hash, width: 400, height: 250,
          fetchedAt: StoreSamples.start)
      })
    var lines: [String] = []
    try store.export { lines.append($0) }
    let photoLines = lines.filter { $0.hasPrefix("{\"type\":\"photoHash\"") }
    #expect(photoLines.count == aqua.count)
    #expect(photoLines.contains { $0.contains("\"hash\":\"f7fef8f2e2e2f2f8\"") })
    let copy = try StoreSamples.store()
    let counts = try copy.importLines(Data(lines.joined(separator: "\n").utf8), file: "export")
    #expect(counts["photo_hashes"] == aqua.count)
    try copy.locked { database in
      let found = try ListingStore.similarPhotos(to: aqua[0].hash, in: database)
      #expect(found.count == aqua.filter { PhotoMatch.same($0.hash, aqua[0].hash) }.count)
    }
  }
}
