/// Base64 with the URL's alphabet (`-` and `_` for `+` and `/`) and no padding (RFC 4648 §5),
/// as Web Push writes keys, salts and JWTs.
package enum Base64URL {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `bytes` encoded, without `=`.
  package static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let bytes = Array(bytes)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count * 4 + 2) / 3)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for place in 0...count {
        out.append(alphabet[Int((group >> (18 - 6 * UInt32(place))) & 63)])
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes `text` encodes; nil when it holds anything but the alphabet (trailing `=`
  /// allowed) or has a length no encoding gives.
  package static func decode(_ text: some StringProtocol) -> [UInt8]? {
    var digits = Array(text.utf8)
    while digits.last == UInt8(ascii: "=") { digits.removeLast() }
    guard digits.count % 4 != 1 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(digits.count * 3 / 4)
    var group: UInt32 = 0
    var bits = 0
    for digit in digits {
      guard let value = value(digit) else { return nil }
      group = (group << 6) | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8((group >> UInt32(bits)) & 0xFF))
      }
    }
    return out
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): digit - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
