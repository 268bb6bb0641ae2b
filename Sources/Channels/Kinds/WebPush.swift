internal import ActionKeys
package import ClarissaCore
internal import Curl
internal import Foundation
internal import WebPush

extension Channel.Kind {
  /// The browsers that subscribed on the web page (Web Push).
  package static let webpush = Channel.Kind(rawValue: "webpush")
}

/// `webpush://`: every browser that subscribed on `clarissa serve`'s page (its "Notify this
/// device" button), through each one's push service (RFC 8030), messages encrypted (RFC 8291)
/// and signed with the store's VAPID key (RFC 8292).
package struct WebPushKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.webpush
  package let schemes = ["webpush"]
  package let summary =
    "`webpush://`: every device that subscribed on the web page (`clarissa serve`)"
  package let example = "webpush://?urgency=high"
  package let parameters = [
    ChannelParameter(
      "ttl",
      "how long a push service keeps a message for an offline device: `1d` (default), "
        + "`12h`, seconds; at most 28 days"),
    ChannelParameter("urgency", "very-low, low, normal (default) or high (RFC 8030 §5.3)"),
    ChannelParameter(
      "contact",
      "the VAPID `sub` a push service may write to: `mailto:` or `https:` "
        + "(default `serve.url` when it is https, else \(VAPIDKeys.defaultContact))"),
  ]
  package let secrets: [ChannelSecret] = []

  /// The longest `ttl` taken: 28 days, the most the big push services keep a message.
  package static let maxTTL = 28 * 86_400
  /// The urgencies RFC 8030 names.
  package static let urgencies = ["very-low", "low", "normal", "high"]

  /// Seconds `ttl=` names (`1d`, `90m`, a number of seconds; default one day); nil when it is
  /// none or over ``maxTTL``.
  package static func ttl(_ url: ChannelURL) -> Int? {
    guard let text = url.value("ttl") else { return 86_400 }
    let seconds = text.allSatisfy(\.isASCII) && text.count <= 9 ? Int(text) : nil
    guard let value = seconds ?? Interval(parsing: text)?.seconds, (0...maxTTL).contains(value)
    else { return nil }
    return value
  }

  /// The contact `contact=` names; without one, `serve.url` when it is `https:` (a push
  /// service may refuse a contact at `localhost`: Apple's is said to), else
  /// ``VAPIDKeys/defaultContact``. Nil when `contact=` is neither `mailto:` nor `https:`.
  package static func contact(_ url: ChannelURL, serveURL: String? = nil) -> String? {
    guard let text = url.value("contact") else {
      if let serveURL, serveURL.lowercased().hasPrefix("https://"), serveURL.utf8.count <= 256 {
        return serveURL
      }
      return VAPIDKeys.defaultContact
    }
    let lower = text.lowercased()
    guard lower.hasPrefix("mailto:") || lower.hasPrefix("https://"), text.utf8.count <= 256,
      !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F || $0 == "\"" })
    else { return nil }
    return text
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard url.host.isEmpty, url.segments.isEmpty else {
      return [.error("a webpush URL names no host: it is 'webpush://' (or '\(example)')")]
    }
    if Self.ttl(url) == nil {
      return [
        .error(
          "webpush ttl '\(url.value("ttl") ?? "")' is not a time of at most 28d (1d, 12h, 3600)",
          at: "ttl=")
      ]
    }
    if let urgency = url.value("urgency"), !Self.urgencies.contains(urgency) {
      return [
        .error(
          "webpush urgency '\(urgency)' is not one of very-low, low, normal, high", at: "urgency=")
      ]
    }
    if Self.contact(url) == nil {
      return [
        .error(
          "webpush contact '\(url.value("contact") ?? "")' is not a mailto: or https: address",
          at: "contact=")
      ]
    }
    return []
  }

  package let examples: [ChannelExample] = [
    .valid("webpush://", redacted: "webpush://"),
    .valid(
      "webpush://?ttl=12h&urgency=high&contact=mailto:me@example.com",
      redacted: "webpush://?ttl=12h&urgency=high&contact=mailto:me@example.com"),
    .invalid("webpush://push.example.com/x", message: "a webpush URL names no host"),
    .invalid("webpush://?urgency=now", message: "webpush urgency 'now'"),
    .invalid("webpush://?ttl=60d", message: "webpush ttl '60d'"),
    .invalid("webpush://?contact=me@example.com", message: "webpush contact"),
  ]

  package func sample(secret: String, host: String) -> String? { nil }
}

extension WebPushKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    WebPushChannel(channel, context: context)
  }
}

