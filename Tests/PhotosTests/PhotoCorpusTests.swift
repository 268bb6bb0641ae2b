import FixtureSupport
import Foundation
import Photos
import Testing

/// The decoders and the hash over the whole photo corpus (Fixtures/photos), against imagehash's
/// own hashes in dhash.tsv, and the hostile files.
@Suite struct PhotoCorpusTests {
  static let folder = TestTools.packageRoot.appendingPathComponent("Fixtures/photos")

  /// One line of dhash.tsv: the file, imagehash's hash, its size, Pillow's format.
  struct Golden {
    let path: String
    let hash: UInt64
    let width: Int
    let height: Int
    let format: String
  }

  static func golden() throws -> [Golden] {
    let text = try String(
      contentsOf: folder.appendingPathComponent("dhash.tsv"), encoding: .utf8)
    return try text.split(separator: "\n").dropFirst().map { line in
      let fields = line.split(separator: "\t").map(String.init)
      try #require(fields.count == 5, "dhash.tsv line \(line)")
      return Golden(
        path: fields[0], hash: try #require(DifferenceHash.hash(hex: fields[1])),
        width: try #require(Int(fields[2])), height: try #require(Int(fields[3])),
        format: fields[4].lowercased())
    }
  }

  static func data(_ path: String) throws -> Data {
    try Data(contentsOf: folder.appendingPathComponent(path))
  }

  /// Distances 0, 1, 2, 3, 4 and more than 4, per format, and the files refused.
  struct Distribution {
    var counts = [Int](repeating: 0, count: 6)
    var refused: [String] = []
    var total: Int { counts.reduce(0, +) }
    func within(_ bits: Int) -> Int { counts[0...bits].reduce(0, +) }
    func row(_ name: String) -> String {
      let share = { (bits: Int) in
        String(format: "%.1f %%", 100 * Double(within(bits)) / Double(max(total, 1)))
      }
      return "| \(name) | \(total) | "
        + counts.map(String.init).joined(separator: " | ")
        + " | \(share(2)) | \(share(4)) | \(refused.count) |"
    }
  }

  @Test func hashesAgreeWithImagehashOverTheCorpus() throws {
    let lines = try Self.golden()
    #expect(lines.count >= 300)
    var table: [String: Distribution] = [:]
    var far: [String] = []
    for line in lines {
      let data = try Self.data(line.path)
      do {
        let fingerprint = try PhotoHashing.fingerprint(of: data)
        #expect(fingerprint.format == line.format, "\(line.path)")
        #expect(
          fingerprint.width == line.width && fingerprint.height == line.height, "\(line.path)")
        let distance = DifferenceHash.distance(fingerprint.hash, line.hash)
        table[line.format, default: Distribution()].counts[min(distance, 5)] += 1
        if distance > (line.format == "jpeg" ? 4 : 2) { far.append("\(line.path): \(distance)") }
      } catch {
        table[line.format, default: Distribution()].refused.append("\(line.path): \(error)")
      }
    }
    print("| format | hashed | 0 | 1 | 2 | 3 | 4 | >4 | within 2 | within 4 | refused |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for format in ["png", "jpeg", "webp"] {
      print(table[format, default: Distribution()].row(format))
    }
    print("beyond the bar: \(far.joined(separator: "; "))")
    print("refused: \(table.values.flatMap(\.refused).joined(separator: "; "))")

