/// A stable 64-bit FNV-1a hash (Swift's `Hasher` is seeded per process, so it cannot name an
/// item across runs): feed items without an id, listings' contents, delivery idempotency keys.
/// Each text of the list is followed by 0x1F.
public enum ContentHash {
  /// Sixteen hex digits naming `parts`.
  public static func hex(_ parts: [String]) -> String {
    var hash = Parts()
    for part in parts { hash.part(part) }
    return hash.hex
  }

  /// The hash fed a part at a time, a part in as many pieces as it comes in: `add` each piece,
  /// then `end()`. The digits are those of ``hex(_:)`` over the parts the pieces make, so a
  /// caller never joins texts only to hash them.
  public struct Parts {
    private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    /// An empty list.
    public init() {}

    /// A piece of the current part.
    public mutating func add(_ text: String) {
      // The bytes where they are (a run hashes every listing it sees: walking `utf8` by index
      // cost most of the hash).
      text.withBytes { add($0) }
    }

    private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
      var hash = self.hash
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      self.hash = hash
    }

    /// Ends the current part.
    public mutating func end() {
      hash ^= 0x1F
      hash = hash &* 0x100_0000_01b3
    }

    /// A whole part.
    public mutating func part(_ text: String) {
      add(text)
      end()
    }

    /// The sixteen digits.
    public var hex: String {
      String(unsafeUninitializedCapacity: 16) { digits in
        for place in 0..<16 {
          let nibble = UInt8(truncatingIfNeeded: hash >> UInt64(60 - 4 * place)) & 0xF
          digits[place] =
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }
        return 16
      }
    }
  }
}

extension String {
  /// `body` over the text's UTF-8 bytes where they are (a native string's storage; a bridged or
  /// lazily decoded one is copied first): for scans that run over every listing a run sees,
  /// where walking `utf8` by index costs several times the scan.
  package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return copy.withUTF8(body)
  }
}
