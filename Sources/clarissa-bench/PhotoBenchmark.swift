internal import Foundation
internal import Photos

/// Hashing a photo (decoded at the DCT scale that keeps 64 px, then grey, Lanczos to 9 x 8 and
/// dhash) against decoding the same file whole with the same library (libjpeg-turbo for JPEG,
/// libpng for PNG: there the decode is whole in both, and the difference is the hash's own
/// arithmetic). Over Fixtures/photos/large (1,600 x 1,000 JPEGs, the size of a listing's photo)
/// and originals/ (400 px JPEGs, 320 px PNGs). Run from the repository root.
struct PhotoBenchmark {
  let photos = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    .appendingPathComponent("Fixtures/photos")

  func run() {
    print(
      "photos: hash (scaled decode + dhash) against a whole decode, ms per photo (fastest of 21)")
    let groups: [(String, String, String)] = [
      ("large/ JPEG 1600x1000", "large", "jpg"), ("originals/ JPEG 400 px", "originals", "jpg"),
      ("originals/ PNG 320 px", "originals", "png"),
    ]
    for (label, folder, suffix) in groups {
      let files = files(in: folder, suffix: suffix)
      guard !files.isEmpty else {
        print("  (run from the repository root: Fixtures/photos/\(folder) not found)")
        return
      }
      let hashing = perPhoto(files) { try? PhotoHashing.fingerprint(of: $0) }
      let decode = perPhoto(files) { try? PhotoDecoding.decode($0).bytes.count }
      let whole = perPhoto(files) { try? PhotoDecoding.decode($0, wholeJPEG: true).bytes.count }
      print(
        "  \(label) (\(files.count)): hash \(Bench.format(hashing)) ms (its decode",
        "\(Bench.format(decode)) ms), whole decode \(Bench.format(whole)) ms, ratio",
        "\(Bench.format(whole / max(hashing, 1e-9)))x")
    }
  }

  /// The fastest of 21 passes over `files`, in milliseconds, divided by their number (the fastest:
  /// on this shared 2-core machine the median of the 2 large photos moved by 2x between runs).
  private func perPhoto(_ files: [Data], _ body: (Data) -> Any?) -> Double {
    Bench.fastest(runs: 21) { _ = files.map(body) } / Double(files.count)
  }

  private func files(in folder: String, suffix: String) -> [Data] {
    let url = photos.appendingPathComponent(folder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { $0.hasSuffix(".\(suffix)") }.sorted().compactMap {
      try? Data(contentsOf: url.appendingPathComponent($0))
    }
  }
}
