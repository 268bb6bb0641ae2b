import ClarissaCore
import FixtureSupport
import Foundation
import Synchronization
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// `tgram://` against a loopback Bot API server (`?api=`): the exact calls of the Bot API
/// (`POST /bot<token>/sendMessage` and `sendPhoto`, JSON bodies), Telegram's limits, its
/// `429 retry_after`, and receipts.
@Suite(.serialized) struct TelegramChannelTests {
  static let token = "123456:ABC-def_9"
  static let ok = #"{"ok":true,"result":{"message_id":1}}"#

  static func channel(_ server: LoopbackServer, _ rest: String = "/987654", body: String? = nil)
    -> Channel
  {
    let url = "tgram://\(token)\(rest)\(rest.contains("?") ? "&" : "?")api=\(server.base)"
    return Channel(name: "tg", kind: .telegram, url: url, bodyTemplate: body)
  }

  static func sender(_ channel: Channel, maxRetryWait: Double = 60) -> any DeliveryChannel {
    ChannelFactory.sender(
      for: channel, fetcher: ChannelTests.fetcher(), environment: [:], baseDirectory: "/",
      maxRetryWait: maxRetryWait)
  }

  static func object(_ request: LoopbackServer.Request) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
  }

  static let plain = ChannelTests.listings[0]
  static var withPhoto: Listing {
    var listing = ChannelTests.listings[1]
    listing.imageURLs = ["https://images.example.com/embody.jpg"]
    return listing
  }

  @Test func aListingIsSentAsHTMLWithAnOpenButtonToEveryChat() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.ok) }
    try await Self.sender(Self.channel(server, "/987654/-1001234")).deliver(
      [Self.plain], search: ChannelTests.search)
    let requests = server.requests
    #expect(requests.count == 2, "one call per chat")
    for (request, chat) in zip(requests, ["987654", "-1001234"]) {
      #expect(request.method == "POST")
      #expect(request.path == "/bot\(Self.token)/sendMessage")
      #expect(request.headers["content-type"] == "application/json")
      let object = try Self.object(request)
      #expect(object["chat_id"] as? String == chat)
      #expect(object["parse_mode"] as? String == "HTML")
      let text = try #require(object["text"] as? String)
      #expect(text.hasPrefix("<b>$450 · Aeron chair &lt;size B&gt; &amp; more</b>\n"))
      #expect(text.contains(Self.plain.url))
      let markup = try #require(object["reply_markup"] as? [String: Any])
      let rows = try #require(markup["inline_keyboard"] as? [[[String: String]]])
      #expect(rows == [[["text": "Open", "url": Self.plain.url]]])
      let preview = try #require(object["link_preview_options"] as? [String: Bool])
      #expect(preview == ["is_disabled": true])
      #expect(object["disable_notification"] == nil)
      #expect(object["photo"] == nil)
    }
  }

  @Test func aListingWithAPhotoIsAPhotoWithItsTextAsCaption() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.ok) }
    let channel = Self.channel(server, "/@flats?silent=yes&topic=42", body: "{description}")
    try await Self.sender(channel).deliver([Self.withPhoto], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    #expect(server.requests.count == 1)
    #expect(request.path == "/bot\(Self.token)/sendPhoto")
    let object = try Self.object(request)
    #expect(object["chat_id"] as? String == "@flats")
    #expect(object["photo"] as? String == "https://images.example.com/embody.jpg")
    #expect(object["disable_notification"] as? Bool == true)
    #expect(object["message_thread_id"] as? Int == 42)
    let caption = try #require(object["caption"] as? String)
    #expect(Self.visible(caption).utf16.count <= 1024)
    #expect(caption.hasSuffix("…"))
    #expect(object["text"] == nil)
  }

  @Test func aPhotoTelegramCannotFetchFallsBackToText() async throws {
    let server = try LoopbackServer { request, _ in
      request.path.hasSuffix("/sendPhoto")
        ? .text(
          #"{"ok":false,"error_code":400,"description":"Bad Request: wrong file identifier/HTTP URL specified"}"#,
          status: 400)
        : .text(Self.ok)
    }
    let received = Received()
    try await Self.sender(Self.channel(server)).deliver(
      [Self.withPhoto], search: ChannelTests.search
    ) {
      received.add($0)
    }
    #expect(
      server.requests.map { $0.path.split(separator: "/").last } == ["sendPhoto", "sendMessage"])
    #expect(received.ids == [["2"]], "one receipt, after the text was accepted")
  }

  @Test func textIsCutToTelegramsLimitBeforeEscaping() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.ok) }
    var listing = Self.plain
    listing.description = String(repeating: "<&> ", count: 3000) + "\u{1B}[2J\u{7}"
    listing.title = "Chair\u{1B}]8;;https://evil.example\u{7}click\u{1B}]8;;\u{7}"
    try await Self.sender(Self.channel(server, body: "{description}")).deliver(
      [listing], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    let text = try #require(try Self.object(request)["text"] as? String)
    #expect(Self.visible(text).utf16.count <= 4096)
    #expect(text.hasSuffix("…"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character")
    // Every `&` begins one of the three entities: no cut left half of one.
    let entities = text.components(separatedBy: "&").dropFirst()
    #expect(
      entities.allSatisfy { $0.hasPrefix("amp;") || $0.hasPrefix("lt;") || $0.hasPrefix("gt;") })
  }

  @Test func aTooManyRequestsAnswerIsWaitedOut() async throws {
    let server = try LoopbackServer { _, count in
      count == 0
        ? .text(
          #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 1","parameters":{"retry_after":1}}"#,
          status: 429)
        : .text(Self.ok)
    }
    let start = Date()
    let receipts = Received()
    try await Self.sender(Self.channel(server)).deliver([Self.plain], search: ChannelTests.search) {
      receipts.add($0)
    }
    #expect(Date().timeIntervalSince(start) >= 1)
    #expect(server.requests.count == 2)
    #expect(receipts.ids == [["1"]])
  }

  @Test func aWaitLongerThanTheRunAllowsIsARefusal() async throws {
    let server = try LoopbackServer { _, _ in
      .text(
        #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 300","parameters":{"retry_after":300}}"#,
        status: 429)
    }
    let received = Received()
    do {
      try await Self.sender(Self.channel(server), maxRetryWait: 30).deliver(
        ChannelTests.listings, search: ChannelTests.search
      ) { received.add($0) }
      Issue.record("a 429 beyond the run's wait must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("Telegram refused sendMessage: HTTP 429"))
      #expect(error.message.contains("asked to wait 300 s"))
      #expect(received.ids.isEmpty)
    }
    #expect(server.requests.count == 1, "no retry")
  }

  @Test func aRefusalEchoingTheTokenDoesNotRepeatIt() async throws {
    let server = try LoopbackServer { request, count in
      count == 0
        ? .text(Self.ok)
        : .text(
          #"{"ok":false,"error_code":401,"description":"Unauthorized: \#(request.path)"}"#,
          status: 401)
    }
    let received = Received()
    do {
      try await Self.sender(Self.channel(server)).deliver(
        ChannelTests.listings, search: ChannelTests.search
      ) { received.add($0) }
      Issue.record("a 401 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("HTTP 401 (Unauthorized: /bot***/sendMessage)"), "\(error)")
      #expect(!error.message.contains("ABC-def_9"))
      #expect(received.ids == [["1"]], "the first message went through before the refusal")
    }
  }

  @Test func anAnswerThatIsNotTheBotAPIsIsARefusal() async throws {
    let server = try LoopbackServer { _, _ in .text("<html>proxy says hi</html>") }
    await #expect(throws: DeliveryError.self) {
      try await Self.sender(Self.channel(server)).deliver([Self.plain], search: ChannelTests.search)
    }
  }

  @Test func aDigestIsOneMessagePerChatWithoutButton() async throws {
    let server = try LoopbackServer { _, _ in .text(Self.ok) }
    var channel = Self.channel(server)
    channel.grouping = .digest
    try await Self.sender(channel).deliver(ChannelTests.listings, search: ChannelTests.search)
    let request = try #require(server.requests.first)
    let object = try Self.object(request)
    #expect(server.requests.count == 1)
    #expect((object["text"] as? String)?.hasPrefix("<b>2 new for chairs</b>\n") == true)
    #expect(object["reply_markup"] == nil)
  }

  /// The text Telegram shows for `html`: the tags dropped, the entities read.
  static func visible(_ html: String) -> String {
    html.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// The receipts a channel gave, in order.
final class Received: Sendable {
  private let all = Mutex<[[String]]>([])
  func add(_ listings: [Listing]) { all.withLock { $0.append(listings.map(\.id)) } }
  var ids: [[String]] { all.withLock { $0 } }
}

extension TelegramChannelTests {
  /// A `400` for one message (Telegram read it and would not take it) refuses that message
  /// alone: the next one is still sent and received; a `401` stops the batch.
  @Test(arguments: [(400, true), (401, false)])
  func aMessageTelegramRefusesIsRefusedAlone(status: Int, alone: Bool) async throws {
    let server = try LoopbackServer { request, _ in
      request.text.contains("Aeron")
        ? .text(#"{"ok":false,"error_code":\#(status),"description":"no"}"#, status: status)
        : .text(Self.ok)
    }
    let received = Received()
    do {
      try await Self.sender(Self.channel(server, "/987654?image=no")).deliver(
        ChannelTests.listings, search: ChannelTests.search
      ) { received.add($0) }
      Issue.record("a refusal must be said")
    } catch let error as DeliveryError {
      #expect(error.message.contains("HTTP \(status)"))
      #expect(received.ids == (alone ? [["2"]] : []))
      #expect(error.refusedMessages.map { $0.listings.map(\.id) } == (alone ? [["1"]] : []))
      #expect(server.requests.count == (alone ? 2 : 1))
    }
  }
}
