/// The digest of an element as written, with what its bytes mean in its document (everything
/// before the root element, and the start tags of the elements it is in), as 128 bits
/// (``XMLEventParser``'s `passing`). The same bytes in the same place always give the same
/// digest, in every process and on every machine. It tells contents apart, it does not hide
/// them: a document's author can make two contents collide, and then one listing of their own
/// feed keeps its older fields (docs/performance.md, "Unchanged items").
public struct XMLDigest: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The two halves.
  public var high: UInt64
  public var low: UInt64

  /// Creates a digest.
  public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// The digest of `bytes`.
  public init(_ bytes: UnsafeRawBufferPointer) {
    var lanes = DigestLanes()
    lanes.add(bytes)
    self = lanes.finished
  }

  /// The digest of this one and `other` together: what an element means to its reader (the
  /// base its links are resolved against, the format it is read as).
  public func mixed(with other: XMLDigest) -> XMLDigest {
    var lanes = DigestLanes(high: high, low: low)
    withUnsafeBytes(of: (other.high, other.low)) { lanes.add($0) }
    return lanes.finished
  }

  /// 32 lower-case hex digits.
  public var description: String {
    [high, low].map {
      let digits = String($0, radix: 16)
      return String(repeating: "0", count: 16 - digits.count) + digits
    }.joined()
  }

  /// The digest a ``description`` wrote, or nil (read by hand: a poll reads 20,000 of them, and
  /// `UInt64(_:radix:)` on a substring took a twentieth of it).
  public init?(_ text: String) {
    var text = text
    guard
      let halves = text.withUTF8({ bytes -> (UInt64, UInt64)? in
        guard bytes.count == 32, let high = Self.hex(bytes, from: 0),
          let low = Self.hex(bytes, from: 16)
        else { return nil }
        return (high, low)
      })
    else { return nil }
    self.init(high: halves.0, low: halves.1)
  }

  private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt64? {
    var value: UInt64 = 0
    for byte in bytes[start..<start + 16] {
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: return nil
      }
      value = value << 4 | UInt64(digit)
    }
    return value
  }
}

/// Two 64-bit lanes over 8-byte words (a multiply and a shift per word each): about a byte a
/// cycle, where FNV-1a takes a multiply per byte.
struct DigestLanes {
  private var high: UInt64
  private var low: UInt64
  private var count: UInt64 = 0

  init(high: UInt64 = 0x243F_6A88_85A3_08D3, low: UInt64 = 0x1319_8A2E_0370_7344) {
    self.high = high
    self.low = low
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset + 8 <= bytes.count {
      word(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian)
      offset += 8
    }
    if offset < bytes.count {
      var tail: UInt64 = 0
      for index in offset..<bytes.count {
        tail |= UInt64(bytes[index]) << (UInt64(index - offset) * 8)
      }
      word(tail ^ 0x80)
    }
    count &+= UInt64(bytes.count)
  }

  private mutating func word(_ value: UInt64) {
    high = (high ^ value) &* 0x9E37_79B9_7F4A_7C15
    high ^= high >> 29
    low = (low &+ value) &* 0xC2B2_AE3D_27D4_EB4F
    low = (low << 31) | (low >> 33)
  }

  var finished: XMLDigest {
    XMLDigest(high: Self.mix(high ^ count), low: Self.mix(low &+ count &+ high))
  }

  /// MurmurHash3's finaliser.
  private static func mix(_ value: UInt64) -> UInt64 {
    var value = value
    value ^= value >> 33
    value &*= 0xFF51_AFD7_ED55_8CCD
    value ^= value >> 33
    value &*= 0xC4CE_B9FE_1A85_EC53
    value ^= value >> 33
    return value
  }
}
