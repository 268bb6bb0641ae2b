import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine

/// The documented answers with bytes changed, thousands of ways: the readers never trap, and
/// what they accept has one time per home, each within 0 to two days.
@Suite struct RoutingAnswerMutationTests {
  /// What JSON is made of, and a few bytes it must not hold.
  static let alphabet = Array("0123456789-+.eE,:[]{}\" nulltruefalseNaN\u{1b}\u{0}".utf8)

  static func mutations(of text: String, count: Int, seed: UInt64) -> [[UInt8]] {
    var random = SeededRandom(seed: seed)
    let original = Array(text.utf8)
    return (0..<count).map { _ in
      var bytes = original
      for _ in 0...random.below(4) {
        let at = random.below(bytes.count)
        switch random.below(3) {
        case 0: bytes[at] = alphabet[random.below(alphabet.count)]
        case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
        default: bytes.remove(at: at)
        }
      }
      return bytes
    }
  }

  static func believable(_ read: Result<[Double?], RoutingFailure>, expected: Int) -> Bool {
    guard case .success(let minutes) = read else { return true }
    return minutes.count == expected
      && minutes.allSatisfy { $0.map { $0.isFinite && (0...2_880).contains($0) } ?? true }
  }

  @Test func osrmAnswersChangedNeverGiveAnAbsurdTime() {
    var accepted = 0
    for bytes in Self.mutations(of: OSRMTableTests.documented, count: 3_000, seed: 44) {
      let read = OSRMTable.minutes(bytes, expected: 2)
      #expect(Self.believable(read, expected: 2), "\(String(decoding: bytes, as: UTF8.self))")
      if case .success = read { accepted += 1 }
    }
    // Most changes land in the waypoints' hints and names: those answers are still read.
    #expect(accepted > 1_000)
  }

  @Test func motisAnswersChangedNeverGiveAnAbsurdTime() {
    var accepted = 0
    for bytes in Self.mutations(of: MOTISOneToManyTests.documented, count: 3_000, seed: 45) {
      let read = MOTISOneToMany.minutes(bytes, expected: 3)
      #expect(Self.believable(read, expected: 3), "\(String(decoding: bytes, as: UTF8.self))")
      if case .success = read { accepted += 1 }
    }
    #expect(accepted > 100)
  }
}