    let png = try #require(table["png"])
    let jpeg = try #require(table["jpeg"])
    #expect(png.total >= 60 && jpeg.total >= 220)
    #expect(Double(png.within(2)) >= 0.95 * Double(png.total), "PNG within 2")
    #expect(Double(jpeg.within(4)) >= 0.90 * Double(jpeg.total), "JPEG within 4")
    #expect(png.refused.isEmpty && jpeg.refused.isEmpty)
    // The one WebP still is hashed exactly as Pillow decodes it; the animated one is refused.
    #expect(table["webp"]?.counts[0] == 1)
    #expect(table["webp"]?.refused == ["hostile/animated.webp: animated WebP"])
  }

  @Test func jpegIsDecodedAtTheScaleThatKeepsSixtyFourPixels() throws {
    let large = try PhotoDecoding.decode(try Self.data("large/plasma-eveningglow.jpg"))
    let largeSizes: [Int] = [large.width, large.height, large.decodedWidth, large.decodedHeight]
    #expect(largeSizes == [1600, 1000, 200, 125])
    // 400 x 250: 250 / 4 = 62 < 64, so 1/2.
    let original = try PhotoDecoding.decode(try Self.data("originals/mate-aqua.jpg"))
    let originalSizes: [Int] = [original.decodedWidth, original.decodedHeight]
    #expect(originalSizes == [200, 125])
    let whole = try PhotoDecoding.decode(
      try Self.data("large/plasma-eveningglow.jpg"), wholeJPEG: true)
    let wholeSizes: [Int] = [whole.decodedWidth, whole.decodedHeight]
    #expect(wholeSizes == [1600, 1000])
    #expect(whole.bytes.count == 1600 * 1000 * 3)
  }

  /// Each hostile file: refused with its reason (from the header when it is the size), or hashed.
  @Test(arguments: [
    ("hostile/bomb-20000x20000.png", "20000 x 20000 pixels, over the limit of 40000000"),
    ("hostile/bomb-20000x20000-cut.png", "20000 x 20000 pixels, over the limit of 40000000"),
    ("hostile/truncated.jpg", "truncated JPEG: "),
    ("hostile/truncated.png", "truncated PNG: "),
    ("hostile/animated.webp", "animated WebP"),
    ("README.md", "not a JPEG, PNG or WebP"),
  ])
  func hostileFilesAreRefused(path: String, reason: String) throws {
    let data = try Self.data(path)
    #expect(throws: PhotoRefusal.self) { try PhotoHashing.fingerprint(of: data) }
    do {
      _ = try PhotoHashing.fingerprint(of: data)
    } catch {
      #expect("\(error)".hasPrefix(reason), "\(path): \(error)")
      #expect(!"\(error)".contains("\n"))
    }
  }

  @Test func cmykAndProgressiveJPEGsHashLikeTheBaseline() throws {
    let golden = try Self.golden()
    for path in ["hostile/cmyk.jpg", "hostile/progressive.jpg", "hostile/plain.webp"] {
      let expected = try #require(golden.first { $0.path == path })
      let fingerprint = try PhotoHashing.fingerprint(of: try Self.data(path))
      #expect(DifferenceHash.distance(fingerprint.hash, expected.hash) <= 2, "\(path)")
    }
  }

  @Test func limitsAreCheckedBeforeDecoding() throws {
    let photo = try Self.data("originals/mate-aqua.jpg")
    let small = PhotoLimits(maxBytes: 1000, maxPixels: 40_000_000)
    #expect(throws: PhotoRefusal("larger than 1000 bytes")) {
      try PhotoHashing.fingerprint(of: photo, limits: small)
    }
    #expect(throws: PhotoRefusal("larger than 8 MiB")) {
      try PhotoHashing.fingerprint(of: Data(count: 8 << 20 + 1))
    }
    let few = PhotoLimits(maxBytes: 8 << 20, maxPixels: 99_999)
    #expect(throws: PhotoRefusal("400 x 250 pixels, over the limit of 99999")) {
      try PhotoHashing.fingerprint(of: photo, limits: few)
    }
    #expect(throws: PhotoRefusal("not a JPEG, PNG or WebP")) {
      try PhotoHashing.fingerprint(of: Data())
    }
    // Every prefix of a JPEG, a PNG and a WebP: a refusal or a hash, never a crash.
    for path in ["formats/jpeg-420.jpg", "formats/png-palette.png", "hostile/plain.webp"] {
      let whole = try Self.data(path)
      for length in stride(from: 0, to: whole.count, by: max(1, whole.count / 97)) {
        _ = try? PhotoHashing.fingerprint(of: whole.prefix(length))
      }
    }
  }
}
