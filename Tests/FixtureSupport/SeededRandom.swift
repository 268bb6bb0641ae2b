/// A small seeded generator (SplitMix64), so that a test's random inputs, and so its
/// failures, are the same on every machine and every run.
public struct SeededRandom: RandomNumberGenerator {
  /// The generator's state; the seed is the first.
  public var state: UInt64

  /// A generator starting from `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number from 0 to `bound` - 1 (`bound` > 0).
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
