import Foundation
import Testing

@testable import ActionKeys
@testable import ClarissaCore

/// SHA-256 and HMAC-SHA256 against their standards' test vectors (FIPS 180-4's examples,
/// RFC 4231) and against `openssl`, then the action tokens made with them: forged, changed,
/// cut, expired and cross-listing tokens refused.
@Suite struct ActionTokenTests {
  static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
  static func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return result
  }

  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
        + "lmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func sha256MatchesFIPS180Examples(message: String, digest: String) {
    #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
  }

  @Test func sha256OfAMillionAs() {
    let digest = SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
    #expect(Self.hex(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 §4: test cases 1-4, 6 and 7 (5 is a truncated output).
  @Test(arguments: [
    (
      String(repeating: "0b", count: 20), "4869205468657265",
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    (
      String(repeating: "aa", count: 131),
      "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368"
        + "204b6579204669727374",
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    (
      String(repeating: "aa", count: 131),
      "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a"
        + "65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865"
        + "206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062"
        + "792074686520484d414320616c676f726974686d2e",
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ])
  func hmacMatchesRFC4231(key: String, data: String, mac: String) {
    #expect(Self.hex(SHA256.hmac(key: Self.bytes(key), message: Self.bytes(data))) == mac)
  }

  static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/bin/openssl"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @Test(.enabled(if: openssl != nil, "openssl is not installed: compared with RFC 4231 only"))
  func hmacMatchesOpenSSL() throws {
    var generator = SystemRandomNumberGenerator()
    for length in [0, 1, 55, 56, 63, 64, 65, 1000] {
      let key = (0..<16).map { _ in "abcdefghijklmnop".randomElement(using: &generator)! }
      let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: try #require(Self.openssl))
      process.arguments = ["dgst", "-sha256", "-hmac", String(key), "-r"]
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      try process.run()
      input.fileHandleForWriting.write(Data(message))
      try input.fileHandleForWriting.close()
      let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      let theirs = said.split(separator: " ").first.map(String.init) ?? said
      #expect(theirs == Self.hex(SHA256.hmac(key: Array(String(key).utf8), message: message)))
    }
  }

  // MARK: - Tokens

  static let key = ActionKey(bytes: Array(0..<32))
  static let now = Date(timeIntervalSince1970: 1_790_000_000)

  static func token(
    _ action: ListingAction = .star, site: String = "craigslist", id: String = "7912345678",
    key: ActionKey = key, lifetime: Double = 7 * 86_400
  ) throws -> String {
    try #require(
      ActionToken(action: action, site: site, id: id, expires: now.addingTimeInterval(lifetime))
        .signed(with: key))
  }

  @Test func aTokenVerifiesToWhatItWasMadeFor() throws {
    for action in ListingAction.allCases {
      let text = try Self.token(action)
      let token = try ActionToken.verify(text, key: Self.key, now: Self.now).get()
      #expect(token.action == action && token.site == "craigslist" && token.id == "7912345678")
      #expect(token.expires == Self.now.addingTimeInterval(7 * 86_400))
      #expect(text.utf8.allSatisfy { $0 < 0x80 && !"+/=%".utf8.contains($0) }, "URL-safe")
      #expect(text.utf8.count <= 64, "fits Telegram's callback_data: \(text.utf8.count)")
    }
  }

  @Test func anotherKeysTokenIsForged() throws {
    let other = ActionKey(bytes: [UInt8](repeating: 7, count: 32))
    #expect(
      ActionToken.verify(try Self.token(key: other), key: Self.key, now: Self.now)
        == .failure(.forged))
  }

  @Test func everyChangedByteIsRefused() throws {
    let bytes = try #require(Base64URL.decode(try Self.token()))
    for index in bytes.indices {
      var changed = bytes
      changed[index] ^= 0x01
      let result = ActionToken.verify(Base64URL.encode(changed), key: Self.key, now: Self.now)
      #expect(result == .failure(.forged), "byte \(index)")
    }
  }

  @Test func aMACMovedToAnotherListingIsRefused() throws {
    let mine = try #require(Base64URL.decode(try Self.token(id: "7912345678")))
    let theirs = try #require(Base64URL.decode(try Self.token(id: "7900000001")))
    let spliced = Array(theirs.dropLast(12)) + mine.suffix(12)
    #expect(
      ActionToken.verify(Base64URL.encode(spliced), key: Self.key, now: Self.now)
        == .failure(.forged))
    let otherAction = try #require(Base64URL.decode(try Self.token(.hide)))
    #expect(
      ActionToken.verify(
        Base64URL.encode(Array(otherAction.dropLast(12)) + mine.suffix(12)), key: Self.key,
        now: Self.now) == .failure(.forged))
  }

  @Test(arguments: [
    "", "a", "not a token!", "AAAA", "%41", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  ])
  func garbageIsMalformed(text: String) {
    #expect(ActionToken.verify(text, key: Self.key, now: Self.now) == .failure(.malformed))
  }

  @Test func aCutTokenIsRefused() throws {
    let text = try Self.token()
    for length in [4, 8, 20, text.count - 4] {
      let result = ActionToken.verify(String(text.prefix(length)), key: Self.key, now: Self.now)
      #expect(result != .success(try ActionToken.verify(text, key: Self.key, now: Self.now).get()))
      if case .success = result { Issue.record("a cut token of \(length) was accepted") }
    }
  }

  @Test func anExpiredTokenIsRefusedWithItsExpiry() throws {
    let text = try Self.token(lifetime: 60)
    #expect((try? ActionToken.verify(text, key: Self.key, now: Self.now).get()) != nil)
    #expect(
      ActionToken.verify(text, key: Self.key, now: Self.now.addingTimeInterval(60))
        == .failure(.expired(Self.now.addingTimeInterval(60))))
  }

  @Test func aKeyTooLongForATokenMakesNone() {
    let token = ActionToken(
      action: .star, site: "feed", id: String(repeating: "x", count: 500), expires: Self.now)
    #expect(token.signed(with: Self.key) == nil)
  }

  // MARK: - The key file

  @Test func theKeyFileIsMadeOwnerOnlyOnceAndReadAfter() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("action-key-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent(ActionKey.fileName).path
    #expect(try ActionKey.read(path) == nil)
    let made = try ActionKey.loadOrCreate(at: path)
    #expect(made.bytes.count == 32)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try ActionKey.loadOrCreate(at: path) == made)
    #expect(try ActionKey.read(path) == made)
    try Data("not hex\n".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: ActionKey.Problem.self) { try ActionKey.loadOrCreate(at: path) }
  }
}
