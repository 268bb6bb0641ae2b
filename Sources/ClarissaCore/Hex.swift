/// Bytes as lower-case hex digits and back: the one hex codec of the project (the secrets'
/// files, the store's Web Push keys).
public enum Hex {
  /// `bytes` as lower-case hex digits, two a byte.
  public static func text(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    return String(
      decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self)
  }

  /// The bytes `text` spells (either case), nil when it is not an even count of hex digits.
  public static func bytes(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    for index in stride(from: 0, to: digits.count, by: 2) {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 0x30...0x39: digit - 0x30
    case 0x61...0x66: digit - 0x61 + 10
    case 0x41...0x46: digit - 0x41 + 10
    default: nil
    }
  }
}
