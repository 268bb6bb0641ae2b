package import ActionKeys
package import ClarissaCore
package import Curl
internal import Foundation

/// A channel kind that can send: each kind's file (`Kinds/<Kind>.swift`) extends its
/// declaration with this, beside it, so the registry (``ChannelRegistry/all``) is the one list
/// of kinds.
protocol ChannelDelivering: ChannelKind {
  /// The sender for `channel`, a channel of this kind.
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel
}

/// What a sender may use beyond its channel.
struct ChannelContext: Sendable {
  /// The one door to the network.
  var fetcher: any Fetcher
  /// The environment programs run with.
  var environment: [String: String]
  /// The config's folder, for relative program paths.
  var baseDirectory: String
  /// Where an HTTP channel sends instead of its own service (tests, `notify test`).
  var endpoint: String?
  /// Seconds a mail server gets for a whole mail.
  var timeout: Double
  /// The longest a channel waits when its service asks it to (a 429's `retry_after`).
  var maxRetryWait: Double
  /// The links of the Viewed, Hide and Star buttons (`serve.url` is set); nil: no buttons.
  var actions: ActionLinks? = nil
  /// The devices subscribed to Web Push and the VAPID key (the store); nil: `webpush://`
  /// cannot send.
  var pushStore: (any PushSubscriptionStore)? = nil
}

/// Senders for every channel of a config.
package enum ChannelFactory {
  /// The senders for `config`'s channels (the `stdout` kind is the run's report, not a sender).
  package static func senders(
    for config: Config, fetcher: any Fetcher, environment: [String: String], baseDirectory: String,
    actions: ActionLinks? = nil, pushStore: (any PushSubscriptionStore)? = nil
  ) -> [String: any DeliveryChannel] {
    var senders: [String: any DeliveryChannel] = [:]
    for (name, channel) in config.channels where channel.kind != .stdout {
      senders[name] = sender(
        for: channel, fetcher: fetcher, environment: environment, baseDirectory: baseDirectory,
        timeout: config.http.timeout.timeInterval,
        maxRetryWait: config.http.timeout.timeInterval, actions: actions, pushStore: pushStore)
    }
    return senders
  }

  /// One sender for tests and `notify test`, optionally sending to another endpoint; a mail
  /// server gets `timeout` seconds for a whole mail, and a service that asks for a pause gets
  /// at most `maxRetryWait` seconds of it; `pushStore` holds Web Push's devices and key.
  package static func sender(
    for channel: Channel, fetcher: any Fetcher, environment: [String: String],
    baseDirectory: String, endpoint: String? = nil, timeout: Double = 30,
    maxRetryWait: Double = 60, actions: ActionLinks? = nil,
    pushStore: (any PushSubscriptionStore)? = nil
  ) -> any DeliveryChannel {
    guard let kind = channel.declaration as? any ChannelDelivering else {
      return UnavailableChannel(name: channel.name, kind: channel.kind)
    }
    let context = ChannelContext(
      fetcher: fetcher, environment: environment, baseDirectory: baseDirectory,
      endpoint: endpoint, timeout: timeout, maxRetryWait: maxRetryWait, actions: actions,
      pushStore: pushStore)
    return kind.sender(for: channel, context: context)
  }
}
