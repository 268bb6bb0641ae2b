import FixtureSupport
import Foundation
import Photos
import Testing

/// The difference hash against Pillow and imagehash themselves (through pillow-agreement.py), and
/// the parts that need no Python.
@Suite struct DifferenceHashTests {
  /// A Python with Pillow and imagehash, which `.ci/run` installs in `.build/venv` (a machine set
  /// up by the README alone skips the agreement test; CI must run it).
  static var pillow: String? { TestTools.python(importing: "PIL, imagehash") }

  /// The script that writes Pillow's and imagehash's answers for generated pictures.
  static let script = TestTools.packageRoot.appendingPathComponent(
    "Tests/PhotosTests/pillow-agreement.py")

  @Test(
    .enabled(
      if: pillow != nil || TestTools.underCI,
      "no python3 with Pillow and imagehash (.ci/run installs them in .build/venv)"))
  func greyResizeAndHashEqualPillowAndImagehash() throws {
    let python = try #require(Self.pillow, "no python3 with Pillow and imagehash")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dhash-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try TestTools.run(
      URL(fileURLWithPath: python), [Self.script.path, folder.path, "--count", "60"])
    try #require(outcome.status == 0, "pillow-agreement.py failed: \(outcome.stderr)")

    let manifest = try String(
      contentsOf: folder.appendingPathComponent("manifest.txt"), encoding: .utf8)
    let lines = manifest.split(separator: "\n")
    #expect(lines.count >= 60)
    var hashes = 0
    for line in lines {
      let fields = line.split(separator: " ").map(String.init)
      try #require(fields.count == 7, "manifest line \(line)")
      let name = fields[0]
      let numbers = fields[1...5].compactMap { Int($0) }
      try #require(numbers.count == 5, "manifest line \(line)")
      let (width, height, channels) = (numbers[0], numbers[1], numbers[2])
      let (targetWidth, targetHeight) = (numbers[3], numbers[4])
      func bytes(_ suffix: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent("\(name).\(suffix)")))
      }
      let layout = try #require(PixelLayout(rawValue: channels), "\(name): \(channels) channels")
      let grey = try #require(
        Gray8(width: width, height: height, interleaved: try bytes("raw"), layout: layout),
        "\(name): no picture")
      #expect(grey.pixels == (try bytes("L")), "\(name): grey differs from convert(\"L\")")
      let resized = try #require(
        grey.resizedLanczos(width: targetWidth, height: targetHeight), "\(name): no resize")
      #expect(resized.pixels == (try bytes("out")), "\(name): resize differs from LANCZOS")
      if fields[6] != "-" {
        #expect(DifferenceHash.hex(DifferenceHash.dhash(grey)) == fields[6], "\(name): dhash")
        hashes += 1
      }
    }
    #expect(hashes > 0)
  }

  @Test func hexFormRoundTrips() {
    for hash: UInt64 in [0, 1, 0x8000_0000_0000_0000, 0x0123_4567_89ab_cdef, .max] {
      let hex = DifferenceHash.hex(hash)
      #expect(hex.count == 16)
      #expect(hex == hex.lowercased())
      #expect(DifferenceHash.hash(hex: hex) == hash)
    }
    #expect(DifferenceHash.hex(0x0f) == "000000000000000f")
    #expect(DifferenceHash.hash(hex: "0123456789ABCDEF") == 0x0123_4567_89ab_cdef)
    for bad in [
      "", "f", "0123456789abcde", "0123456789abcdef0", "+123456789abcdef", "0x23456789abcdef",
      "0123456789abcdeg", " 123456789abcdef",
    ] {
      #expect(DifferenceHash.hash(hex: bad) == nil, "\(bad)")
    }
  }

  @Test func distanceCountsDifferingBits() {
    #expect(DifferenceHash.distance(0, 0) == 0)
    #expect(DifferenceHash.distance(0, .max) == 64)
    #expect(DifferenceHash.distance(0b1011, 0b0001) == 2)
    #expect(DifferenceHash.distance(0x8000_0000_0000_0000, 1) == 2)
    #expect(DifferenceHash.distance(0x1234, 0x4321) == DifferenceHash.distance(0x4321, 0x1234))
  }

  @Test func bitsFollowRowsLeftToRight() {
    // Only row 0's first pair rising: the top bit.
    var pixels = [UInt8](repeating: 100, count: 72)
    pixels[1] = 101
    #expect(DifferenceHash.hash(ofNineByEight: pixels) == 0x8000_0000_0000_0000)
    // Only the last row's last pair rising: the bottom bit.
    pixels = [UInt8](repeating: 100, count: 72)
    pixels[71] = 101
    #expect(DifferenceHash.hash(ofNineByEight: pixels) == 1)
    // Every pair rising.
    pixels = (0..<72).map { UInt8($0 % 9) }
    #expect(DifferenceHash.hash(ofNineByEight: pixels) == .max)
    #expect(DifferenceHash.hash(ofNineByEight: [UInt8](repeating: 0, count: 71)) == 0)
  }

  @Test func emptyPictureHashesToZero() throws {
    let empty = try #require(Gray8(width: 0, height: 0, pixels: []))
    #expect(DifferenceHash.dhash(empty) == 0)
    let resized = try #require(empty.resizedLanczos(width: 9, height: 8))
    #expect(resized.pixels == [UInt8](repeating: 0, count: 72))
    let fromRGB = try #require(Gray8(width: 0, height: 0, interleaved: [], layout: .rgb))
    #expect(fromRGB.pixels.isEmpty)
  }

  @Test func onePixelPictureIsFlat() throws {
    let picture = try #require(
      Gray8(width: 1, height: 1, interleaved: [200, 10, 30], layout: .rgb))
    // (19595 * 200 + 38470 * 10 + 7471 * 30 + 32768) >> 16
    #expect(picture.pixels == [69])
    let resized = try #require(picture.resizedLanczos(width: 9, height: 8))
    #expect(resized.pixels == [UInt8](repeating: 69, count: 72))
    #expect(DifferenceHash.dhash(picture) == 0)
  }

  @Test func refusesSizesItCannotCount() {
    #expect(Gray8(width: Int.max, height: 2, pixels: []) == nil)
    #expect(Gray8(width: -1, height: 1, pixels: []) == nil)
    #expect(Gray8(width: 2, height: 2, pixels: [1, 2, 3]) == nil)
    #expect(Gray8(width: Int.max / 2, height: 1, interleaved: [], layout: .rgba) == nil)
    #expect(Gray8(width: 2, height: 1, interleaved: [1, 2, 3, 4, 5], layout: .rgb) == nil)
    let picture = Gray8(width: 1, height: 1, pixels: [7])
    #expect(picture?.resizedLanczos(width: Int.max, height: 2) == nil)
    #expect(picture?.resizedLanczos(width: -1, height: 8) == nil)
  }
}
