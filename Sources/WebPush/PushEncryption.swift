/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// one record of at most 4,096 bytes, the padding delimiter 0x02, and in the header the salt,
/// the record size and, as the key id, the sender's one-time public key.
package enum PushEncryption {
  /// The record size written in the header.
  package static let recordSize = 4096
  /// The header: salt (16), record size (4), key id length (1), key id (65).
  package static let headerSize = 86
  /// The most a payload may hold so that the whole body is at most 4,096 bytes (the size
  /// every push service must take, RFC 8030 §7.2): 4,096 less the header, the delimiter and
  /// the 16-byte tag.
  package static let maxPayload = 4096 - headerSize - 1 - 16

  /// The body of a message carrying `payload` to a subscription (its `p256dh` public key and
  /// `auth` secret), encrypted with a new key pair and salt each time. Throws when the
  /// payload is over ``maxPayload`` or the subscription's keys are wrong.
  package static func encrypt(_ payload: [UInt8], p256dh: [UInt8], auth: [UInt8])
    throws(WebPushError) -> [UInt8]
  {
    let sender = try P256.privateKey()
    let salt = try P256.random(16)
    return try encrypt(payload, p256dh: p256dh, auth: auth, senderKey: sender, salt: salt)
  }

  /// The same with the sender's private key and the salt given: RFC 8291 §5's example, made
  /// byte for byte.
  package static func encrypt(
    _ payload: [UInt8], p256dh: [UInt8], auth: [UInt8], senderKey: [UInt8], salt: [UInt8]
  ) throws(WebPushError) -> [UInt8] {
    guard payload.count <= maxPayload else {
      throw WebPushError("a payload of \(payload.count) bytes is over \(maxPayload)")
    }
    guard auth.count == 16, salt.count == 16 else {
      throw WebPushError("the auth secret and the salt are 16 bytes")
    }
    guard P256.isValid(publicKey: p256dh) else {
      throw WebPushError("the subscription's p256dh is not a P-256 public key")
    }
    let senderPublic = try P256.publicKey(of: senderKey)
    let shared = try P256.sharedSecret(privateKey: senderKey, publicKey: senderPublic, peer: p256dh)
    // RFC 8291 §3.3-3.4: the auth secret mixed in, then RFC 8188's key and nonce.
    let keyInfo = Array("WebPush: info\0".utf8) + p256dh + senderPublic
    let secret = try P256.hkdf(salt: auth, key: shared, info: keyInfo, length: 32)
    let key = try P256.hkdf(
      salt: salt, key: secret, info: Array("Content-Encoding: aes128gcm\0".utf8), length: 16)
    let nonce = try P256.hkdf(
      salt: salt, key: secret, info: Array("Content-Encoding: nonce\0".utf8), length: 12)
    let sealed = try P256.seal(payload + [0x02], key: key, nonce: nonce)
    let size = UInt32(recordSize)
    let header =
      salt + [
        UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF),
        UInt8(size & 0xFF), 65,
      ] + senderPublic
    return header + sealed
  }
}
