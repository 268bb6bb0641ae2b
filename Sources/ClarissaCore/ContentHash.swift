/// A stable 64-bit FNV-1a hash (Swift's `Hasher` is seeded per process, so it cannot name an
/// item across runs): feed items without an id, and delivery idempotency keys.
public enum ContentHash {
  /// Sixteen hex digits naming `parts`.
  public static func hex(_ parts: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for var part in parts {
      // The bytes where they are (a run hashes every listing it sees: walking `utf8` by index
      // cost most of the hash).
      part.withUTF8 { bytes in
        for byte in bytes {
          hash ^= UInt64(byte)
          hash = hash &* 0x100_0000_01b3
        }
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    return String(unsafeUninitializedCapacity: 16) { digits in
      for place in 0..<16 {
        let nibble = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * place)) & 0xF
        digits[place] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
      }
      return 16
    }
  }
}
