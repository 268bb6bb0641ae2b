/// URL text as people and pages write it.
public enum URLText {
  /// `text` with what a URL may not hold as written (`[]`, `"`, spaces, `<>`, letters beyond
  /// ASCII: what a browser's address bar and a page's attributes show unencoded)
  /// percent-encoded, and what is encoded already (`%2C`) left as it is: given both in one URL,
  /// URLComponents would otherwise encode the `%` of `%2C` again.
  public static func encodingIllegal(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(where: { !allowed.contains($0) || $0 == UInt8(ascii: "%") }) else {
      return text
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%"), index + 2 < bytes.count, isHex(bytes[index + 1]),
        isHex(bytes[index + 2])
      {
        out += bytes[index...(index + 2)]
        index += 3
        continue
      }
      if allowed.contains(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
      }
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// What a URL holds as written: RFC 3986's unreserved and reserved characters.
  private static let allowed = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#@!$&'()*+,;=".utf8)
  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  private static func isHex(_ byte: UInt8) -> Bool {
    hexDigits.contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
  }
}
