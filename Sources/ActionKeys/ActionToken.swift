package import ClarissaCore
package import Foundation

/// A signed, expiring permission to do one ``ListingAction`` to one listing, as a button
/// carries it: no session is needed, the signature is the authorization.
///
/// The text is URL-safe base64 (no padding) of `action (1 byte) · expiry (4 bytes, seconds
/// since 1970, big-endian) · site length (1 byte) · site · id · MAC (12 bytes)`, the MAC being
/// HMAC-SHA256 under the state folder's key over a domain label and everything before it, cut
/// to its first 96 bits. The listing travels in the token, so nothing is stored per button;
/// a typical one (`craigslist`, a 10-digit id) is 51 characters, within the 64 bytes of a
/// Telegram button's `callback_data`.
package struct ActionToken: Sendable, Equatable {
  /// What to do.
  package var action: ListingAction
  /// The listing's site.
  package var site: String
  /// The listing's id on its site.
  package var id: String
  /// When it stops being accepted.
  package var expires: Date

  /// Creates a token's content.
  package init(action: ListingAction, site: String, id: String, expires: Date) {
    self.action = action
    self.site = site
    self.id = id
    self.expires = expires
  }

  /// Bytes of the MAC kept: 96 bits, beyond reach of guessing over the network, and short
  /// enough that the token of a usual listing fits Telegram's 64-byte callback data.
  static let macLength = 12
  /// The longest site plus id a token carries (a message's URL stays short).
  static let maxKeyLength = 400
  private static let label = Array("clarissa action token v1\n".utf8)

  /// Why a token is refused.
  package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a token at all (cut, not base64, an unknown action, too long).
    case malformed
    /// The signature does not match: made without the key, or changed.
    case forged
    /// Signed, but past its expiry.
    case expired(Date)

    package var description: String {
      switch self {
      case .malformed: "this is not an action link of clarissa (it may have been cut)"
      case .forged: "this action link was not signed by this clarissa (or was changed)"
      case .expired(let date):
        "this action link expired on \(DateFormat.internet.string(from: date)); "
          + "set the mark on the listing's page instead"
      }
    }
  }

  /// The signed text.
  package func signed(with key: ActionKey) -> String? {
    let site = Array(site.utf8)
    let id = Array(id.utf8)
    let seconds = expires.timeIntervalSince1970.rounded(.down)
    guard site.count <= 255, site.count + id.count <= Self.maxKeyLength, seconds >= 0,
      seconds <= Double(UInt32.max)
    else { return nil }
    let stamp = UInt32(seconds)
    var bytes: [UInt8] = [action.rawValue]
    bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: stamp >> UInt32($0)) }
    bytes.append(UInt8(site.count))
    bytes += site + id
    bytes += Self.mac(bytes, key: key)
    return Base64URL.encode(bytes)
  }

  /// The token `text` stands for, when it is well formed, signed under `key` and not expired
  /// at `now`. The signature is compared in time that does not depend on where it differs.
  package static func verify(_ text: String, key: ActionKey, now: Date) -> Result<
    ActionToken, Problem
  > {
    guard text.utf8.count <= (maxKeyLength + 18) * 4 / 3 + 4, let bytes = Base64URL.decode(text),
      bytes.count >= 6 + macLength
    else { return .failure(.malformed) }
    let body = Array(bytes.dropLast(macLength))
    guard Secret.same(Array(bytes.suffix(macLength)), mac(body, key: key)) else {
      return .failure(.forged)
    }
    let siteLength = Int(body[5])
    guard let action = ListingAction(rawValue: body[0]), body.count >= 6 + siteLength,
      let site = String(validating: body[6..<6 + siteLength], as: UTF8.self),
      let id = String(validating: body[(6 + siteLength)...], as: UTF8.self),
      !site.isEmpty, !id.isEmpty
    else { return .failure(.malformed) }
    let stamp = body[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let expires = Date(timeIntervalSince1970: Double(stamp))
    guard now < expires else { return .failure(.expired(expires)) }
    return .success(ActionToken(action: action, site: site, id: id, expires: expires))
  }

  private static func mac(_ body: [UInt8], key: ActionKey) -> [UInt8] {
    Array(SHA256.hmac(key: key.bytes, message: label + body).prefix(macLength))
  }

}

/// Base64 with `-` and `_` for `+` and `/`, without padding (RFC 4648 §5): safe in a URL path.
enum Base64URL {
  static func encode(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  static func decode(_ text: String) -> [UInt8]? {
    guard
      text.utf8.allSatisfy({
        ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
          || $0 == 0x2D || $0 == 0x5F
      }), text.utf8.count % 4 != 1
    else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }
}
