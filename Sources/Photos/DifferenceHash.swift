internal import Foundation

/// How the bytes of a decoded picture are laid out, one byte per channel, channels interleaved.
public enum PixelLayout: Int, Sendable {
  /// One byte per pixel: the grey level.
  case gray = 1
  /// Grey then alpha.
  case grayAlpha = 2
  /// Red, green, blue.
  case rgb = 3
  /// Red, green, blue, alpha.
  case rgba = 4

  /// Bytes per pixel.
  public var channels: Int { rawValue }
}

/// An 8-bit greyscale picture: `width` times `height` bytes, row after row, top row first.
///
/// Nothing here reads or writes files. Every function returns nil rather than trapping on sizes
/// it cannot handle, but the work grows with the number of pixels: callers decoding untrusted
/// pictures refuse huge ones (a pixel limit checked from the file's header) before building one.
public struct Gray8: Sendable, Equatable {
  /// Pixels per row.
  public let width: Int
  /// Rows.
  public let height: Int
  /// `width * height` grey levels, row-major.
  public let pixels: [UInt8]

  /// A picture from its grey levels; nil when a size is negative or `pixels` does not hold
  /// exactly `width * height` bytes.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width >= 0, height >= 0 else { return nil }
    let (count, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, count == pixels.count else { return nil }
    self.init(checkedWidth: width, height: height, pixels: pixels)
  }

