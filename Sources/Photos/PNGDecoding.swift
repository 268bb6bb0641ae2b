internal import CPNG
internal import Foundation

/// PNG through libpng's simplified API (`png_image_*`; errors come back in the `png_image`, no
/// longjmp crosses Swift frames).
///
/// The size is read from the header (`png_image_begin_read_from_memory`) and checked against the
/// pixel limit before any row is inflated: the 20,000 x 20,000 bomb of Fixtures/photos/hostile is
/// refused there. Pixels are asked for as RGB, or RGBA when the file has alpha (then the alpha
/// byte is ignored, as Pillow's `convert("L")` ignores it; asking libpng for RGB would composite
/// onto a background instead). Never as grey: libpng's own RGB-to-grey is not Pillow's. 16-bit
/// files are read as sRGB-encoded (`PNG_IMAGE_FLAG_16BIT_sRGB`) and scaled to 8 bits, where
/// Pillow clips every value above 255 (imagehash hashes such a picture to 0: a known
/// disagreement). Memory: the whole picture, up to `maxPixels * 4` bytes. Data that ends early
/// is refused, as Pillow refuses it.
enum PNGDecoding {
  static func decode(_ data: Data, limits: PhotoLimits) throws(PhotoRefusal) -> DecodedPhoto {
    let result: Result<DecodedPhoto, PhotoRefusal> = data.withUnsafeBytes { raw in
      Result { () throws(PhotoRefusal) -> DecodedPhoto in
        guard let base = raw.baseAddress else { throw PhotoRefusal("truncated PNG: no data") }
        return try decode(base, count: raw.count, limits: limits)
      }
    }
    return try result.get()
  }

  private static func decode(_ base: UnsafeRawPointer, count: Int, limits: PhotoLimits)
    throws(PhotoRefusal) -> DecodedPhoto
  {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    defer { png_image_free(&image) }
    guard png_image_begin_read_from_memory(&image, base, count) != 0 else {
      throw refusal(&image)
    }
    let (width, height) = (Int(image.width), Int(image.height))
    if let refusal = PhotoRefusal.pixels(width: width, height: height, limits: limits) {
      throw refusal
    }
    let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
    // PNG_FORMAT_RGB and PNG_FORMAT_RGBA, macros of macros that Swift does not import.
    let color = UInt32(PNG_FORMAT_FLAG_COLOR)
    image.format = hasAlpha ? color | UInt32(PNG_FORMAT_FLAG_ALPHA) : color
    image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
    let layout: PixelLayout = hasAlpha ? .rgba : .rgb
    var pixels = [UInt8](repeating: 0, count: width * height * layout.channels)
    let status = pixels.withUnsafeMutableBytes { buffer in
      png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
    }
    guard status != 0, clarissa_png_image_failed(&image) == 0 else { throw refusal(&image) }
    return DecodedPhoto(
      format: "png", width: width, height: height, decodedWidth: width, decodedHeight: height,
      layout: layout, bytes: pixels)
  }

  /// libpng's message as a refusal; data that ends early is "truncated".
  private static func refusal(_ image: inout png_image) -> PhotoRefusal {
    let message = withUnsafeBytes(of: &image.message) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    let truncated =
      message.contains("Not enough") || message.contains("Read Error")
      || message.contains("truncated") || message.contains("end of")
    return PhotoRefusal("\(truncated ? "truncated" : "unreadable") PNG: \(message)")
  }
}
