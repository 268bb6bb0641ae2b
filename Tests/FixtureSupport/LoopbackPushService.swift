import Foundation

/// A loopback Web Push service (`Fixtures/webpush/push_service.py`, Python with `http_ece`
/// and `cryptography`) for the `webpush://` channel's tests: it makes its own subscriptions
/// (`ok-1`, `ok-2`, `gone` answering 410, `busy` answering 429 once, `fail` answering 500),
/// decrypts each message it gets with that subscription's private key and checks its VAPID
/// JWT, and writes what it found, one JSON file per request.
public final class LoopbackPushService: Sendable {
  /// The Python with http_ece and cryptography (`.build/venv`, or one on PATH).
  public static var python: String? {
    guard let python = TestTools.python(importing: "http_ece") else { return nil }
    return TestTools.python(importing: "cryptography") == nil ? nil : python
  }

  /// True when the tests can run (or must, under CI, where missing packages fail them).
  public static var available: Bool { python != nil || TestTools.underCI }

  /// The port on 127.0.0.1.
  public let port: Int
  /// Each subscription's JSON as a browser gives it, by name.
  public let subscriptions: [String: [UInt8]]
  /// Where each request's record lands.
  public var spool: URL { script.spool }
  private let script: LoopbackScript

  /// Starts the service and waits for its port and subscriptions.
  public init() throws {
    guard let python = Self.python else {
      throw LoopbackSMTP.Failure("no python3 with http_ece and cryptography")
    }
    script = try LoopbackScript(
      python: python, script: "webpush/push_service.py", prefix: "push", name: "the service"
    ) { [$0.path] }
    guard let object = try JSONSerialization.jsonObject(with: Data(script.ready)) as? [String: Any],
      let port = object["port"] as? Int,
      let subscriptions = object["subscriptions"] as? [String: Any]
    else { throw LoopbackSMTP.Failure("the service printed no port") }
    self.port = port
    self.subscriptions = try subscriptions.mapValues {
      Array(try JSONSerialization.data(withJSONObject: $0))
    }
  }

  /// Ends the service (closing its stdin ends it; it is the test's own process).
  public func stop() { script.stop() }

  /// Every request received, in arrival order: `device`, `status`, `ttl`, `urgency`,
  /// `topic`, `encoding`, `payload` (decrypted) or `decrypt_error`, `vapid` (`signature`,
  /// `claims`, `k`, `problems`), `at`.
  public func requests() throws -> [[String: Any]] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []
    return try names.filter { $0.hasSuffix(".json") }.sorted {
      Int($0.dropLast(5)) ?? 0 < Int($1.dropLast(5)) ?? 0
    }.map {
      let data = try Data(contentsOf: spool.appendingPathComponent($0))
      return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
  }
}
