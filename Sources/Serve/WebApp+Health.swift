internal import ClarissaCore
internal import Foundation
internal import ListingStore
internal import WebServer

/// What a monitor asks: `/healthz` and `/metrics`.
extension WebApp {
  /// `/healthz`: the store's schema and the last attempt and round, or 503 when it cannot be
  /// read.
  func health() throws -> WebResponse {
    do {
      let health = try store.health()
      var body: [String: Any] = [
        "status": "ok", "store": ["schemaVersion": health.schemaVersion],
      ]
      if let attempt = health.lastAttempt {
        body["lastAttempt"] = DateFormat.internet.string(from: attempt)
      }
      if let round = metrics.lastRoundFinished {
        body["lastRound"] = DateFormat.internet.string(from: round)
      }
      return Self.json(body)
    } catch {
      var response = Self.json(["status": "failing", "error": "the store cannot be read: \(error)"])
      response.status = 503
      return response
    }
  }

  /// `/metrics` in Prometheus's text format.
  func metricsText() throws -> WebResponse {
    let standings = try store.standings()
    let text = metrics.text(
      cooldowns: try store.cooldowns(),
      unviewed: standings.mapValues(\.unviewed), now: clock())
    return WebResponse(
      headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
      body: Array(text.utf8))
  }
}
