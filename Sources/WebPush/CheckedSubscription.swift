package import ClarissaCore

extension PushSubscription {
  /// Reads the browser's JSON (``PushSubscription/init(json:)``) and checks, besides, that
  /// `p256dh` is a point on P-256: what the page's `POST /api/push/subscriptions` keeps.
  package static func checked(json: [UInt8]) throws(PushSubscriptionProblem) -> PushSubscription {
    let subscription = try PushSubscription(json: json)
    guard P256.isValid(publicKey: subscription.p256dh) else {
      throw PushSubscriptionProblem("keys.p256dh is not a point on P-256")
    }
    return subscription
  }
}
