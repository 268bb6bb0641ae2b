internal import ClarissaCore
internal import ClarissaEngine
internal import Foundation
internal import ListingStore
internal import Synchronization

/// The store as a `webpush://` channel sees it (issue 45), opened on the first message it
/// sends, on a connection of its own (as `serve`'s): a run that sends nothing by Web Push
/// opens nothing more.
final class LazyPushStore: PushSubscriptionStore {
  private let statePath: String
  private let sharing: StoreSharing
  private let opened = Mutex<(any PushSubscriptionStore)?>(nil)

  init(statePath: String, sharing: StoreSharing) {
    self.statePath = statePath
    self.sharing = sharing
  }

  /// The store, opened once.
  private func store() throws -> any PushSubscriptionStore {
    try opened.withLock { kept in
      if let kept { return kept }
      guard
        let store = try ServedSetup.openStore(statePath, sharing: sharing)
          as? any PushSubscriptionStore
      else { throw StoreProblem("the store keeps no Web Push subscriptions") }
      kept = store
      return store
    }
  }

  func pushSubscriptions() throws -> [PushSubscription] { try store().pushSubscriptions() }

  func addPushSubscription(_ subscription: PushSubscription, at now: Date) throws -> Bool {
    try store().addPushSubscription(subscription, at: now)
  }

  func removePushSubscription(endpoint: String) throws -> Bool {
    try store().removePushSubscription(endpoint: endpoint)
  }

  func notePushDelivery(endpoint: String, failure: String?, at now: Date) throws {
    try store().notePushDelivery(endpoint: endpoint, failure: failure, at: now)
  }

  func vapidPrivateKey(making make: () throws -> [UInt8], at now: Date) throws -> [UInt8] {
    try store().vapidPrivateKey(making: make, at: now)
  }

  func unviewedCount() throws -> Int { try store().unviewedCount() }
}

extension SourceOptions {
  /// The store for `webpush://` channels, when the config has one.
  func pushStore(_ configuration: Config) throws -> (any PushSubscriptionStore)? {
    guard configuration.channels.values.contains(where: { $0.kind.rawValue == "webpush" })
    else { return nil }
    return LazyPushStore(statePath: statePath(configuration), sharing: try sharing(configuration))
  }
}
