/// A stable 64-bit FNV-1a hash (Swift's `Hasher` is seeded per process, so it cannot name an
/// item across runs): feed items without an id, and delivery idempotency keys.
public enum ContentHash {
  /// Sixteen hex digits naming `parts`.
  public static func hex(_ parts: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
      for byte in part.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
