package import Foundation

/// The server's VAPID key pair (RFC 8292) on P-256: the private scalar kept in the store
/// (never printed) and the public key a browser subscribes with.
package struct VAPIDKeys: Sendable {
  /// The raw private scalar, 32 bytes.
  package let privateKey: [UInt8]
  /// The uncompressed public key, 65 bytes (`0x04 || x || y`).
  package let publicKey: [UInt8]

  /// The pair of a raw 32-byte private key; throws when it is not a P-256 scalar.
  package init(privateKey: [UInt8]) throws(WebPushError) {
    self.publicKey = try P256.publicKey(of: privateKey)
    self.privateKey = privateKey
  }

  /// A new pair.
  package static func generate() throws(WebPushError) -> VAPIDKeys {
    try VAPIDKeys(privateKey: try P256.privateKey())
  }

  /// The public key in base64url: `applicationServerKey` for `PushManager.subscribe`, and the
  /// `k=` of the Authorization header.
  package var applicationServerKey: String { Base64URL.encode(publicKey) }

  /// The longest a JWT may live: RFC 8292 §2 allows at most 24 hours.
  package static let maxLifetime: TimeInterval = 24 * 3600
  /// How long the JWTs made here live: 12 hours, well inside the limit whatever the clocks.
  package static let lifetime: TimeInterval = 12 * 3600
  /// The contact (`sub`) when the channel names none.
  package static let defaultContact = "mailto:clarissa@localhost"

  /// The signed JWT (ES256) for a push service: `aud` the endpoint's origin, `exp` `now` plus
  /// ``lifetime`` (whole seconds), `sub` the contact (a `mailto:` or `https:` address).
  package func token(audience: String, contact: String, now: Date) throws(WebPushError)
    -> String
  {
    let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
    let expires = Int((now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
    let claims: [String: Any] = ["aud": audience, "exp": expires, "sub": contact]
    guard
      let json = try? JSONSerialization.data(
        withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
    else { throw WebPushError("the JWT's claims could not be written") }
    let signed = header + "." + Base64URL.encode(json)
    let signature = try P256.sign(Array(signed.utf8), privateKey: privateKey, publicKey: publicKey)
    return signed + "." + Base64URL.encode(signature)
  }

  /// `Authorization: vapid t=JWT, k=KEY` for a message to `endpoint` (RFC 8292 §3).
  package func authorization(endpoint: String, contact: String, now: Date) throws(WebPushError)
    -> String
  {
    guard let audience = Self.origin(of: endpoint) else {
      throw WebPushError("the endpoint has no origin")
    }
    let jwt = try token(audience: audience, contact: contact, now: now)
    return "vapid t=\(jwt), k=\(applicationServerKey)"
  }

  /// `scheme://host[:port]` of a URL, lowercased, the default port left out.
  package static func origin(of url: String) -> String? {
    guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
      let host = parts.host?.lowercased(), !host.isEmpty
    else { return nil }
    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    let defaultPort = scheme == "https" ? 443 : 80
    let port = parts.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
    return "\(scheme)://\(shown)\(port)"
  }
}

extension VAPIDKeys: CustomStringConvertible {
  /// The public key only: the private one is never printed.
  package var description: String { "VAPIDKeys(public: \(applicationServerKey))" }
}
