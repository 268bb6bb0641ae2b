import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ListingStore

/// Web Push's part of both stores (schema step `22-web-push`): subscriptions kept by endpoint
/// (at most 100), their fate noted, and the VAPID key made once, however many connections ask.
@Suite(.serialized) struct StorePushTests {
  static let now = Date(timeIntervalSince1970: 1_790_000_000)
  /// RFC 8291's example browser key and auth secret.
  static let p256dh = Array(
    Data(
      base64Encoded:
        "BCVxsr7N/eNgVRqvHtD0zTZsEc6+VV+JvLexhqUzORcxaOzi6+AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4=")
      ?? Data())
  static let auth = Array(Data(base64Encoded: "BTBZMqHH6r4Tts7J/aSIgg==") ?? Data())

  static func subscription(_ index: Int) throws -> PushSubscription {
    try PushSubscription(
      endpoint: "https://push.example.net/send/\(index)", p256dh: p256dh, auth: auth)
  }

  static func pushes(_ memory: any ListingMemory) throws -> any PushSubscriptionStore {
    try #require(memory as? any PushSubscriptionStore)
  }

  @Test(arguments: StoreKind.built)
  func subscriptionsAreKeptByEndpointAtMostAHundred(kind: StoreKind) throws {
    let location = try kind.location()
    let store = try Self.pushes(StoreSamples.open(kind, at: location))
    #expect(try store.addPushSubscription(Self.subscription(0), at: Self.now))
    var renewed = try Self.subscription(0)
    renewed.auth = Array(repeating: 7, count: 16)
    #expect(try !store.addPushSubscription(renewed, at: Self.now.addingTimeInterval(60)))
    #expect(try store.pushSubscriptions() == [renewed])
    for index in 1..<100 {
      try store.addPushSubscription(Self.subscription(index), at: Self.now.addingTimeInterval(1))
    }
    #expect(throws: PushSubscriptionProblem.self) {
      try store.addPushSubscription(Self.subscription(100), at: Self.now)
    }
    #expect(try store.pushSubscriptions().count == 100)
    try store.notePushDelivery(endpoint: renewed.endpoint, failure: nil, at: Self.now)
    try store.notePushDelivery(
      endpoint: renewed.endpoint, failure: String(repeating: "x", count: 900), at: Self.now)
    #expect(try store.removePushSubscription(endpoint: renewed.endpoint))
    #expect(try !store.removePushSubscription(endpoint: renewed.endpoint))
    // Another connection sees the same, oldest first.
    let again = try Self.pushes(StoreSamples.open(kind, at: location))
    let kept = try again.pushSubscriptions()
    let oldest = try Self.subscription(1)
    #expect(kept.count == 99 && kept.first == oldest)
  }

  @Test(arguments: StoreKind.built)
  func theVAPIDKeyIsMadeOnceForEveryConnection(kind: StoreKind) throws {
    let location = try kind.location()
    let first = try Self.pushes(StoreSamples.open(kind, at: location))
    let second = try Self.pushes(StoreSamples.open(kind, at: location))
    let made = Array(repeating: UInt8(0x2A), count: 32)
    #expect(try first.vapidPrivateKey(making: { made }, at: Self.now) == made)
    // The second connection would make another: the insert keeps the first, and it is read.
    let other = Array(repeating: UInt8(0x17), count: 32)
    #expect(try second.vapidPrivateKey(making: { other }, at: Self.now) == made)
    #expect(
      try first.vapidPrivateKey(
        making: {
          Issue.record("made again"); return other
        }, at: Self.now)
        == made)
  }
}