  private init(checkedWidth width: Int, height: Int, pixels: [UInt8]) {
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A picture converted to grey the way Pillow's `convert("L")` does it.
  ///
  /// Grey and grey-with-alpha keep the grey byte. RGB and RGBA give
  /// `(19595 r + 38470 g + 7471 b + 32768) >> 16`, ITU-R 601 luma in 16-bit fixed point,
  /// rounded half up; alpha is ignored, as Pillow ignores it. Rows start every `bytesPerRow`
  /// bytes (by default `width * layout.channels`, rows packed). Nil when a size is negative or
  /// `bytes` is too short.
  public init?(
    width: Int, height: Int, interleaved bytes: [UInt8], layout: PixelLayout,
    bytesPerRow: Int? = nil
  ) {
    let channels = layout.channels
    guard width >= 0, height >= 0 else { return nil }
    let (rowBytes, rowOverflow) = width.multipliedReportingOverflow(by: channels)
    let stride = bytesPerRow ?? rowBytes
    guard !rowOverflow, stride >= rowBytes else { return nil }
    let (pixelCount, countOverflow) = width.multipliedReportingOverflow(by: height)
    guard !countOverflow else { return nil }
    if pixelCount > 0 {
      let (lastRow, o1) = stride.multipliedReportingOverflow(by: height - 1)
      let (needed, o2) = lastRow.addingReportingOverflow(rowBytes)
      guard !o1, !o2, bytes.count >= needed else { return nil }
    }
    var grey = [UInt8](repeating: 0, count: pixelCount)
    for y in 0..<(pixelCount > 0 ? height : 0) {
      let row = y * stride
      for x in 0..<width {
        let at = row + x * channels
        switch layout {
        case .gray, .grayAlpha:
          grey[y * width + x] = bytes[at]
        case .rgb, .rgba:
          let luma =
            Int(bytes[at]) * 19595 + Int(bytes[at + 1]) * 38470 + Int(bytes[at + 2]) * 7471
            + 0x8000
          grey[y * width + x] = UInt8(truncatingIfNeeded: luma >> 16)
        }
      }
    }
    self.init(checkedWidth: width, height: height, pixels: grey)
  }

  /// The picture resized to `width` x `height` as Pillow's `resize(..., LANCZOS)` does it for
  /// an 8-bit greyscale image, byte for byte; nil when a size is negative or too large to count.
  ///
  /// Two separable passes of a Lanczos filter (a = 3) widened by the reduction factor, with
  /// 22-bit fixed-point coefficients and rounding and clipping to 0...255 after each pass. The
  /// horizontal pass runs first unless the height shrinks by more than twice as many pixels as
  /// the width does. An empty source gives an all-black picture.
  public func resizedLanczos(width newWidth: Int, height newHeight: Int) -> Gray8? {
    guard newWidth >= 0, newHeight >= 0 else { return nil }
    let (count, overflow) = newWidth.multipliedReportingOverflow(by: newHeight)
    guard !overflow else { return nil }
    if newWidth == width, newHeight == height { return self }
    if count == 0 || width == 0 || height == 0 {
      let black = [UInt8](repeating: 0, count: count)
      return Gray8(checkedWidth: newWidth, height: newHeight, pixels: black)
    }
    let needHorizontal = newWidth != width
    let needVertical = newHeight != height
    let horizontalFirst = !(height - newHeight > 0 && height - newHeight > (width - newWidth) * 2)
    guard let rows = Taps(inputSize: height, outputSize: newHeight) else { return nil }
    var image = self
    if horizontalFirst {
      if needHorizontal {
        guard let columns = Taps(inputSize: width, outputSize: newWidth) else { return nil }
        // Only the rows the vertical pass reads need the horizontal pass.
        let first = needVertical ? rows.start[0] : 0
        let last = needVertical ? rows.start[newHeight - 1] + rows.count[newHeight - 1] : height
        image = image.horizontalPass(columns, rows: first..<last)
        if needVertical { image = image.verticalPass(rows, shift: first) }
      } else {
        image = image.verticalPass(rows, shift: 0)
      }
    } else {
      image = image.verticalPass(rows, shift: 0)
      if needHorizontal {
        guard let columns = Taps(inputSize: width, outputSize: newWidth) else { return nil }
        image = image.horizontalPass(columns, rows: 0..<image.height)
      }
    }
    return image
  }

  private func horizontalPass(_ taps: Taps, rows: Range<Int>) -> Gray8 {
    let outWidth = taps.start.count
    var out = [UInt8](repeating: 0, count: outWidth * rows.count)
    for (outRow, y) in rows.enumerated() {
      let row = y * width
      for xx in 0..<outWidth {
        let weights = xx * taps.stride
        var sum = Taps.half
        for i in 0..<taps.count[xx] {
          sum += Int(pixels[row + taps.start[xx] + i]) * taps.weights[weights + i]
        }
        out[outRow * outWidth + xx] = Taps.clip(sum)
      }
    }
    return Gray8(checkedWidth: outWidth, height: rows.count, pixels: out)
  }

  /// The vertical pass, over a picture whose row 0 is the source's row `shift`.
  private func verticalPass(_ taps: Taps, shift: Int) -> Gray8 {
    let outHeight = taps.start.count
    var out = [UInt8](repeating: 0, count: width * outHeight)
    for yy in 0..<outHeight {
      let weights = yy * taps.stride
      let top = taps.start[yy] - shift
      for x in 0..<width {
        var sum = Taps.half
        for i in 0..<taps.count[yy] {
          sum += Int(pixels[(top + i) * width + x]) * taps.weights[weights + i]
        }
        out[yy * width + x] = Taps.clip(sum)
      }
    }
    return Gray8(checkedWidth: width, height: outHeight, pixels: out)
  }
}

/// The fixed-point filter taps of one pass: for each output position, the first input index,
/// how many inputs it reads, and their weights in units of 2^-22.
private struct Taps {
  static let precisionBits = 22
  /// Added before the shift, so that the shift rounds half up.
  static let half = 1 << (precisionBits - 1)

  var start: [Int] = []
  var count: [Int] = []
  var weights: [Int] = []
  /// Weights stored per output position (the largest possible count).
  var stride = 0

