import ActionKeys
import Channels
import ClarissaConfig
import ClarissaCore
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing
import WebPush

/// `webpush://` end to end against a loopback push service (Python: `http_ece` decrypts each
/// message with the subscription's own private key and auth secret, `cryptography` checks the
/// VAPID JWT's ES256 signature and claims), subscriptions kept in a real SQLite store.
@Suite(.serialized, .enabled(if: LoopbackPushService.available, "no python3 with http_ece"))
struct WebPushChannelTests {
  static let search = Search(name: "flats in Kreuzberg", site: "craigslist")
  static let listing = Listing(
    id: "7000000001", site: "craigslist",
    url: "https://sfbay.craigslist.org/sfc/apa/d/bright-2-room/7000000001.html",
    title: "Bright 2-room flat, balcony \u{1B}[31m(new)", description: "Quiet street.",
    price: 1450, currency: "EUR", location: "Kreuzberg")
  static let base = "https://flats.example.net"

  /// The channel as the config reads it (through the registry, nothing of its own).
  static func channel(_ url: String, body: String? = nil) throws -> Channel {
    let template = body.map { ", body: '\($0)'" } ?? ""
    let yaml = """
      version: 1
      notify:
        phone: {url: '\(url)'\(template)}
      searches:
        - name: s
          cities: [sfbay]
          notify: [phone]
      """
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "p.yaml", environment: [:], sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    return try #require(result.config?.channels["phone"])
  }

