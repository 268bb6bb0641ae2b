import ClarissaCore
import Foundation
import ListingStore
import Serve
import Testing
import WebServer

/// The page's Web Push API: the VAPID key made once and kept in the store, subscriptions
/// taken with every check and behind the same guards as the other POST APIs.
@Suite struct ServePushTests {
  /// RFC 8291's example browser key and auth secret, a real P-256 point.
  static let p256dh =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
  static let auth = "BTBZMqHH6r4Tts7J_aSIgg"

  static func subscription(_ endpoint: String, p256dh: String = p256dh) -> [UInt8] {
    Array(
      #"{"endpoint":"\#(endpoint)","expirationTime":null,"keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}"#
        .utf8)
  }

  static func send(
    _ fixture: ServeFixture, _ method: String, _ body: [UInt8],
    headers: [(name: String, value: String)]? = nil
  ) -> WebResponse {
    fixture.app.handle(
      WebRequest(
        method: method, target: "/api/push/subscriptions",
        headers: headers ?? [("x-csrf-token", fixture.csrf()), ("sec-fetch-site", "same-origin")],
        body: body))
  }

  static func object(_ fixture: ServeFixture, _ response: WebResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]) ?? [:]
  }

  @Test func theKeyIsMadeOnceAndKept() throws {
    let fixture = try ServeFixture(listings: [:])
    let first = Self.object(fixture, fixture.get("/api/push/key"))["publicKey"] as? String
    let key = try #require(first)
    #expect(key.utf8.count == 87 && key.hasPrefix("B"))
    #expect(Self.object(fixture, fixture.get("/api/push/key"))["publicKey"] as? String == key)
    // Another process opening the same store reads the same key.
    let again = try ListingStore.open(
      path: fixture.folder.appendingPathComponent("state.db").path, readOnly: false)
    let kept = try again.vapidPrivateKey(
      making: {
        Issue.record("a second key made"); return []
      }, at: Date())
    #expect(kept.count == 32)
    #expect(!fixture.text(fixture.get("/api/push/key")).contains(Self.hex(kept)))
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map {
      String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
    }
    .joined()
  }

  @Test func subscribeAndUnsubscribe() throws {
    let fixture = try ServeFixture(listings: [:])
    let endpoint = "https://fcm.example.net/fcm/send/abc:def"
    let added = Self.send(fixture, "POST", Self.subscription(endpoint))
    #expect(added.status == 201)
    #expect(Self.object(fixture, added)["new"] as? Bool == true)
    #expect(
      Self.object(fixture, Self.send(fixture, "POST", Self.subscription(endpoint)))["new"]
        as? Bool == false)
    #expect(try fixture.store.pushSubscriptions().map(\.endpoint) == [endpoint])
    let body = Array(#"{"endpoint":"\#(endpoint)"}"#.utf8)
    let removed = Self.send(fixture, "DELETE", body)
    #expect(removed.status == 200)
    #expect(Self.object(fixture, removed)["removed"] as? Bool == true)
    #expect(try fixture.store.pushSubscriptions().isEmpty)
    #expect(Self.object(fixture, Self.send(fixture, "DELETE", body))["removed"] as? Bool == false)
  }

  @Test func refusedSubscriptions() throws {
    let fixture = try ServeFixture(listings: [:])
    var offCurve = Array(Self.p256dh.utf8)
    offCurve[80] = offCurve[80] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
    let cases: [([UInt8], Int, String)] = [
      (Self.subscription("http://push.example.net/x"), 400, "not https"),
      (
        Self.subscription("https://a.example/x", p256dh: String(decoding: offCurve, as: UTF8.self)),
        400, "not a point on P-256"
      ),
      (Array("{}".utf8), 400, "no endpoint"),
      ([UInt8](repeating: 0x20, count: 8193), 413, "at most 8192 bytes"),
    ]
    for (body, status, said) in cases {
      let response = Self.send(fixture, "POST", body)
      #expect(response.status == status)
      #expect(
        (Self.object(fixture, response)["error"] as? String)?.contains(said) == true,
        "\(fixture.text(response))")
    }
    #expect(try fixture.store.pushSubscriptions().isEmpty)
  }

  @Test func theGuardsOfEveryPOST() throws {
    let fixture = try ServeFixture(listings: [:])
    let body = Self.subscription("https://push.example.net/x")
    let forged = Self.send(fixture, "POST", body, headers: [])
    #expect(forged.status == 403)
    let otherSite = Self.send(
      fixture, "POST", body,
      headers: [("x-csrf-token", fixture.csrf()), ("sec-fetch-site", "cross-site")])
    #expect(otherSite.status == 403)
    let otherOrigin = Self.send(
      fixture, "POST", body,
      headers: [("x-csrf-token", fixture.csrf()), ("origin", "https://evil.example")])
    #expect(otherOrigin.status == 403)
    let unsubscribe = Self.send(
      fixture, "DELETE", Array(#"{"endpoint":"https://push.example.net/x"}"#.utf8), headers: [])
    #expect(unsubscribe.status == 403)
    #expect(try fixture.store.pushSubscriptions().isEmpty)
    let tokened = try ServeFixture(token: "s3cret", listings: [:])
    #expect(tokened.get("/api/push/key", headers: [("accept", "application/json")]).status == 401)
    #expect(
      tokened.get("/api/push/key", headers: [("authorization", "Bearer s3cret")]).status == 200)
    let put = WebRequest(
      method: "PUT", target: "/api/push/key", headers: [("x-csrf-token", fixture.csrf())])
    #expect(fixture.app.handle(put).status == 405)
  }

  @Test func atMostAHundredDevices() throws {
    let fixture = try ServeFixture(listings: [:])
    for index in 0..<100 {
      let subscription = try PushSubscription(
        json: Self.subscription("https://push.example.net/\(index)"))
      try fixture.store.addPushSubscription(subscription, at: fixture.now)
    }
    let refused = Self.send(fixture, "POST", Self.subscription("https://push.example.net/100"))
    #expect(refused.status == 409)
    #expect((Self.object(fixture, refused)["error"] as? String)?.contains("100 devices") == true)
    // A known device may renew its keys.
    #expect(
      Self.send(fixture, "POST", Self.subscription("https://push.example.net/7")).status == 201)
    #expect(try fixture.store.pushSubscriptions().count == 100)
  }
}
