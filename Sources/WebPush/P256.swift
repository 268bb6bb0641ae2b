internal import COpenSSL

/// The few operations of OpenSSL's libcrypto Web Push needs, over byte arrays (the shim in
/// `Sources/COpenSSL/shim.h` does each whole, so no OpenSSL object outlives a call).
package enum P256 {
  /// `count` random bytes from OpenSSL's private generator.
  package static func random(_ count: Int) throws(WebPushError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard clarissa_random(&bytes, count) == 1 else { throw WebPushError("no random bytes") }
    return bytes
  }

  /// A new private scalar: 32 random bytes from OpenSSL's private generator, drawn again in
  /// the rare case (about 1 in 2^32) that they are not a valid P-256 scalar.
  package static func privateKey() throws(WebPushError) -> [UInt8] {
    for _ in 0..<8 {
      let key = try random(32)
      if (try? publicKey(of: key)) != nil { return key }
    }
    throw WebPushError("no valid P-256 key in 8 draws")
  }

  /// The uncompressed public key (65 bytes, `0x04 || x || y`) of a 32-byte private scalar.
  package static func publicKey(of privateKey: [UInt8]) throws(WebPushError) -> [UInt8] {
    guard privateKey.count == 32 else { throw WebPushError("a private key is 32 bytes") }
    var out = [UInt8](repeating: 0, count: 65)
    guard clarissa_p256_public(privateKey, &out) == 1 else {
      throw WebPushError("not a P-256 private key (0, or not below the group's order)")
    }
    return out
  }

  /// Whether `publicKey` is 65 bytes, starts with 0x04 and is a point on the curve.
  package static func isValid(publicKey: [UInt8]) -> Bool {
    publicKey.count == 65 && clarissa_p256_valid(publicKey) == 1
  }

  /// The ECDH shared secret (32 bytes) of our key pair and the peer's public key.
  package static func sharedSecret(
    privateKey: [UInt8], publicKey: [UInt8], peer: [UInt8]
  ) throws(WebPushError) -> [UInt8] {
    guard privateKey.count == 32, publicKey.count == 65, peer.count == 65 else {
      throw WebPushError("ECDH takes a 32-byte private key and 65-byte public keys")
    }
    var out = [UInt8](repeating: 0, count: 32)
    guard clarissa_p256_ecdh(privateKey, publicKey, peer, &out) == 1 else {
      throw WebPushError("ECDH failed: the subscription's key is not on P-256")
    }
    return out
  }

  /// ECDSA-SHA256 of `message`: r || s, 32 bytes each (JWS's ES256, not DER).
  package static func sign(
    _ message: [UInt8], privateKey: [UInt8], publicKey: [UInt8]
  ) throws(WebPushError) -> [UInt8] {
    guard privateKey.count == 32, publicKey.count == 65 else {
      throw WebPushError("signing takes a 32-byte private key and its 65-byte public key")
    }
    var out = [UInt8](repeating: 0, count: 64)
    guard clarissa_p256_sign(privateKey, publicKey, message, message.count, &out) == 1 else {
      throw WebPushError("ECDSA signing failed")
    }
    return out
  }

  /// HKDF-SHA256 (RFC 5869): `length` bytes (at most 8,160) from `key` with `salt` and `info`.
  package static func hkdf(
    salt: [UInt8], key: [UInt8], info: [UInt8], length: Int
  ) throws(WebPushError) -> [UInt8] {
    guard (1...255 * 32).contains(length) else { throw WebPushError("HKDF length \(length)") }
    var out = [UInt8](repeating: 0, count: length)
    guard
      clarissa_hkdf_sha256(salt, salt.count, key, key.count, info, info.count, &out, length) == 1
    else { throw WebPushError("HKDF failed") }
    return out
  }

  /// AES-128-GCM of `plain` under a 16-byte key and 12-byte nonce: the ciphertext followed by
  /// the 16-byte tag.
  package static func seal(
    _ plain: [UInt8], key: [UInt8], nonce: [UInt8]
  ) throws(WebPushError) -> [UInt8] {
    guard key.count == 16, nonce.count == 12 else {
      throw WebPushError("AES-128-GCM takes a 16-byte key and a 12-byte nonce")
    }
    var out = [UInt8](repeating: 0, count: plain.count + 16)
    guard clarissa_aes128gcm_seal(key, nonce, plain, plain.count, &out) == 1 else {
      throw WebPushError("AES-128-GCM failed")
    }
    return out
  }
}

/// What went wrong in Web Push's cryptography or with a key.
package struct WebPushError: Error, Equatable, CustomStringConvertible {
  /// What, in a sentence.
  package var message: String

  package init(_ message: String) { self.message = message }

  package var description: String { message }
}
