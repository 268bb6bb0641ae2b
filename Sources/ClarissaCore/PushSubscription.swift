public import Foundation

/// A browser's Web Push subscription (issue 45), as `PushSubscription.toJSON()` gives it:
/// where to post (`endpoint`), and the keys a message is encrypted to (RFC 8291): the
/// browser's P-256 public key (`p256dh`, 65 bytes uncompressed) and its `auth` secret (16
/// bytes). Read from hostile JSON: every field checked, every size bounded. Whether `p256dh`
/// is a point on the curve is WebPush's to check (it alone links libcrypto).
public struct PushSubscription: Sendable, Equatable {
  /// The push service's URL for this browser: `https:`, or `http:` on loopback.
  public var endpoint: String
  /// The browser's public key, 65 bytes, the first 0x04.
  public var p256dh: [UInt8]
  /// The browser's auth secret, 16 bytes.
  public var auth: [UInt8]

  /// The longest endpoint taken, in bytes (the push services' are 150 to 500).
  public static let maxEndpoint = 2048
  /// The longest JSON body taken, in bytes.
  public static let maxBody = 8192
  /// The most subscriptions a store keeps: a device is a subscription, so 100 are plenty, and
  /// a flood of them (a token that leaked) cannot make each alert 10,000 requests.
  public static let limit = 100

  /// A subscription after checking each part (``PushSubscriptionProblem`` says which is wrong).
  public init(endpoint: String, p256dh: [UInt8], auth: [UInt8]) throws(PushSubscriptionProblem) {
    if let problem = Self.endpointProblem(endpoint) { throw PushSubscriptionProblem(problem) }
    guard p256dh.count == 65, p256dh.first == 0x04 else {
      throw PushSubscriptionProblem(
        "keys.p256dh is not an uncompressed P-256 key (65 bytes starting 0x04)")
    }
    guard auth.count == 16 else { throw PushSubscriptionProblem("keys.auth is not 16 bytes") }
    self.endpoint = endpoint
    self.p256dh = p256dh
    self.auth = auth
  }

  /// Reads the browser's JSON: `{"endpoint": ..., "expirationTime": null or a number,
  /// "keys": {"p256dh": BASE64URL, "auth": BASE64URL}}`; other members are ignored.
  public init(json: [UInt8]) throws(PushSubscriptionProblem) {
    guard json.count <= Self.maxBody else {
      throw PushSubscriptionProblem("the subscription is over \(Self.maxBody) bytes")
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
    else { throw PushSubscriptionProblem("the subscription is not a JSON object") }
    guard let endpoint = object["endpoint"] as? String else {
      throw PushSubscriptionProblem("the subscription has no endpoint")
    }
    if let expiration = object["expirationTime"], !(expiration is NSNull),
      !(expiration is NSNumber)
    {
      throw PushSubscriptionProblem("expirationTime is neither null nor a number")
    }
    guard let keys = object["keys"] as? [String: Any], let p256dh = keys["p256dh"] as? String,
      let auth = keys["auth"] as? String
    else { throw PushSubscriptionProblem("the subscription has no keys.p256dh and keys.auth") }
    guard let publicKey = Self.base64URL(p256dh), let secret = Self.base64URL(auth) else {
      throw PushSubscriptionProblem("keys.p256dh or keys.auth is not base64url")
    }
    try self.init(endpoint: endpoint, p256dh: publicKey, auth: secret)
  }

  /// Why `endpoint` is refused, or nil: over ``maxEndpoint`` bytes, control characters or
  /// spaces, a user or password, a fragment, no host, or a scheme other than `https:`
  /// (`http:` only on 127.0.0.1, ::1 or localhost: the tests' push service, one on this
  /// machine).
  public static func endpointProblem(_ endpoint: String) -> String? {
    guard endpoint.utf8.count <= maxEndpoint else {
      return "the endpoint is over \(maxEndpoint) bytes"
    }
    guard !endpoint.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
    else { return "the endpoint holds spaces or control characters" }
    guard let parts = URLComponents(string: endpoint), let host = parts.host?.lowercased(),
      !host.isEmpty
    else { return "the endpoint is not a URL with a host" }
    guard parts.user == nil, parts.password == nil, parts.fragment == nil else {
      return "the endpoint holds a user, a password or a fragment"
    }
    switch parts.scheme?.lowercased() {
    case "https": return nil
    case "http" where ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host): return nil
    default: return "the endpoint is not https (http only on 127.0.0.1, ::1 or localhost)"
    }
  }

  /// Base64url (or plain base64) without trusting it: nil for anything else (Foundation's
  /// decoder refuses every character outside the alphabet, spaces included).
  static func base64URL(_ text: String) -> [UInt8]? {
    guard text.utf8.count <= 512 else { return nil }
    var standard = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "=", with: "")
    guard standard.utf8.count % 4 != 1 else { return nil }
    standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
    return Data(base64Encoded: standard).map(Array.init)
  }
}

/// Why a subscription was refused, in a sentence a page can show.
public struct PushSubscriptionProblem: Error, Equatable, CustomStringConvertible {
  /// The sentence.
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}

/// What a Web Push sender and the page's push API need of the store: the subscriptions, the
/// VAPID private key (made once, kept, never printed), and the unviewed count a message
/// carries for the app's badge. The listing store implements it (schema step `22-web-push`).
public protocol PushSubscriptionStore: AnyObject, Sendable {
  /// Every subscription, oldest first.
  func pushSubscriptions() throws -> [PushSubscription]
  /// Keeps `subscription` (its keys replaced when its endpoint is known); returns whether it
  /// is new. Throws ``PushSubscriptionProblem`` when ``PushSubscription/limit`` are kept.
  @discardableResult func addPushSubscription(_ subscription: PushSubscription, at now: Date)
    throws -> Bool
  /// Forgets the subscription of `endpoint`; returns whether there was one.
  @discardableResult func removePushSubscription(endpoint: String) throws -> Bool
  /// Notes a message's fate at the endpoint: accepted (`failure` nil) or why not.
  func notePushDelivery(endpoint: String, failure: String?, at now: Date) throws
  /// The VAPID private key (32 bytes): the one kept, or else `make`'s, kept first by an
  /// insert that leaves an existing one alone, so that two processes agree on one key.
  func vapidPrivateKey(making make: () throws -> [UInt8], at now: Date) throws -> [UInt8]
  /// How many listings the searches found are unviewed (the app's badge).
  func unviewedCount() throws -> Int
}
