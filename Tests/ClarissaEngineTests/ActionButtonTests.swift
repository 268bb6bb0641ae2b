import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ActionKeys
@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// The Viewed, Hide and Star buttons against loopback servers that read them as the services
/// document them: ntfy's `Actions` header (short form: `action, label, url, key=value...`,
/// actions separated by `;`, at most three), and Telegram's `reply_markup` inline keyboard
/// with `callback_data` of at most 64 bytes, its presses read with `getUpdates` and answered
/// with `answerCallbackQuery` as `watch` does.
@Suite(.serialized) struct ActionButtonTests {
  static let key = ActionKey(bytes: Array(50..<82))
  static let links = ActionLinks(base: "https://flats.example.net/", key: key, lifetime: 604_800)
  static let listing = ChannelTests.listings[0]

  static func sender(_ url: String, kind: Channel.Kind, actions: ActionLinks? = links)
    -> any DeliveryChannel
  {
    ChannelFactory.sender(
      for: Channel(name: "c", kind: kind, url: url), fetcher: ChannelTests.fetcher(),
      environment: [:], baseDirectory: "/", actions: actions)
  }

  /// One action of ntfy's short form, as ntfy's server splits it.
  struct NtfyAction: Equatable {
    var action: String
    var label: String
    var url: String
    var options: [String: String]
  }

  /// ntfy's documented short form: `;` between actions, `,` between fields; the action, its
  /// label and URL first, then `key=value` options. More than three actions is a 400, as on
  /// ntfy.sh.
  static func ntfyActions(_ header: String) -> [NtfyAction]? {
    let actions = header.split(separator: ";").map { action -> NtfyAction? in
      let fields = action.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      guard fields.count >= 3, ["view", "http", "broadcast"].contains(fields[0]) else {
        return nil
      }
      var options: [String: String] = [:]
      for option in fields.dropFirst(3) {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        options[parts[0]] = parts[1]
      }
      return NtfyAction(action: fields[0], label: fields[1], url: fields[2], options: options)
    }
    guard actions.count <= 3, !actions.contains(where: { $0 == nil }) else { return nil }
    return actions.compactMap { $0 }
  }

  @Test func ntfyCarriesThreeHTTPActionsPostingSignedLinks() async throws {
    let receiver = try LoopbackServer { request, _ in
      guard let header = request.headers["actions"] ?? request.headers["x-actions"] else {
        return .text("{}")
      }
      return Self.ntfyActions(header) == nil
        ? .text(#"{"code":40018,"error":"invalid request: actions invalid"}"#, status: 400)
        : .text("{}")
    }
    try await Self.sender("ntfy://127.0.0.1:\(receiver.port)/deals", kind: .ntfy).deliver(
      ChannelTests.listings, search: ChannelTests.search)
    #expect(receiver.requests.count == 2)
    for (request, listing) in zip(receiver.requests, ChannelTests.listings) {
      let header = try #require(request.headers["actions"])
      let actions = try #require(Self.ntfyActions(header))
      try Self.check(actions, for: listing)
    }
  }

  /// Viewed, Hide and Star, each an `http` POST to a link signed for `listing`.
  static func check(_ actions: [NtfyAction], for listing: Listing) throws {
    #expect(actions.map(\.label) == ["Viewed", "Hide", "Star"])
    for (action, expected) in zip(actions, [ListingAction.viewed, .hide, .star]) {
      #expect(action.action == "http")
      #expect(action.options["method"] == "POST")
      #expect(action.options["clear"] == (expected == .star ? nil : "true"))
      #expect(action.url.hasPrefix("https://flats.example.net/act/"))
      let text = String(action.url.dropFirst("https://flats.example.net/act/".count))
      let token = try ActionToken.verify(text, key: Self.key, now: Date()).get()
      #expect(
        token
          == ActionToken(
            action: expected, site: listing.site, id: listing.id, expires: token.expires))
      #expect(token.expires > Date().addingTimeInterval(604_000))
    }
  }

  @Test func noButtonsWithoutServeURLOrWithButtonsNoOrOnADigest() async throws {
    let receiver = try LoopbackServer { _, _ in .text("{}") }
    let base = "ntfy://127.0.0.1:\(receiver.port)/deals"
    try await Self.sender(base, kind: .ntfy, actions: nil).deliver(
      [Self.listing], search: ChannelTests.search)
    try await Self.sender(base + "?buttons=no", kind: .ntfy).deliver(
      [Self.listing], search: ChannelTests.search)
    let digest = ChannelFactory.sender(
      for: Channel(name: "d", kind: .ntfy, url: base, grouping: .digest),
      fetcher: ChannelTests.fetcher(), environment: [:], baseDirectory: "/", actions: Self.links)
    try await digest.deliver(ChannelTests.listings, search: ChannelTests.search)
    #expect(receiver.requests.count == 3)
    #expect(receiver.requests.allSatisfy { $0.headers["actions"] == nil })
  }

  @Test func telegramCarriesAnInlineKeyboardWithCallbackData() async throws {
    let server = try LoopbackServer { _, _ in .text(TelegramChannelTests.ok) }
    let url = "tgram://\(TelegramChannelTests.token)/987654?api=\(server.base)"
    try await Self.sender(url, kind: .telegram).deliver(
      [ChannelTests.listings[1], Self.listing], search: ChannelTests.search)
    #expect(server.requests.count == 2)
    let request = try #require(server.requests.last)
    let rows = try Self.keyboard(request)
    #expect(rows.count == 2)
    #expect(rows[0] == [["text": "Open", "url": Self.listing.url]])
    #expect(rows[1].map { $0["text"] } == ["Viewed", "Hide", "Star"])
    for (button, action) in zip(rows[1], [ListingAction.viewed, .hide, .star]) {
      let data = try #require(button["callback_data"])
      #expect(data.utf8.count <= 64, "Telegram's limit for callback_data")
      #expect(button["url"] == nil)
      #expect(try ActionToken.verify(data, key: Self.key, now: Date()).get().action == action)
    }
  }

  @Test func aListingTooLongForCallbackDataGetsURLButtons() async throws {
    let server = try LoopbackServer { _, _ in .text(TelegramChannelTests.ok) }
    var listing = Self.listing
    listing.site = "feed"
    listing.id = "https://blog.example.com/2026/03/08/a-long-permalink-as-the-id"
    let url = "tgram://\(TelegramChannelTests.token)/987654?api=\(server.base)"
    try await Self.sender(url, kind: .telegram).deliver([listing], search: ChannelTests.search)
    let request = try #require(server.requests.first)
    let rows = try Self.keyboard(request)
    let buttons = try #require(rows.last)
    #expect(buttons.count == 3)
    for button in buttons {
      #expect(button["callback_data"] == nil)
      #expect(button["url"]?.hasPrefix("https://flats.example.net/act/") == true)
    }
  }

  static func keyboard(_ request: LoopbackServer.Request) throws -> [[[String: String]]] {
    let object = try TelegramChannelTests.object(request)
    let markup = try #require(object["reply_markup"] as? [String: Any])
    return try #require(markup["inline_keyboard"] as? [[[String: String]]])
  }
}
