package import Foundation

/// How much of a picture clarissa agrees to decode. Both limits are checked before any pixel is
/// decoded: the byte count first, then the pixel count the file's header declares.
package struct PhotoLimits: Sendable {
  /// The largest file accepted, in bytes (default 8 MiB).
  package var maxBytes: Int
  /// The largest picture accepted, width times height as the header says (default 40,000,000:
  /// a 7,700 x 5,200 photo passes, the 20,000 x 20,000 bomb of Fixtures/photos/hostile does not).
  package var maxPixels: Int

  package init(maxBytes: Int = 8 << 20, maxPixels: Int = 40_000_000) {
    self.maxBytes = maxBytes
    self.maxPixels = maxPixels
  }

  /// 8 MiB and 40,000,000 pixels.
  package static let standard = PhotoLimits()
}

/// A picture's difference hash and what it was computed from.
package struct PhotoFingerprint: Sendable, Equatable {
  /// imagehash's `dhash(image)` with hash_size 8 (`DifferenceHash.dhash`).
  package let hash: UInt64
  /// The picture's own width and height, from its header (a JPEG decoded at a DCT scale keeps
  /// its full size here).
  package let width: Int
  package let height: Int
  /// "jpeg", "png" or "webp", told from the first bytes, not from a name.
  package let format: String

  package init(hash: UInt64, width: Int, height: Int, format: String) {
    self.hash = hash
    self.width = width
    self.height = height
    self.format = format
  }

  /// The hash as 16 lowercase hexadecimal digits, as `str(imagehash.dhash(image))` prints it.
  package var hex: String { DifferenceHash.hex(hash) }
}

/// Why a picture was not hashed, in one line ("truncated JPEG: Premature end of JPEG file").
package struct PhotoRefusal: Error, Equatable, CustomStringConvertible {
  /// The reason, printable ASCII only (a decoder's message included).
  package let reason: String

  package init(_ reason: String) {
    self.reason = String(
      String.UnicodeScalarView(reason.unicodeScalars.filter { (0x20..<0x7F).contains($0.value) }))
  }

  package var description: String { reason }

  static let unknownFormat = PhotoRefusal("not a JPEG, PNG or WebP")

  static func tooLarge(_ limits: PhotoLimits) -> PhotoRefusal {
    let mebibytes = limits.maxBytes >> 20
    let limit =
      mebibytes > 0 && mebibytes << 20 == limits.maxBytes
      ? "\(mebibytes) MiB" : "\(limits.maxBytes) bytes"
    return PhotoRefusal("larger than \(limit)")
  }

  /// The pixel limit against the header's size: nil when the picture is within it.
  static func pixels(width: Int, height: Int, limits: PhotoLimits) -> PhotoRefusal? {
    guard width > 0, height > 0 else { return PhotoRefusal("\(width) x \(height) pixels, empty") }
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    guard overflow || count > limits.maxPixels else { return nil }
    return PhotoRefusal(
      "\(width) x \(height) pixels, over the limit of \(limits.maxPixels)")
  }
}

/// The pixels a decoder produced: the picture's size from its header, and the decoded bytes
/// (a JPEG's at the DCT scale it was decoded at).
package struct DecodedPhoto: Sendable {
  /// "jpeg", "png" or "webp".
  package let format: String
  /// The picture's size as its header gives it.
  package let width: Int
  package let height: Int
  /// The decoded pixels: `decodedWidth * decodedHeight * layout.channels` bytes, rows packed.
  package let decodedWidth: Int
  package let decodedHeight: Int
  package let layout: PixelLayout
  package let bytes: [UInt8]

  /// The pixels in Pillow's grey (`Gray8`): nil only when the sizes do not match the bytes.
  package var gray: Gray8? {
    Gray8(width: decodedWidth, height: decodedHeight, interleaved: bytes, layout: layout)
  }
}

/// The one door other modules use: bytes of a file in, a fingerprint or a one-line refusal out.
///
/// The format is told from the magic bytes (JPEG `FF D8 FF`, PNG's 8-byte signature, `RIFF` +
/// `WEBP`). Decoding goes through the system's libraries: libjpeg-turbo's TurboJPEG API at the
/// DCT scale (1/8, 1/4, 1/2 or whole) that keeps the shorter side at 64 px or more, libpng's
/// simplified API, libwebp. Truncated or corrupt data, a size over the limits, an animated WebP
/// are a `PhotoRefusal`, never a crash. Safe to call from any thread: each call has its own
/// decoder state.
package enum PhotoHashing {
  /// The difference hash of a JPEG, PNG or WebP file's bytes, equal to imagehash's
  /// `dhash(Image.open(file))` on PNG and WebP pictures and within a few bits on JPEGs (the
  /// scaled decode; Sources/Photos/README.md has the measured agreement).
  package static func fingerprint(of data: Data, limits: PhotoLimits = .standard)
    throws(PhotoRefusal) -> PhotoFingerprint
  {
    let decoded = try PhotoDecoding.decode(data, limits: limits)
    guard let gray = decoded.gray else {
      throw PhotoRefusal("\(decoded.format): decoder returned an unexpected size")
    }
    return PhotoFingerprint(
      hash: DifferenceHash.dhash(gray), width: decoded.width, height: decoded.height,
      format: decoded.format)
  }
}

/// Decoding alone, for `PhotoHashing` and the benchmark (which compares the scaled decode with a
/// whole one).
package enum PhotoDecoding {
  /// The format the first bytes announce, or nil.
  package static func format(of data: Data) -> String? {
    let head = [UInt8](data.prefix(12))
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpeg" }
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
    if head.count == 12, head.starts(with: Array("RIFF".utf8)),
      head[8..<12].elementsEqual("WEBP".utf8)
    {
      return "webp"
    }
    return nil
  }

  /// The file's pixels. `wholeJPEG` decodes a JPEG at full size instead of the DCT scale the
  /// hash uses (for the benchmark's comparison).
  package static func decode(_ data: Data, limits: PhotoLimits = .standard, wholeJPEG: Bool = false)
    throws(PhotoRefusal) -> DecodedPhoto
  {
    guard data.count <= limits.maxBytes else { throw PhotoRefusal.tooLarge(limits) }
    switch format(of: data) {
    case "jpeg": return try JPEGDecoding.decode(data, limits: limits, whole: wholeJPEG)
    case "png": return try PNGDecoding.decode(data, limits: limits)
    case "webp": return try WebPDecoding.decode(data, limits: limits)
    default: throw PhotoRefusal.unknownFormat
    }
  }
}