  /// Taps mapping `inputSize` positions onto `outputSize`, both positive; nil when the table
  /// would be too large to count.
  init?(inputSize: Int, outputSize: Int) {
    // Pillow passes the source box as 32-bit floats.
    let scale = Double(Float(inputSize)) / Double(outputSize)
    let filterScale = max(scale, 1)
    let support = 3 * filterScale
    stride = Int(support.rounded(.up)) * 2 + 1
    let (size, overflow) = stride.multipliedReportingOverflow(by: outputSize)
    guard !overflow else { return nil }
    weights = [Int](repeating: 0, count: size)
    let inverse = 1 / filterScale
    var real = [Double](repeating: 0, count: stride)
    for xx in 0..<outputSize {
      let center = (Double(xx) + 0.5) * scale
      // Pillow rounds with a C cast, which truncates toward zero.
      let first = max(0, Int(center - support + 0.5))
      let end = min(inputSize, Int(center + support + 0.5))
      let n = min(max(0, end - first), stride)
      var total = 0.0
      for i in 0..<n {
        let w = Self.lanczos((Double(first + i) - center + 0.5) * inverse)
        real[i] = w
        total += w
      }
      for i in 0..<n {
        let w = total != 0 ? real[i] / total : real[i]
        weights[xx * stride + i] = Self.fixed(w)
      }
      start.append(first)
      count.append(n)
    }
  }

  /// sinc(x) sinc(x / 3) on [-3, 3), zero elsewhere.
  static func lanczos(_ x: Double) -> Double {
    guard -3 <= x, x < 3 else { return 0 }
    return sinc(x) * sinc(x / 3)
  }

  static func sinc(_ x: Double) -> Double {
    if x == 0 { return 1 }
    let t = x * Double.pi
    return sin(t) / t
  }

  /// `w` times 2^22, rounded half away from zero.
  static func fixed(_ w: Double) -> Int {
    let scaled = w * Double(1 << precisionBits)
    guard scaled.isFinite else { return 0 }
    let rounded = scaled < 0 ? scaled - 0.5 : scaled + 0.5
    return Int(max(-0x4000_0000, min(0x4000_0000, rounded)))
  }

  /// A weighted sum in units of 2^-22 (with `half` already added) to a byte: shifted down,
  /// clipped to 0...255.
  static func clip(_ sum: Int) -> UInt8 {
    UInt8(clamping: sum >> precisionBits)
  }
}

/// The difference hash of the Python imagehash package's `dhash` with hash_size 8.
public enum DifferenceHash {
  /// The picture shrunk to 9 x 8 with `Gray8.resizedLanczos`; bit 63 - (8 row + column) is set
  /// when, in that row, the pixel right of `column` is brighter than the pixel at `column`.
  /// An empty picture hashes to 0.
  public static func dhash(_ image: Gray8) -> UInt64 {
    guard let small = image.resizedLanczos(width: 9, height: 8) else { return 0 }
    return hash(ofNineByEight: small.pixels)
  }

  /// The hash of a 9 x 8 greyscale buffer (72 bytes, row-major); 0 for a buffer of another size.
  public static func hash(ofNineByEight pixels: [UInt8]) -> UInt64 {
    guard pixels.count == 72 else { return 0 }
    var bits: UInt64 = 0
    for row in 0..<8 {
      for column in 0..<8 {
        let left = pixels[row * 9 + column]
        let right = pixels[row * 9 + column + 1]
        bits = bits << 1 | (left < right ? 1 : 0)
      }
    }
    return bits
  }

  /// The hash as imagehash prints it: 16 lowercase hexadecimal digits, first row first.
  public static func hex(_ hash: UInt64) -> String {
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// The hash read back from its 16 hexadecimal digits; nil for anything else.
  public static func hash(hex: String) -> UInt64? {
    guard hex.utf8.count == 16, hex.allSatisfy(\.isHexDigit) else { return nil }
    return UInt64(hex, radix: 16)
  }

  /// The number of bits in which two hashes differ (their Hamming distance), 0 to 64.
  public static func distance(_ a: UInt64, _ b: UInt64) -> Int {
    (a ^ b).nonzeroBitCount
  }
}
