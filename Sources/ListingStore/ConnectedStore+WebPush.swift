public import ClarissaCore
internal import Foundation

/// Web Push's part of the store (schema step `22-web-push`, issue 45): the browsers that
/// subscribed on the page and the server's VAPID private key. Keys are kept as hex text.
extension ConnectedStore {
  public func pushSubscriptions() throws -> [PushSubscription] {
    try locked { database in
      try database.rows(
        "SELECT endpoint, p256dh, auth FROM push_subscriptions ORDER BY created_at, endpoint"
      ) { row -> PushSubscription? in
        guard let p256dh = Hex.bytes(row.text(PushSubscriptionColumn.p256dh)),
          let auth = Hex.bytes(row.text(PushSubscriptionColumn.auth))
        else { return nil }
        // A row written by this code passes; one that does not is skipped, never sent to.
        return try? PushSubscription(
          endpoint: row.text(PushSubscriptionColumn.endpoint), p256dh: p256dh, auth: auth)
      }.compactMap { $0 }
    }
  }

  @discardableResult
  public func addPushSubscription(_ subscription: PushSubscription, at now: Date) throws -> Bool {
    try locked { database in
      try database.transaction {
        let known = try database.integer(
          "SELECT count(*) FROM push_subscriptions WHERE endpoint = ?",
          [.text(subscription.endpoint)])
        if known == 0,
          try database.integer("SELECT count(*) FROM push_subscriptions")
            >= PushSubscription.limit
        {
          throw PushSubscriptionProblem(
            "\(PushSubscription.limit) devices are subscribed already, the most kept: "
              + "unsubscribe one first")
        }
        try database.run(
          "INSERT INTO push_subscriptions(endpoint, p256dh, auth, created_at) VALUES(?, ?, ?, ?) "
            + "ON CONFLICT(endpoint) DO UPDATE SET p256dh = excluded.p256dh, "
            + "auth = excluded.auth",
          [
            .text(subscription.endpoint), .text(Hex.text(subscription.p256dh)),
            .text(Hex.text(subscription.auth)), .time(now),
          ])
        return known == 0
      }
    }
  }

  @discardableResult
  public func removePushSubscription(endpoint: String) throws -> Bool {
    try locked { database in
      try database.run("DELETE FROM push_subscriptions WHERE endpoint = ?", [.text(endpoint)])
      return database.changes > 0
    }
  }

  public func notePushDelivery(endpoint: String, failure: String?, at now: Date) throws {
    try locked { database in
      if let failure {
        try database.run(
          "UPDATE push_subscriptions SET last_failure = ?, last_error = ? WHERE endpoint = ?",
          [.time(now), .text(String(failure.prefix(500))), .text(endpoint)])
      } else {
        try database.run(
          "UPDATE push_subscriptions SET last_success = ? WHERE endpoint = ?",
          [.time(now), .text(endpoint)])
      }
    }
  }

  public func vapidPrivateKey(making make: () throws -> [UInt8], at now: Date) throws -> [UInt8] {
    if let kept = try keptVAPIDKey() { return kept }
    let made = try make()
    try locked { database in
      // Another process may have made one meanwhile: its key stays, and is read back.
      try database.run(
        "INSERT INTO push_keys(name, private_key, created_at) VALUES('vapid', ?, ?) "
          + "ON CONFLICT(name) DO NOTHING", [.text(Hex.text(made)), .time(now)])
    }
    guard let kept = try keptVAPIDKey() else {
      throw StoreProblem("the store kept no VAPID key")
    }
    return kept
  }

  private func keptVAPIDKey() throws -> [UInt8]? {
    try locked { database in
      try database.rows("SELECT private_key FROM push_keys WHERE name = 'vapid'") {
        $0.text(0)
      }.first.flatMap(Hex.bytes).flatMap { $0.count == 32 ? $0 : nil }
    }
  }

  public func unviewedCount() throws -> Int {
    try unviewedCounts().values.reduce(0, +)
  }
}

extension ListingStore: PushSubscriptionStore {}

#if PostgreSQL
  extension PostgresStore: PushSubscriptionStore {}
#endif
