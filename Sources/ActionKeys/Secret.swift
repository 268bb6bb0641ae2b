internal import ClarissaCore

/// Secrets made and compared one way for every part that holds one (the web interface's tokens,
/// the action key): random bytes from the system, hex digits, and a comparison that takes the
/// same time wherever two secrets differ.
package enum Secret {
  /// `count` random bytes from the system's generator.
  package static func randomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
  }

  /// The bytes as lower-case hex digits, two a byte.
  package static func hex(_ bytes: [UInt8]) -> String { Hex.text(bytes) }

  /// Whether `a` and `b` hold the same bytes, looking at every byte of the longer whatever they
  /// hold (a difference in length does not end the comparison early either).
  package static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(a.count == b.count ? 0 : 1)
    for index in 0..<max(a.count, b.count) {
      difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
    }
    return difference == 0
  }
}