  /// A store in a new folder, holding the service's subscriptions `names`.
  static func store(_ service: LoopbackPushService, _ names: [String]) throws -> ListingStore {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "webpush-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let store = try ListingStore.open(
      path: folder.appendingPathComponent("state.db").path, readOnly: false)
    for name in names {
      let json = try #require(service.subscriptions[name])
      #expect(try store.addPushSubscription(PushSubscription.checked(json: json), at: Date()))
    }
    return store
  }

  static func sender(_ channel: Channel, store: ListingStore, links: ActionLinks?)
    -> any DeliveryChannel
  {
    ChannelFactory.sender(
      for: channel, fetcher: CurlFetcher(limits: FetchLimits(timeout: 10, maxBytes: 1 << 20)),
      environment: [:], baseDirectory: "/", maxRetryWait: 5, actions: links, pushStore: store)
  }

  @Test func messagesArriveEncryptedSignedAndAGoneDeviceIsForgotten() async throws {
    let service = try LoopbackPushService()
    let store = try Self.store(service, ["ok-1", "gone", "busy"])
    let links = ActionLinks(
      base: Self.base, key: ActionKey(bytes: Array(0..<32)), lifetime: 3600)
    let channel = try Self.channel(
      "webpush://?ttl=1h&urgency=high&contact=mailto:ops@example.com")
    #expect(channel.kind == .webpush)
    let started = Date()
    try await Self.sender(channel, store: store, links: links).deliver(
      [Self.listing], search: Self.search)

    let requests = try service.requests()
    #expect(requests.map { $0["device"] as? String } == ["ok-1", "gone", "busy", "busy"])
    #expect(requests.map { $0["status"] as? Int } == [201, 410, 429, 201])
    let serverKey = try VAPIDKeys(
      privateKey: store.vapidPrivateKey(
        making: {
          Issue.record("made again"); return []
        }, at: Date()))
    let topic = try #require(requests[0]["topic"] as? String)
    #expect(topic.utf8.count == 32)
    #expect(topic.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    for request in requests {
      #expect(request["decrypt_error"] == nil, "\(request["decrypt_error"] ?? "")")
      #expect(request["ttl"] as? String == "3600")
      #expect(request["urgency"] as? String == "high")
      #expect(request["topic"] as? String == topic)
      #expect(request["encoding"] as? String == "aes128gcm")
      let vapid = try #require(request["vapid"] as? [String: Any])
      #expect(vapid["signature"] as? Bool == true)
      #expect((vapid["problems"] as? [String])?.isEmpty == true, "\(vapid["problems"] ?? "")")
      #expect(vapid["k"] as? String == serverKey.applicationServerKey)
      let claims = try #require(vapid["claims"] as? [String: Any])
      #expect(claims["aud"] as? String == "http://127.0.0.1:\(service.port)")
      #expect(claims["sub"] as? String == "mailto:ops@example.com")
    }
    let payload = try #require(requests[0]["payload"] as? [String: Any])
    #expect(payload["title"] as? String == "€1,450 · Bright 2-room flat, balcony [31m(new)")
    #expect((payload["body"] as? String)?.contains("Kreuzberg") == true)
    #expect(payload["url"] as? String == "\(Self.base)/listing/craigslist/7000000001")
    #expect((payload["viewed"] as? String)?.hasPrefix("\(Self.base)/act/") == true)
    #expect(payload["tag"] as? String == topic)
    #expect(payload["unviewed"] as? Int == 0)
    let actions = try #require(payload["actions"] as? [[String: String]])
    #expect(actions.map { $0["action"] } == ["star", "hide"])
    #expect(actions.map { $0["title"] } == ["Star", "Hide"])
    #expect(actions.allSatisfy { $0["url"]?.hasPrefix("\(Self.base)/act/") == true })
    #expect(Set(actions.compactMap { $0["url"] }).count == 2)
    // The 429 was waited out as its Retry-After asked.
    let asked = try #require(requests[2]["at"] as? Double)
    let again = try #require(requests[3]["at"] as? Double)
    #expect(again - asked >= 0.9)
    #expect(Date().timeIntervalSince(started) < 5)
    // 410: the browser unsubscribed, and the store forgot it.
    let kept = try store.pushSubscriptions().map(\.endpoint)
    #expect(kept == ["ok-1", "busy"].map { "http://127.0.0.1:\(service.port)/push/\($0)" })
  }

  @Test func withoutServeURLTheListingOpensOnItsSiteAndALongBodyIsShortened() async throws {
    let service = try LoopbackPushService()
    let store = try Self.store(service, ["ok-1", "ok-2"])
    var long = Self.listing
    long.description = String(repeating: "Altbau mit Dielen und Stuck. ", count: 400)
    let channel = try Self.channel("webpush://", body: "{description}")
    try await Self.sender(channel, store: store, links: nil).deliver(
      [long], search: Self.search)
    let requests = try service.requests()
    #expect(requests.map { $0["device"] as? String } == ["ok-1", "ok-2"])
    for request in requests {
      #expect(request["ttl"] as? String == "86400")
      #expect(request["urgency"] as? String == "normal")
      let vapid = try #require(request["vapid"] as? [String: Any])
      #expect((vapid["claims"] as? [String: Any])?["sub"] as? String == "mailto:clarissa@localhost")
      let size = try #require(request["plaintext_size"] as? Int)
      #expect(size <= PushEncryption.maxPayload && size > 3000)
      #expect((request["size"] as? Int ?? .max) <= 4096)
      let payload = try #require(request["payload"] as? [String: Any])
      #expect(payload["url"] as? String == Self.listing.url)
      #expect(payload["viewed"] is NSNull)
      #expect((payload["actions"] as? [Any])?.isEmpty == true)
      #expect((payload["body"] as? String)?.hasSuffix("…") == true)
    }
  }

  @Test func aRefusalIsReportedAndNotedAndNoDeviceIsAnError() async throws {
    let service = try LoopbackPushService()
    let store = try Self.store(service, ["fail"])
    let channel = try Self.channel("webpush://?ttl=0")
    let links = ActionLinks(base: Self.base, key: ActionKey(bytes: Array(0..<32)), lifetime: 60)
    await #expect {
      try await Self.sender(channel, store: store, links: links).deliver(
        [Self.listing], search: Self.search)
    } throws: { error in
      let message = (error as? DeliveryError)?.message ?? ""
      return message.contains("channel 'phone': HTTP 500")
        && message.contains("push service at http://127.0.0.1:\(service.port)")
        && !message.contains("/push/fail")
    }
    let requests = try service.requests()
    #expect(requests.map { $0["ttl"] as? String } == ["0"])
    let vapid = try #require(requests.first?["vapid"] as? [String: Any])
    #expect((vapid["claims"] as? [String: Any])?["sub"] as? String == Self.base, "serve.url")
    #expect(try store.pushSubscriptions().count == 1, "a 500 does not forget the device")
    _ = try store.removePushSubscription(endpoint: "http://127.0.0.1:\(service.port)/push/fail")
    await #expect {
      try await Self.sender(channel, store: store, links: nil).deliver(
        [Self.listing], search: Self.search)
    } throws: { error in
      (error as? DeliveryError)?.message.contains("no device has subscribed") == true
    }
  }
}
