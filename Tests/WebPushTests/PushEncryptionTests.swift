import ClarissaCore
import Foundation
import Testing

@testable import WebPush

/// RFC 8291's own example (section 5, the values of its Appendix A): its fixed keys, salt and
/// auth secret must give the very body printed there, byte for byte.
@Suite struct PushEncryptionTests {
  static let plaintext = "When I grow up, I want to be a watermelon"
  static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
  static let senderPublic =
    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
  static let receiverPublic =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
  static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
  static let auth = "BTBZMqHH6r4Tts7J_aSIgg"
  static let body =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6Tl"
    + "zAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulc"
    + "y4a-fN"

  static func bytes(_ text: String) throws -> [UInt8] { try #require(Base64URL.decode(text)) }

  @Test func rfc8291Example() throws {
    let body = try PushEncryption.encrypt(
      Array(Self.plaintext.utf8), p256dh: Self.bytes(Self.receiverPublic),
      auth: Self.bytes(Self.auth), senderKey: Self.bytes(Self.senderPrivate),
      salt: Self.bytes(Self.salt))
    #expect(Base64URL.encode(body) == Self.body)
    #expect(body.count == 144)
  }

  @Test func senderPublicKey() throws {
    let keys = try VAPIDKeys(privateKey: Self.bytes(Self.senderPrivate))
    #expect(keys.applicationServerKey == Self.senderPublic)
    #expect(keys.publicKey.count == 65 && keys.publicKey.first == 0x04)
    #expect(!"\(keys)".contains(Self.senderPrivate))
  }

  @Test func freshKeysAndSaltEachMessage() throws {
    let message = Array(Self.plaintext.utf8)
    let first = try PushEncryption.encrypt(
      message, p256dh: Self.bytes(Self.receiverPublic), auth: Self.bytes(Self.auth))
    let second = try PushEncryption.encrypt(
      message, p256dh: Self.bytes(Self.receiverPublic), auth: Self.bytes(Self.auth))
    #expect(first.count == 86 + message.count + 1 + 16)
    #expect(first.prefix(16) != second.prefix(16))
    #expect(first[21..<86] != second[21..<86])
    #expect(first[16..<21] == [0, 0, 0x10, 0, 65])
  }

  @Test func payloadLimit() throws {
    let receiver = try Self.bytes(Self.receiverPublic)
    let auth = try Self.bytes(Self.auth)
    let most = [UInt8](repeating: 0x61, count: PushEncryption.maxPayload)
    #expect(try PushEncryption.encrypt(most, p256dh: receiver, auth: auth).count == 4096)
    #expect(throws: WebPushError.self) {
      try PushEncryption.encrypt(most + [0x61], p256dh: receiver, auth: auth)
    }
  }

  @Test func keysOffTheCurveRefused() throws {
    var receiver = try Self.bytes(Self.receiverPublic)
    receiver[40] ^= 1
    #expect(!P256.isValid(publicKey: receiver))
    #expect(throws: WebPushError.self) {
      try PushEncryption.encrypt([1], p256dh: receiver, auth: Self.bytes(Self.auth))
    }
    #expect(throws: WebPushError.self) {
      try VAPIDKeys(privateKey: [UInt8](repeating: 0, count: 32))
    }
    #expect(throws: WebPushError.self) {
      try VAPIDKeys(privateKey: [UInt8](repeating: 0xFF, count: 32))
    }
    #expect(throws: WebPushError.self) { try VAPIDKeys(privateKey: [1, 2, 3]) }
  }

  @Test func base64URL() {
    for count in 0..<40 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
      let text = Base64URL.encode(bytes)
      #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
      #expect(Base64URL.decode(text) == bytes)
      #expect(
        text
          == Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
          .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
    }
    #expect(Base64URL.decode("a") == nil)
    #expect(Base64URL.decode("ab c") == nil)
    #expect(Base64URL.decode("ab+c") == nil)
  }
}
