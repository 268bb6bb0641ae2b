import Channels
import ClarissaConfig
import ClarissaCore
import ClarissaEngine
import Curl
import FixtureSupport
import Foundation
import ListingStore
import Sites
import Testing

/// `smtp://` and `smtps://` against a real SMTP server on loopback (aiosmtpd), each mail parsed
/// back with Python's `email` package.
@Suite(.serialized, .enabled(if: LoopbackSMTP.available, "no python3 with aiosmtpd"))
struct MailTests {
  static let search = Search(name: "chairs", site: "craigslist")
  static let listing = Listing(
    id: "1", site: "craigslist", url: "https://sfbay.craigslist.org/sfc/fuo/d/aeron/1.html",
    title: "Chaise Eames édition <size B> & more — très bon état, livraison possible à Oakland",
    price: 450, currency: "USD", location: "SOMA",
    imageURLs: ["https://images.craigslist.org/00a0a_aeron_600x450.jpg"])
  static let second = Listing(
    id: "2", site: "craigslist", url: "https://sfbay.craigslist.org/eby/fuo/d/embody/2.html",
    title: "Embody chair", price: 900, currency: "USD", location: "Oakland")

  /// The channel as the config reads it, `${ENV}` expanded.
  static func channel(_ url: String, digest: Bool = false, environment: [String: String] = [:])
    throws -> Channel
  {
    let yaml = """
      version: 1
      notify:
        mail: {url: '\(url)', digest: \(digest)}
      searches:
        - name: s
          cities: [sfbay]
          notify: [mail]
      """
    let result = ConfigLoader.load(
      bytes: Array(yaml.utf8), name: "m.yaml", environment: environment, sites: Registry.sites,
      channels: ChannelRegistry.all)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
    return try #require(result.config?.channels["mail"])
  }

  static func sender(_ channel: Channel, timeout: Double = 10) -> any DeliveryChannel {
    ChannelFactory.sender(
      for: channel, fetcher: CurlFetcher(limits: FetchLimits(timeout: timeout, maxBytes: 1 << 20)),
      environment: [:], baseDirectory: "/", timeout: timeout)
  }

  @Test func aMailArrivesOnceAsMultipartAlternativeWithAnEncodedSubject() async throws {
    let server = try LoopbackSMTP(.plain)
    let channel = try Self.channel(
      "smtp://bot:${SMTP_PASSWORD}@127.0.0.1:\(server.port)?tls=none&from=clarissa@example.com&to=me@example.com,you@example.org",
      environment: ["SMTP_PASSWORD": "s3cret pass"])
    #expect(channel.kind == .smtp)
    #expect(!channel.redactedURL.contains("s3cret"))
    try await Self.sender(channel).deliver([Self.listing], search: Self.search)
    #expect(server.mails.count == 1)
    let mail = try server.parsed(0)
    #expect(mail["subject"] as? String == "$450 · \(Self.listing.title)", "RFC 2047 decoded")
    #expect(mail["from"] as? String == "clarissa@example.com")
    #expect(mail["to"] as? String == "me@example.com, you@example.org")
    #expect((mail["date"] as? String)?.hasSuffix("+0000") == true)
    #expect((mail["message_id"] as? String)?.hasSuffix("@example.com>") == true)
    #expect(mail["type"] as? String == "multipart/alternative")
    #expect(mail["parts"] as? [String] == ["text/plain", "text/html"])
    #expect(mail["defects"] as? Int == 0)
    let texts = try #require(mail["texts"] as? [String])
    #expect(texts[0].contains(Self.listing.url))
    #expect(texts[0].contains("Photo: \(Self.listing.imageURLs[0])"))
    #expect(texts[1].contains("&lt;size B&gt; &amp; more"), "the title is escaped in HTML")
    #expect(!texts[1].contains("<size B>"))
    #expect(texts[1].contains("<img src=\"\(Self.listing.imageURLs[0])\""))
    #expect(texts[1].contains("<a href=\"\(Self.listing.url)\">"))
    let envelope = try server.envelope(0)
    #expect(envelope["from"] as? String == "clarissa@example.com")
    #expect(envelope["to"] as? [String] == ["me@example.com", "you@example.org"])
    let login = try String(
      contentsOf: server.spool.appendingPathComponent("auth.txt"), encoding: .utf8)
    #expect(login == "bot:s3cret pass", "the password came from ${SMTP_PASSWORD}")
  }

  @Test func aDigestIsOneMailForEveryListing() async throws {
    let server = try LoopbackSMTP(.plain)
    let channel = try Self.channel(
      "smtp://127.0.0.1:\(server.port)?tls=none&to=me@example.com", digest: true)
    try await Self.sender(channel).deliver([Self.listing, Self.second], search: Self.search)
    #expect(server.mails.count == 1)
    let mail = try server.parsed(0)
    #expect(mail["subject"] as? String == "2 new for chairs")
    #expect(mail["from"] as? String == "clarissa@127.0.0.1", "no from= and no user")
    let texts = try #require(mail["texts"] as? [String])
    #expect(texts[0].contains(Self.listing.url) && texts[0].contains(Self.second.url))
    #expect(texts[1].contains(Self.second.url))
  }

