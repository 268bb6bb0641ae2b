internal import CTurboJPEG
internal import Foundation

/// JPEG through libjpeg-turbo's TurboJPEG API (errors are return values; no longjmp crosses
/// Swift frames).
///
/// The size is read from the header first and checked against the pixel limit; then the picture
/// is decoded at the smallest DCT scale (1/8, 1/4, 1/2, whole) that keeps its shorter side at
/// 64 px or more, `min(width, height) / d >= 64` (Fixtures/photos/README.md, "JPEG decoded at
/// reduced scale": with that rule Pillow's scaled decodes of the corpus are all within 3 bits of
/// the full-size hash, a plain 1/8 within 4 for only 93 %). Memory is the scaled picture's: a
/// 4,000 x 3,000 photo decodes to 500 x 375 x 3 bytes.
///
/// Grey JPEGs are decoded as grey, CMYK and YCCK ones (Adobe's, stored inverted) as CMYK and
/// turned into RGB as Pillow does (`cmyk2rgb` on the inverted bytes). Progressive JPEGs are
/// decoded with `TJFLAG_LIMITSCANS` (more than 500 scans is an error, the known denial of
/// service). A JPEG whose data ends early ("Premature end of JPEG file", a warning libjpeg-turbo
/// decodes past by filling grey) is refused as truncated, as Pillow refuses it ("image file is
/// truncated"); other warnings (extraneous bytes before a marker, which many cameras write) are
/// decoded, as Pillow decodes them.
enum JPEGDecoding {
  static func decode(_ data: Data, limits: PhotoLimits, whole: Bool) throws(PhotoRefusal)
    -> DecodedPhoto
  {
    guard let handle = tjInitDecompress() else {
      throw PhotoRefusal("JPEG: libjpeg-turbo could not start")
    }
    defer { tjDestroy(handle) }
    let result: Result<DecodedPhoto, PhotoRefusal> = data.withUnsafeBytes { raw in
      Result { () throws(PhotoRefusal) -> DecodedPhoto in
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
          throw PhotoRefusal("truncated JPEG: no data")
        }
        return try decode(base, count: raw.count, handle: handle, limits: limits, whole: whole)
      }
    }
    return try result.get()
  }

  private static func decode(
    _ base: UnsafePointer<UInt8>, count: Int, handle: tjhandle, limits: PhotoLimits, whole: Bool
  ) throws(PhotoRefusal) -> DecodedPhoto {
    var width: Int32 = 0
    var height: Int32 = 0
    var subsampling: Int32 = 0
    var colorspace: Int32 = 0
    let size = UInt(count)
    guard
      tjDecompressHeader3(handle, base, size, &width, &height, &subsampling, &colorspace) == 0
    else {
      throw refusal(handle)
    }
    let (fullWidth, fullHeight) = (Int(width), Int(height))
    if let refusal = PhotoRefusal.pixels(width: fullWidth, height: fullHeight, limits: limits) {
      throw refusal
    }
    let denominator = whole ? 1 : scaleDenominator(width: fullWidth, height: fullHeight)
    let scaledWidth = (fullWidth + denominator - 1) / denominator
    let scaledHeight = (fullHeight + denominator - 1) / denominator

    let format: TJPF
    let layout: PixelLayout
    switch colorspace {
    case Int32(TJCS_GRAY.rawValue): (format, layout) = (TJPF_GRAY, .gray)
    case Int32(TJCS_CMYK.rawValue), Int32(TJCS_YCCK.rawValue): (format, layout) = (TJPF_CMYK, .rgba)
    default: (format, layout) = (TJPF_RGB, .rgb)
    }
    var pixels = [UInt8](repeating: 0, count: scaledWidth * scaledHeight * layout.channels)
    let status = pixels.withUnsafeMutableBufferPointer { buffer in
      tjDecompress2(
        handle, base, size, buffer.baseAddress, Int32(scaledWidth), 0, Int32(scaledHeight),
        Int32(format.rawValue), TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS)
    }
    if status != 0 {
      let message = String(cString: tjGetErrorStr2(handle))
      if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) || message.contains("Premature") {
        throw refusal(handle)
      }
    }
    if format == TJPF_CMYK {
      pixels = rgbFromInvertedCMYK(pixels)
    }
    return DecodedPhoto(
      format: "jpeg", width: fullWidth, height: fullHeight, decodedWidth: scaledWidth,
      decodedHeight: scaledHeight, layout: format == TJPF_CMYK ? .rgb : layout, bytes: pixels)
  }

  /// The largest of 8, 4, 2 that leaves the shorter side at 64 px or more, else 1; only those
  /// the library offers as 1/d (`tjGetScalingFactors`: libjpeg-turbo has every n/8 from 1/8 to 2).
  static func scaleDenominator(width: Int, height: Int) -> Int {
    let shorter = min(width, height)
    return [8, 4, 2].first { supportedDenominators.contains($0) && shorter / $0 >= 64 } ?? 1
  }

  /// The d of every 1/d scaling factor libjpeg-turbo offers.
  private static let supportedDenominators: Set<Int> = {
    var count: Int32 = 0
    guard let factors = tjGetScalingFactors(&count), count > 0 else { return [] }
    return Set(
      UnsafeBufferPointer(start: factors, count: Int(count)).compactMap {
        $0.num == 1 ? Int($0.denom) : nil
      })
  }()

  /// Pillow's CMYK to RGB (`cmyk2rgb`, Pillow 13) after its `CMYK;I` unpacking: libjpeg hands
  /// Adobe's inverted bytes, so `255 - byte` is the ink and `nk = 255 - k` is the stored K byte.
  private static func rgbFromInvertedCMYK(_ cmyk: [UInt8]) -> [UInt8] {
    var rgb = [UInt8](repeating: 0, count: cmyk.count / 4 * 3)
    for pixel in 0..<(cmyk.count / 4) {
      let nk = Int(cmyk[pixel * 4 + 3])
      for channel in 0..<3 {
        let ink = 255 - Int(cmyk[pixel * 4 + channel])
        let product = ink * nk + 128
        let scaled = ((product >> 8) + product) >> 8
        rgb[pixel * 3 + channel] = UInt8(clamping: nk - scaled)
      }
    }
    return rgb
  }

  /// libjpeg-turbo's last message as a refusal; data that ends early is "truncated".
  private static func refusal(_ handle: tjhandle) -> PhotoRefusal {
    let message = String(cString: tjGetErrorStr2(handle))
    let truncated = message.contains("Premature") || message.contains("too short")
    return PhotoRefusal("\(truncated ? "truncated" : "unreadable") JPEG: \(message)")
  }
}
