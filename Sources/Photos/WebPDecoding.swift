internal import CWebP
internal import Foundation

/// WebP through libwebp: `WebPGetFeatures` reads the size and the animation flag from the
/// header, checked before decoding; the still picture is decoded with `WebPDecodeRGBInto`
/// (alpha dropped, not composited, as Pillow's `convert("L")` ignores it). An animated WebP is
/// refused ("animated WebP"): libwebp's still decoder does not read animations, and the demuxer
/// that would give the first frame is another library.
enum WebPDecoding {
  static func decode(_ data: Data, limits: PhotoLimits) throws(PhotoRefusal) -> DecodedPhoto {
    let result: Result<DecodedPhoto, PhotoRefusal> = data.withUnsafeBytes { raw in
      Result { () throws(PhotoRefusal) -> DecodedPhoto in
        guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
          throw PhotoRefusal("truncated WebP: no data")
        }
        return try decode(base, count: raw.count, limits: limits)
      }
    }
    return try result.get()
  }

  private static func decode(_ base: UnsafePointer<UInt8>, count: Int, limits: PhotoLimits)
    throws(PhotoRefusal) -> DecodedPhoto
  {
    var features = WebPBitstreamFeatures()
    let status = WebPGetFeatures(base, count, &features)
    guard status == VP8_STATUS_OK else {
      throw PhotoRefusal(
        status == VP8_STATUS_NOT_ENOUGH_DATA
          ? "truncated WebP: header incomplete" : "unreadable WebP: status \(status.rawValue)")
    }
    guard features.has_animation == 0 else { throw PhotoRefusal("animated WebP") }
    let (width, height) = (Int(features.width), Int(features.height))
    if let refusal = PhotoRefusal.pixels(width: width, height: height, limits: limits) {
      throw refusal
    }
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    let decoded = pixels.withUnsafeMutableBufferPointer { buffer in
      WebPDecodeRGBInto(base, count, buffer.baseAddress, buffer.count, Int32(width * 3))
    }
    guard decoded != nil else { throw PhotoRefusal("truncated or corrupt WebP") }
    return DecodedPhoto(
      format: "webp", width: width, height: height, decodedWidth: width, decodedHeight: height,
      layout: .rgb, bytes: pixels)
  }
}