  @Test func smtpRequiresSTARTTLSUnlessToldOtherwise() async throws {
    let server = try LoopbackSMTP(.plain)
    let channel = try Self.channel("smtp://127.0.0.1:\(server.port)?to=me@example.com")
    do {
      try await Self.sender(channel).deliver([Self.listing], search: Self.search)
      Issue.record("a server without STARTTLS must not get the mail in clear")
    } catch let error as DeliveryError {
      #expect(error.message.contains("channel 'mail': the mail server does not offer STARTTLS"))
      #expect(error.message.contains("'?tls=none'"))
    }
    #expect(server.mails.isEmpty)
  }

  /// libcurl has no CA option here (clarissa trusts the system's authorities only), so the
  /// test-only certificate is refused: that refusal shows STARTTLS was negotiated and verified.
  @Test func starttlsIsNegotiatedAndTheCertificateIsVerified() async throws {
    let server = try LoopbackSMTP(.starttls)
    let channel = try Self.channel("smtp://127.0.0.1:\(server.port)?to=me@example.com")
    do {
      try await Self.sender(channel).deliver([Self.listing], search: Self.search)
      Issue.record("a self-signed certificate must be refused")
    } catch let error as DeliveryError {
      #expect(error.message.contains("TLS failed"), "\(error.message)")
      #expect(error.message.contains("certificate"), "\(error.message)")
    }
    #expect(server.mails.isEmpty)
  }

  /// `smtps://` speaks TLS from the first byte: the same refusal of the test-only certificate,
  /// before any SMTP command.
  @Test func smtpsIsTLSFromTheFirstByte() async throws {
    let server = try LoopbackSMTP(.tls)
    let channel = try Self.channel("smtps://127.0.0.1:\(server.port)?to=me@example.com")
    do {
      try await Self.sender(channel).deliver([Self.listing], search: Self.search)
      Issue.record("a self-signed certificate must be refused")
    } catch let error as DeliveryError {
      #expect(error.message.contains("TLS failed"), "\(error.message)")
      #expect(error.message.contains("certificate"), "\(error.message)")
    }
    #expect(server.mails.isEmpty)
  }

  @Test func aRefusalIsADeliveryErrorWithTheServersWords() async throws {
    let server = try LoopbackSMTP(.plain)
    server.refuse(true)
    let channel = try Self.channel("smtp://127.0.0.1:\(server.port)?tls=none&to=me@example.com")
    let received = Received()
    do {
      try await Self.sender(channel).deliver([Self.listing, Self.second], search: Self.search) {
        received.add($0)
      }
      Issue.record("a 550 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("550"), "\(error.message)")
      #expect(received.ids.isEmpty)
    }
    #expect(server.mails.isEmpty)
  }

  @Test func aServerThatNeverAnswersTimesOut() async throws {
    let server = try LoopbackSMTP(.silent)
    let channel = try Self.channel("smtp://127.0.0.1:\(server.port)?tls=none&to=me@example.com")
    let start = Date()
    do {
      try await Self.sender(channel, timeout: 1).deliver([Self.listing], search: Self.search)
      Issue.record("a silent server must time out")
    } catch let error as DeliveryError {
      #expect(error.message.contains("no complete answer from the mail server within 1 s"))
    }
    #expect(Date().timeIntervalSince(start) < 5)
  }

  @Test func aRefusedListingStaysUndeliveredAndIsMailedOnTheNextRunOnce() async throws {
    let server = try LoopbackSMTP(.plain)
    server.refuse(true)
    let yaml = """
      version: 1
      notify:
        mail: smtp://127.0.0.1:\(server.port)?tls=none&to=me@example.com
      searches:
        - name: ipads
          query: ipad
          category: sss
          cities: [sfbay]
          price: {min: 20, max: 400}
          notify: [mail]
      """
    let config = try RunnerTests.config(yaml)
    let state = RunnerTests.temporaryState()
    func runner(_ replay: String) throws -> Runner {
      let senders = ChannelFactory.senders(
        for: config,
        fetcher: try ReplayFetcher(
          folder: Fixtures.root.appendingPathComponent("replay/default").path), environment: [:],
        baseDirectory: "/")
      return try RunnerTests.runner(config, replay: replay, state: state, channels: senders)
    }
    let noon = ISO8601DateFormatter().date(from: "2026-05-03T19:00:00Z") ?? Date()
    _ = try await runner("default").run(RunOptions(now: noon)).commit()
    let refused = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(3600)))
      .commit()
    #expect(refused.deliveryFailures.first?.contains("550") == true)
    #expect(server.mails.isEmpty)
    server.refuse(false)
    let later = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(7200)))
      .commit()
    #expect(later.deliveryFailures.isEmpty)
    #expect(later.searches.first?.delivered.map(\.id) == ["7931742798"])
    #expect(server.mails.count == 1)
    let texts = try #require(try server.parsed(0)["texts"] as? [String])
    #expect(texts[0].contains("7931742798"))
    _ = try await runner("next").run(RunOptions(now: noon.addingTimeInterval(9000))).commit()
    #expect(server.mails.count == 1, "never again")
  }
}
