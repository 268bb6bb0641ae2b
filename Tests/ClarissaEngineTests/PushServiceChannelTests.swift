import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// Pushover, Gotify and Matrix against loopback servers that check the exact calls of each
/// service's documented API: path, method, headers and fields.
@Suite(.serialized) struct PushServiceChannelTests {
  static let user = "uQiRzpo4DXghDmr9QzzfQu27cmVRsG"
  static let app = "azGDORePK8gMaC0QOYAMyEEuzJnyUi"

  static func sender(_ url: String, kind: Channel.Kind, digest: Bool = false, body: String? = nil)
    -> any DeliveryChannel
  {
    let channel = Channel(
      name: "c", kind: kind, url: url, grouping: digest ? .digest : .each, bodyTemplate: body)
    return ChannelFactory.sender(
      for: channel, fetcher: ChannelTests.fetcher(), environment: [:], baseDirectory: "/")
  }

  static var withPhoto: Listing {
    var listing = ChannelTests.listings[0]
    listing.imageURLs = ["https://images.example.com/aeron.jpg"]
    return listing
  }

  /// A form body's fields, decoded, in order.
  static func form(_ body: [UInt8]) -> [(String, String)] {
    String(decoding: body, as: UTF8.self).split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return (
        String(parts[0]),
        String(parts.count > 1 ? parts[1] : "").removingPercentEncoding ?? ""
      )
    }
  }

  static func object(_ body: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
  }

  // MARK: - Pushover

  @Test func pushoverPostsTheFormItsAPIDocuments() async throws {
    let server = try LoopbackServer { _, _ in .text(#"{"status":1,"request":"647d2300"}"#) }
    let url = "pover://\(Self.user)@\(Self.app)/phone?priority=high&sound=cosmic&api=\(server.base)"
    try await Self.sender(url, kind: .pushover).deliver(
      [Self.withPhoto], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    #expect(request.method == "POST" && request.path == "/1/messages.json")
    #expect(request.headers["content-type"] == "application/x-www-form-urlencoded")
    let fields = Self.form(request.body)
    let listing = Self.withPhoto
    #expect(
      fields.map(\.0) == [
        "token", "user", "device", "priority", "sound", "title", "message", "html", "url",
        "url_title",
      ])
    let values = Dictionary(fields) { first, _ in first }
    #expect(values["token"] == Self.app && values["user"] == Self.user)
    #expect(values["device"] == "phone" && values["priority"] == "1" && values["sound"] == "cosmic")
    #expect(values["title"] == "$450 · Aeron chair <size B> & more")
    #expect(values["html"] == "1")
    #expect(values["url"] == listing.url && values["url_title"] == "Open")
    #expect(values["message"]?.contains(listing.url) == true)
  }

  @Test func pushoverEscapesAndKeepsWithinItsLimits() async throws {
    let server = try LoopbackServer { _, _ in .text(#"{"status":1,"request":"r"}"#) }
    var listing = ChannelTests.listings[1]
    listing.title = String(repeating: "Embody <b>", count: 60)
    listing.description = String(repeating: "<script>&", count: 400)
    try await Self.sender(
      "pover://\(Self.user)@\(Self.app)?api=\(server.base)", kind: .pushover,
      body: "{description}"
    ).deliver([listing], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    let values = Dictionary(Self.form(request.body)) { first, _ in first }
    let message = try #require(values["message"])
    #expect(message.count <= 1024)
    #expect(!message.contains("<script>"))
    #expect(message.hasPrefix("&lt;script&gt;&amp;") && message.hasSuffix("…"))
    #expect((values["title"]?.count ?? 0) <= 250)
  }

  @Test func pushoverRefusalsAreRefusals() async throws {
    let server = try LoopbackServer { _, count in
      count == 0
        ? .text(#"{"status":1,"request":"r"}"#)
        : .text(
          #"{"user":"invalid","errors":["user identifier is not a valid user"],"status":0}"#,
          status: 400)
    }
    let received = Received()
    do {
      try await Self.sender(
        "pover://\(Self.user)@\(Self.app)?api=\(server.base)", kind: .pushover
      ).deliver(ChannelTests.listings, search: ChannelTests.search) { received.add($0) }
      Issue.record("a 400 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("HTTP 400"))
      #expect(received.ids == [["1"]])
    }
    let accepted = try LoopbackServer { _, _ in .text(#"{"status":0}"#) }
    await #expect(throws: DeliveryError.self, "a 200 without status 1 is no acceptance") {
      try await Self.sender(
        "pover://\(Self.user)@\(Self.app)?api=\(accepted.base)", kind: .pushover
      ).deliver([ChannelTests.listings[0]], search: ChannelTests.search)
    }
  }

  // MARK: - Gotify

  @Test func gotifyPostsAMessageWithItsKeyAndExtras() async throws {
    let server = try LoopbackServer { _, _ in .text(#"{"id":25,"appid":5}"#) }
    let url = "gotify://127.0.0.1:\(server.port)/gotify/AbCdEf123?priority=high"
    try await Self.sender(url, kind: .gotify).deliver(
      [Self.withPhoto], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    #expect(request.method == "POST" && request.path == "/gotify/message")
    #expect(request.headers["x-gotify-key"] == "AbCdEf123")
    #expect(request.headers["content-type"] == "application/json")
    let object = try Self.object(request.body)
    #expect(object["title"] as? String == "$450 · Aeron chair <size B> & more")
    #expect((object["message"] as? String)?.contains(Self.withPhoto.url) == true)
    #expect(object["priority"] as? Int == 8)
    let extras = try #require(object["extras"] as? [String: Any])
    #expect((extras["client::display"] as? [String: String]) == ["contentType": "text/plain"])
    let notification = try #require(extras["client::notification"] as? [String: Any])
    #expect((notification["click"] as? [String: String]) == ["url": Self.withPhoto.url])
    #expect(notification["bigImageUrl"] as? String == "https://images.example.com/aeron.jpg")
  }

  @Test func gotifyRefusalNamesTheStatus() async throws {
    let server = try LoopbackServer { _, _ in
      .text(
        #"{"error":"Unauthorized","errorCode":401,"errorDescription":"you need to provide a valid access token"}"#,
        status: 401)
    }
    do {
      try await Self.sender("gotify://127.0.0.1:\(server.port)/secrettoken", kind: .gotify)
        .deliver([ChannelTests.listings[0]], search: ChannelTests.search)
      Issue.record("a 401 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("HTTP 401"))
    }
  }

  // MARK: - Matrix

  @Test func matrixResolvesTheAliasThenPutsAnEventPerMessage() async throws {
    let server = try LoopbackServer { request, _ in
      request.method == "GET"
        ? .text(#"{"room_id":"!abc123:example.org","servers":["example.org"]}"#)
        : .text(#"{"event_id":"$ev1"}"#)
    }
    let url = "matrix://syt_token@127.0.0.1:\(server.port)/%23flats:example.org"
    try await Self.sender(url, kind: .matrix).deliver(
      ChannelTests.listings, search: ChannelTests.search)
    let requests = server.requests
    #expect(requests.count == 3, "one alias lookup, one event per listing")
    #expect(requests[0].method == "GET")
    #expect(requests[0].path == "/_matrix/client/v3/directory/room/%23flats%3Aexample.org")
    #expect(requests[0].headers["authorization"] == "Bearer syt_token")
    for request in requests.dropFirst() {
      #expect(request.method == "PUT")
      #expect(request.headers["authorization"] == "Bearer syt_token")
      #expect(request.headers["content-type"] == "application/json")
      #expect(
        request.path.hasPrefix(
          "/_matrix/client/v3/rooms/%21abc123%3Aexample.org/send/m.room.message/"))
    }
    #expect(requests[1].path != requests[2].path, "a transaction per message")
    let object = try Self.object(requests[1].body)
    #expect(object["msgtype"] as? String == "m.text")
    #expect(object["format"] as? String == "org.matrix.custom.html")
    #expect((object["body"] as? String)?.hasPrefix("$450 · Aeron chair <size B> & more\n") == true)
    #expect(
      (object["formatted_body"] as? String)?.hasPrefix(
        "<b>$450 · Aeron chair &lt;size B&gt; &amp; more</b><br>") == true)
  }

  @Test func matrixSendsTheSameTransactionAgainAfterARefusal() async throws {
    let server = try LoopbackServer { _, count in
      count == 0
        ? .text(#"{"errcode":"M_UNKNOWN","error":"try later"}"#, status: 500)
        : .text(#"{"event_id":"$ev1"}"#)
    }
    let sender = Self.sender(
      "matrix://u:syt_token@127.0.0.1:\(server.port)/!room:example.org?msgtype=notice",
      kind: .matrix)
    do {
      try await sender.deliver([ChannelTests.listings[0]], search: ChannelTests.search)
      Issue.record("a 500 must be a refusal")
    } catch let error as DeliveryError {
      #expect(error.message.contains("Matrix refused to send: HTTP 500 (M_UNKNOWN: try later)"))
    }
    try await sender.deliver([ChannelTests.listings[0]], search: ChannelTests.search)
    let paths = server.requests.map(\.path)
    #expect(paths.count == 2 && paths[0] == paths[1], "the retry is the same transaction")
    #expect(try Self.object(server.requests[1].body)["msgtype"] as? String == "m.notice")
  }

  @Test func matrixWaitsOutARateLimit() async throws {
    let server = try LoopbackServer { _, count in
      count == 0
        ? .text(
          #"{"errcode":"M_LIMIT_EXCEEDED","error":"Too many requests","retry_after_ms":500}"#,
          status: 429)
        : .text(#"{"event_id":"$ev1"}"#)
    }
    let start = Date()
    try await Self.sender(
      "matrix://syt_token@127.0.0.1:\(server.port)/!room:example.org", kind: .matrix
    ).deliver([ChannelTests.listings[0]], search: ChannelTests.search)
    #expect(Date().timeIntervalSince(start) >= 0.5)
    #expect(server.requests.count == 2)
  }

  @Test func matrixAnUnknownAliasIsARefusal() async throws {
    let server = try LoopbackServer { _, _ in
      .text(#"{"errcode":"M_NOT_FOUND","error":"Room alias not found"}"#, status: 404)
    }
    do {
      try await Self.sender(
        "matrix://syt_token@127.0.0.1:\(server.port)/%23nowhere:example.org", kind: .matrix
      ).deliver([ChannelTests.listings[0]], search: ChannelTests.search)
      Issue.record("an unknown alias must be a refusal")
    } catch let error as DeliveryError {
      #expect(
        error.message.contains(
          "Matrix refused to look up room '#nowhere:example.org': HTTP 404 (M_NOT_FOUND"))
    }
  }
}
