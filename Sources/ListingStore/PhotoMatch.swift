internal import ClarissaCore
public import Foundation

/// When two photos are the same photo: by their 64-bit difference hashes (dhash, module
/// `Photos`) where both have one, by the site's photo id (``Fingerprint/image(_:)``) otherwise.
///
/// Two hashes are one photo when they differ in at most ``maxDistance`` bits. Measured on the
/// corpus of Fixtures/photos (its README.md's tables, imagehash's own hashes of 41 real photos
/// and 244 variants): re-encodings (JPEG q 60 and 85), resizes (50 %, 320 px), PNG <-> JPEG,
/// grayscale, a corner watermark and a small brightness change stay within 0-3 bits in 213 of
/// 217 cases (the others at 4, 5, 5 and 7); unrelated photos are at least 6 bits apart (the 820
/// pairs of originals: min 6, 1st percentile 15, median 32). 5 is the largest threshold that
/// folds no unrelated pair; it misses 1 of the 217 non-crop variants. Crops move dhash by 1-27
/// bits: a re-upload cropped by the site does not match by photo.
package enum PhotoMatch {
  /// The most bits two hashes of one photo differ in.
  package static let maxDistance = 5

  /// How many bits two hashes differ in (their Hamming distance).
  package static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }

  /// Whether two hashes are one photo.
  package static func same(_ a: UInt64, _ b: UInt64) -> Bool { distance(a, b) <= maxDistance }

  /// The widths of the bands a hash is cut into, from its lowest bit: 11, 11, 11, 11, 10, 10.
  /// Six bands, one more than ``maxDistance``: two hashes within 5 bits differ in at most five
  /// bands, so they agree exactly on at least one (pigeonhole). A look-up by the six bands
  /// finds every hash within 5, and reads only those that share a band with it; a random hash
  /// shares one with about 6 / 2,048 of the others.
  package static let bandWidths = [11, 11, 11, 11, 10, 10]

  /// The hash's six band keys: the band's number (0-5) times 2^16 plus the band's bits, so
  /// that keys of two bands never meet in one index.
  package static func bands(_ hash: UInt64) -> [Int] {
    var keys: [Int] = []
    var shift: UInt64 = 0
    for (index, width) in bandWidths.enumerated() {
      let bits = (hash >> shift) & ((1 << UInt64(width)) - 1)
      keys.append(index << 16 | Int(bits))
      shift += UInt64(width)
    }
    return keys
  }

  /// A hash as SQLite and PostgreSQL keep it: the same 64 bits as a signed integer.
  package static func stored(_ hash: UInt64) -> Int { Int(Int64(bitPattern: hash)) }

  /// A stored hash's 64 bits.
  package static func hash(stored value: Int) -> UInt64 { UInt64(bitPattern: Int64(value)) }

  /// 16 hexadecimal digits, as `clarissa photos hash` and imagehash print a hash.
  package static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The hash written as 16 hexadecimal digits; nil for any other text.
  package static func hash(hex text: String) -> UInt64? {
    guard text.utf8.count == 16 else { return nil }
    return UInt64(text, radix: 16)
  }
}

/// One photo of a listing as the folding rules compare it: the site's photo id and, when the
/// photo was fetched and decoded, its hash.
package struct ListingPhoto: Sendable, Hashable {
  /// ``Fingerprint/image(_:)`` of its address: what identifies it without a hash.
  package var id: String
  /// Its difference hash, when known.
  package var hash: UInt64?

  /// Whether the two are one photo: hashes within ``PhotoMatch/maxDistance`` when both have
  /// one, the same id otherwise.
  package func same(as other: ListingPhoto) -> Bool {
    if let hash, let theirs = other.hash { return PhotoMatch.same(hash, theirs) }
    return id == other.id
  }
}

/// What the store keeps of a photo fetched for its hash (`photo_hashes`): the hash and the
/// picture's size, or why it was refused.
public struct PhotoHash: Sendable, Equatable {
  /// The photo's address.
  public var url: String
  /// Its 64-bit difference hash; nil when it was refused.
  public var hash: UInt64?
  /// The picture's width and height in pixels (0 when refused).
  public var width: Int
  public var height: Int
  /// When it was fetched.
  public var fetchedAt: Date
  /// Why it was refused (too large, not a picture, truncated, a failed request); nil for a hash.
  public var note: String?

  /// Creates an entry.
  public init(
    url: String, hash: UInt64?, width: Int, height: Int, fetchedAt: Date, note: String? = nil
  ) {
    self.url = url
    self.hash = hash
    self.width = width
    self.height = height
    self.fetchedAt = fetchedAt
    self.note = note
  }
}
