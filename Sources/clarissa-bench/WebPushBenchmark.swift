internal import Foundation
internal import WebPush

/// One Web Push message's cryptography (issue 45): the body encrypted to a browser (a new
/// P-256 key pair, ECDH, HKDF, AES-128-GCM) and the VAPID JWT signed (ECDSA P-256), both with
/// OpenSSL 3's libcrypto, beside writing the payload's JSON (what every channel does per
/// message).
struct WebPushBenchmark {
  func run() {
    print("webpush: per message, ms (median of 9 runs of 200 messages)")
    guard let keys = try? VAPIDKeys.generate(), let browser = try? VAPIDKeys.generate() else {
      print("  (no key could be made)")
      return
    }
    let auth = (try? P256.random(16)) ?? []
    let object: [String: Any] = [
      "title": "€1,450 · Bright 2-room flat, balcony",
      "body": String(repeating: "Altbau. ", count: 60),
      "url": "https://flats.example.net/listing/kleinanzeigen/3012345678", "unviewed": 12,
    ]
    let payload = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    let count = 200
    let endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    let encrypt = Bench.measure {
      for _ in 0..<count {
        _ = try? PushEncryption.encrypt(payload, p256dh: browser.publicKey, auth: auth)
      }
      return 0
    }
    let sign = Bench.measure {
      for _ in 0..<count {
        _ = try? keys.authorization(endpoint: endpoint, contact: "mailto:a@b.example", now: Date())
      }
      return 0
    }
    let json = Bench.measure {
      for _ in 0..<count { _ = try? JSONSerialization.data(withJSONObject: object) }
      return 0
    }
    let per = { (ms: Double) in Bench.format(ms / Double(count)) }
    print(
      "  encrypt \(per(encrypt)) + sign \(per(sign)) = \(per(encrypt + sign)) ms",
      "(\(payload.count)-byte payload); beside the payload's JSON \(per(json)) ms")
  }
}
