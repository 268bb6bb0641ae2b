internal import ClarissaCore
internal import Foundation
internal import WebPush
internal import WebServer

/// The page's Web Push API (issue 45), behind the same guards as every other request (the
/// Host, the token, and for POST and DELETE the form's CSRF token, `Sec-Fetch-Site` and
/// `Origin`): `GET /api/push/key` gives the VAPID public key a browser subscribes with (made
/// and kept by the store on first need), `POST /api/push/subscriptions` keeps the browser's
/// `PushSubscription` JSON (201), `DELETE /api/push/subscriptions` with `{"endpoint": ...}`
/// forgets one.
extension WebApp {
  func pushAPI(_ request: WebRequest, _ path: [String]) throws -> WebResponse {
    guard let pushes = store as? any PushSubscriptionStore else {
      throw RequestProblem(404, "this store keeps no Web Push subscriptions")
    }
    switch (request.method, path) {
    case ("GET", ["key"]):
      return Self.json(["publicKey": try vapidKeys(pushes).applicationServerKey])
    case ("POST", ["subscriptions"]):
      let subscription = try Self.subscription(request.body)
      // The key exists before a browser is told of a subscription it signs for.
      _ = try vapidKeys(pushes)
      let added: Bool
      do {
        added = try pushes.addPushSubscription(subscription, at: clock())
      } catch let problem as PushSubscriptionProblem {
        throw RequestProblem(409, problem.message)
      }
      return Self.json(["subscribed": true, "new": added], status: 201)
    case ("DELETE", ["subscriptions"]):
      let endpoint = try Self.endpoint(request.body)
      return Self.json(["removed": try pushes.removePushSubscription(endpoint: endpoint)])
    case (let method, let path) where path == ["key"] || path == ["subscriptions"]:
      throw RequestProblem(405, "\(method) is not allowed on /api/push/\(path[0])")
    default:
      throw RequestProblem(404, "no API at \(request.path); see docs/serve.md")
    }
  }

  /// The store's VAPID key pair, made (and kept) on first need.
  private func vapidKeys(_ pushes: any PushSubscriptionStore) throws -> VAPIDKeys {
    do {
      return try VAPIDKeys(
        privateKey: try pushes.vapidPrivateKey(making: { try P256.privateKey() }, at: clock()))
    } catch let error as WebPushError {
      throw RequestProblem(500, "the store's VAPID key is not usable: \(error)")
    }
  }

  /// The browser's subscription, checked (``PushSubscription/checked(json:)``); 400 or 413
  /// saying what is wrong.
  private static func subscription(_ body: [UInt8]) throws -> PushSubscription {
    guard body.count <= PushSubscription.maxBody else {
      throw RequestProblem(413, "a subscription is at most \(PushSubscription.maxBody) bytes")
    }
    do {
      return try PushSubscription.checked(json: body)
    } catch {
      throw RequestProblem(400, "refused: \(SafeText.line(error.message))")
    }
  }

  /// `{"endpoint": ...}`'s endpoint; 400 when it is not there or could not be a subscription's.
  private static func endpoint(_ body: [UInt8]) throws -> String {
    guard body.count <= PushSubscription.maxBody,
      let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let endpoint = object["endpoint"] as? String,
      PushSubscription.endpointProblem(endpoint) == nil
    else { throw RequestProblem(400, "send {\"endpoint\": \"https://...\"} as JSON") }
    return endpoint
  }
}
