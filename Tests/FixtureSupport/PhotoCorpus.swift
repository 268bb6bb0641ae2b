import ClarissaCore
import Foundation

/// The photo corpus's reference hashes (Fixtures/photos/dhash.tsv: imagehash's `dhash` of 41
/// real photos, their 244 variants and the other files Pillow decodes), and the recorded
/// listings the folding tests put them on.
public enum PhotoCorpus {
  /// One line of dhash.tsv.
  public struct Entry: Sendable {
    /// The file, relative to Fixtures/photos (`variants/mate-aqua--q60.jpg`).
    public var path: String
    /// imagehash's hash.
    public var hash: UInt64
    /// The original it was made from (`mate-aqua`), or its own name for an original.
    public var original: String
    /// The variant's kind (`q60`, `crop5`), nil for an original.
    public var kind: String?
  }

  /// Every line of dhash.tsv, in its order.
  public static func entries() throws -> [Entry] {
    let text = String(decoding: try Fixtures.bytes("photos/dhash.tsv"), as: UTF8.self)
    return text.split(separator: "\n").dropFirst().compactMap { line in
      let cells = line.split(separator: "\t").map(String.init)
      guard cells.count >= 2, let hash = UInt64(cells[1], radix: 16) else { return nil }
      let name = String(cells[0].split(separator: "/").last ?? "")
      let stem = String(name.split(separator: ".").first ?? "")
      let parts = stem.components(separatedBy: "--")
      return Entry(
        path: cells[0], hash: hash, original: parts[0], kind: parts.count > 1 ? parts[1] : nil)
    }
  }

  /// The hash of one file of the corpus (`originals/mate-aqua.jpg`).
  public static func hash(_ path: String) throws -> UInt64 {
    guard let entry = try entries().first(where: { $0.path == path }) else {
      throw CorpusError(description: "\(path) is not in dhash.tsv")
    }
    return entry.hash
  }

  /// A recorded answer's listings as its site read them (`Fixtures/<site>/*.listings.json`).
  public static func listings(_ path: String) throws -> [Listing] {
    try JSONDecoder().decode([Listing].self, from: Data(try Fixtures.bytes(path)))
  }

  /// A file missing from the corpus.
  public struct CorpusError: Error, CustomStringConvertible {
    public var description: String
  }
}