/// Web Push (`webpush://`): each message goes to every subscription the store keeps, one
/// `POST` to its endpoint through the fetcher, its body the payload (``PushPayload``)
/// encrypted to that browser (`Content-Encoding: aes128gcm`), with `TTL`, `Urgency`, `Topic`
/// (one per search) and `Authorization: vapid` signed with the store's key. A message is
/// delivered when one push service took it; 404 and 410 (the browser unsubscribed) forget
/// that subscription; a 429 is waited out when its `Retry-After` fits the channel's wait;
/// anything else is noted on the subscription and, when no service took the message,
/// reported as the other channels' refusals are.
struct WebPushChannel: DeliveryChannel {
  let channel: Channel
  let ttl: Int
  let urgency: String
  let contact: String
  let store: (any PushSubscriptionStore)?
  let actions: ActionLinks?
  let poster: Poster
  let maxRetryWait: Double

  var name: String { channel.name }

  init(_ channel: Channel, context: ChannelContext) {
    self.channel = channel
    let url = ChannelURL.parse(channel.url)
    ttl = url.flatMap(WebPushKind.ttl) ?? 86_400
    urgency =
      url?.value("urgency").flatMap { WebPushKind.urgencies.contains($0) ? $0 : nil }
      ?? "normal"
    contact =
      url.flatMap { WebPushKind.contact($0, serveURL: context.actions?.base) }
      ?? VAPIDKeys.defaultContact
    store = context.pushStore
    actions = ActionButtons.links(for: channel, context: context)
    poster = Poster(fetcher: context.fetcher, channel: channel)
    maxRetryWait = context.maxRetryWait
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    guard let store else {
      throw DeliveryError(
        "channel '\(name)': webpush sends to the devices kept in the store, which this command "
          + "does not open")
    }
    let keys: VAPIDKeys
    do {
      keys = try VAPIDKeys(
        privateKey: try store.vapidPrivateKey(making: { try P256.privateKey() }, at: Date()))
    } catch {
      throw DeliveryError("channel '\(name)': no VAPID key: \(error)")
    }
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let subscriptions = try store.pushSubscriptions()
      guard !subscriptions.isEmpty else {
        throw DeliveryError(
          "channel '\(name)': no device has subscribed (the page's 'Notify this device')")
      }
      let payload = PushPayload(
        message, listings: listings, search: search.name, links: actions,
        unviewed: (try? store.unviewedCount()) ?? 0, now: Date())
      guard let json = payload.json() else {
        throw DeliveryError(
          "channel '\(name)': the message does not fit in a push message", onlyThisMessage: true)
      }
      var accepted = 0
      var refusal: DeliveryError?
      for subscription in subscriptions {
        do {
          if try await send(json, to: subscription, keys: keys, topic: payload.tag, store: store) {
            accepted += 1
          }
        } catch let error as DeliveryError {
          refusal = refusal ?? error
        }
      }
      guard accepted > 0 else {
        throw refusal
          ?? DeliveryError("channel '\(name)': every subscribed device has unsubscribed")
      }
    }
  }

  /// Sends one message to one subscription: true when its push service took it, false when
  /// the subscription is gone (and is forgotten); a refusal is noted and thrown.
  private func send(
    _ json: [UInt8], to subscription: PushSubscription, keys: VAPIDKeys, topic: String,
    store: any PushSubscriptionStore
  ) async throws -> Bool {
    let service = VAPIDKeys.origin(of: subscription.endpoint) ?? "?"
    let body: [UInt8]
    let authorization: String
    do {
      body = try PushEncryption.encrypt(
        json, p256dh: subscription.p256dh, auth: subscription.auth)
      authorization = try keys.authorization(
        endpoint: subscription.endpoint, contact: contact, now: Date())
    } catch {
      try store.notePushDelivery(endpoint: subscription.endpoint, failure: "\(error)", at: Date())
      throw DeliveryError("channel '\(name)': a subscription at \(service): \(error)")
    }
    let headers = [
      "Content-Type": "application/octet-stream", "Content-Encoding": "aes128gcm",
      "TTL": String(ttl), "Urgency": urgency, "Topic": topic, "Authorization": authorization,
    ]
    let response = try await poster.exchange(
      subscription.endpoint, body: body, headers: headers, key: "", maxWait: maxRetryWait
    ) { response in
      RetryAfter(response.headers["retry-after"], date: response.headers["date"], now: Date())
        .seconds
    }
    switch response.status {
    case 200..<300:
      try store.notePushDelivery(endpoint: subscription.endpoint, failure: nil, at: Date())
      return true
    case 404, 410:
      try store.removePushSubscription(endpoint: subscription.endpoint)
      return false
    default:
      let refused = poster.refusal(response)
      try store.notePushDelivery(
        endpoint: subscription.endpoint, failure: refused.message, at: Date())
      throw DeliveryError(
        "\(refused.message) from the push service at \(service)", status: response.status)
    }
  }
}
