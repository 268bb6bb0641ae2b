import ClarissaCore
import Foundation
import Testing

@testable import WebPush

/// The VAPID JWT (RFC 8292) and the subscription's checks. (The signature itself is checked
/// by Python's `cryptography` in the loopback push service's test: ClarissaEngineTests.)
@Suite struct VAPIDTests {
  @Test func authorizationHeader() throws {
    let keys = try VAPIDKeys.generate()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let header = try keys.authorization(
      endpoint: "https://push.example.net:443/wpush/v2/abc?x=1", contact: "mailto:a@b.example",
      now: now)
    let parts = header.split(separator: " ")
    #expect(parts.first == "vapid")
    #expect(parts.last == "k=\(keys.applicationServerKey)")
    let token = String(parts[1].dropFirst(2).dropLast())
    let pieces = token.split(separator: ".").map(String.init)
    #expect(pieces.count == 3)
    let claimBytes = try #require(Base64URL.decode(pieces[1]))
    let claims = try #require(
      try JSONSerialization.jsonObject(with: Data(claimBytes)) as? [String: Any])
    #expect(claims["aud"] as? String == "https://push.example.net")
    #expect(claims["sub"] as? String == "mailto:a@b.example")
    #expect(claims["exp"] as? Int == 1_800_000_000 + 12 * 3600)
    #expect(try Base64URL.decode(pieces[2]).map(\.count) == 64)
    let headerBytes = try #require(Base64URL.decode(pieces[0]))
    #expect(String(decoding: headerBytes, as: UTF8.self) == #"{"typ":"JWT","alg":"ES256"}"#)
  }

  @Test func origins() {
    #expect(VAPIDKeys.origin(of: "http://127.0.0.1:8123/push/1") == "http://127.0.0.1:8123")
    #expect(
      VAPIDKeys.origin(of: "https://FCM.googleapis.com/fcm/send/x") == "https://fcm.googleapis.com")
    #expect(VAPIDKeys.origin(of: "http://[::1]:80/x") == "http://[::1]")
    #expect(VAPIDKeys.origin(of: "not a url") == nil)
  }

  static func json(
    endpoint: String = "https://push.example.net/send/abc", p256dh: String? = nil,
    auth: String = "BTBZMqHH6r4Tts7J_aSIgg", expiration: String = "null"
  ) -> [UInt8] {
    let key = p256dh ?? PushEncryptionTests.receiverPublic
    return Array(
      #"{"endpoint":"\#(endpoint)","expirationTime":\#(expiration),"keys":{"p256dh":"\#(key)","auth":"\#(auth)"}}"#
        .utf8)
  }

  @Test func subscriptionRead() throws {
    let subscription = try PushSubscription.checked(json: Self.json())
    #expect(subscription.endpoint == "https://push.example.net/send/abc")
    #expect(subscription.p256dh.count == 65 && subscription.auth.count == 16)
    #expect(
      try PushSubscription.checked(json: Self.json(expiration: "1800000000000")).auth.count == 16)
    #expect(
      try PushSubscription.checked(json: Self.json(endpoint: "http://127.0.0.1:9/p")).endpoint
        == "http://127.0.0.1:9/p")
    #expect(
      try PushSubscription.checked(json: Self.json(endpoint: "http://[::1]:9/p")).endpoint
        == "http://[::1]:9/p")
  }

  /// Each refused with the sentence that says why (a loop, not arguments: the bodies are long).
  @Test func subscriptionRefused() {
    let cases: [([UInt8], String)] = [
      (Self.json(endpoint: "http://push.example.net/x"), "not https"),
      (Self.json(endpoint: "http://10.0.0.1/x"), "not https"),
      (Self.json(endpoint: "ftp://push.example.net/x"), "not https"),
      (Self.json(endpoint: "https://u:p@push.example.net/x"), "a user"),
      (Self.json(endpoint: "https:///x"), "with a host"),
      (
        Self.json(endpoint: "https://push.example.net/" + String(repeating: "a", count: 2048)),
        "over 2048"
      ),
      (Self.json(auth: "BTBZMqHH6r4Tts7J_aSI"), "keys.auth is not 16 bytes"),
      (Self.json(auth: "BTBZMqHH6r4Tts7J aSIgg"), "not base64url"),
      (Self.json(p256dh: "BCVxsr7N_eNgVRqv"), "not an uncompressed"),
      (Self.json(expiration: "\"soon\""), "expirationTime"),
      (Array("[1]".utf8), "not a JSON object"),
      (Array(#"{"endpoint":"https://a.example/x"}"#.utf8), "no keys"),
      ([UInt8](repeating: 0x20, count: 8193), "over 8192 bytes"),
    ]
    for (json, said) in cases {
      #expect {
        try PushSubscription.checked(json: json)
      } throws: { error in
        (error as? PushSubscriptionProblem)?.message.contains(said) == true
      }
    }
  }

  @Test func subscriptionOffTheCurve() throws {
    var key = try #require(Base64URL.decode(PushEncryptionTests.receiverPublic))
    key[64] ^= 1
    let json = Self.json(p256dh: Base64URL.encode(key))
    #expect(throws: PushSubscriptionProblem("keys.p256dh is not a point on P-256")) {
      try PushSubscription.checked(json: json)
    }
    // Core's own reading takes it: the curve is WebPush's to check.
    #expect(try PushSubscription(json: json).p256dh == key)
  }
}
