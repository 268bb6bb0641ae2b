import ClarissaCore
import FixtureSupport
import Foundation
import Synchronization
import Testing

@testable import ActionKeys
@testable import Channels
@testable import ClarissaEngine
@testable import ListingStore

/// The presses of Telegram buttons as `watch` reads them: `getUpdates` (callback queries only,
/// long polling, the offset of the next update) against a loopback Bot API that answers as
/// Telegram documents, each press applied to a real store and answered with
/// `answerCallbackQuery`; hostile answers bounded, unreadable updates skipped and confirmed,
/// presses from chats the channel does not send to ignored, calls at most one a second.
@Suite(.serialized) struct TelegramCallbackTests {
  static let key = ActionButtonTests.key
  static let listing = ChannelTests.listings[0]
  static let token = TelegramChannelTests.token
  static let now = Date()

  /// A loopback Bot API holding `updates`; `getUpdates` answers those at or after the offset
  /// asked for (Telegram's rule: an offset confirms every update before it). `unreadable` are
  /// updates as a broken or hostile server might send them, by the id Telegram knows them by.
  final class BotAPI: Sendable {
    /// The updates held, each as JSON by the id it is ordered by; an answer that replaces all.
    private let held = Mutex(
      (updates: [(Int, [UInt8])](), unreadable: [(Int, [UInt8])](), raw: (Int, String)?.none))
    private let started = Mutex<LoopbackServer?>(nil)

    init() throws {
      let server = try LoopbackServer { [unowned self] request, _ in self.answer(request) }
      started.withLock { $0 = server }
    }

    var server: LoopbackServer {
      guard let server = started.withLock({ $0 }) else { preconditionFailure("started in init") }
      return server
    }

    /// The updates `getUpdates` answers (by their `update_id`).
    var updates: [[String: Any]] {
      get { held.withLock { $0.updates.map(\.1) }.compactMap { Self.object($0) as? [String: Any] } }
      set {
        let json = newValue.map { ($0["update_id"] as? Int ?? 0, Self.json($0)) }
        held.withLock { $0.updates = json }
      }
    }

    /// Updates as a broken or hostile server might send them, by the id Telegram knows them by.
    var unreadable: [Int: Any] {
      get {
        held.withLock { $0.unreadable }.reduce(into: [:]) { $0[$1.0] = Self.object($1.1) as Any }
      }
      set {
        let json = newValue.map { ($0.key, Self.json($0.value)) }
        held.withLock { $0.unreadable = json }
      }
    }

    /// An answer given to every call instead of the Bot API's.
    var raw: (status: Int, body: String)? {
      get { held.withLock { $0.raw }.map { (status: $0.0, body: $0.1) } }
      set { held.withLock { $0.raw = newValue.map { ($0.status, $0.body) } } }
    }

    /// `value` as JSON (a string or a number too).
    static func json(_ value: Any) -> [UInt8] {
      let data = try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed)
      return Array(data ?? Data("null".utf8))
    }

    /// What `json` holds.
    static func object(_ json: [UInt8]) -> Any? {
      try? JSONSerialization.jsonObject(with: Data(json), options: .fragmentsAllowed)
    }

    func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Reply {
      if let raw { return .text(raw.body, status: raw.status) }
      let object =
        (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]) ?? [:]
      if request.path.hasSuffix("/getUpdates") {
        let offset = object["offset"] as? Int ?? 0
        let result = held.withLock { $0.updates + $0.unreadable }
          .filter { $0.0 >= offset }.sorted { $0.0 < $1.0 }.map(\.1)
        let body =
          Array(#"{"ok":true,"result":["#.utf8) + Array(result.joined(separator: [0x2C]))
          + Array("]}".utf8)
        return .init(body: body)
      }
      return .text(#"{"ok":true,"result":true}"#)
    }

    var channel: Channel { channel(chats: "987654") }

    func channel(chats: String, name: String = "tg") -> Channel {
      Channel(
        name: name, kind: .telegram,
        url: "tgram://\(TelegramCallbackTests.token)/\(chats)?api=\(server.base)")
    }

    func calls(_ method: String) -> [[String: Any]] {
      server.requests.filter { $0.path == "/bot\(TelegramCallbackTests.token)/\(method)" }.map {
        (try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]) ?? [:]
      }
    }
  }

  /// A press of a button on a message in `chat` (nil: a press without its message).
  static func press(
    _ id: Int, data: Any?, query: Any = "q",
    chat: [String: Any]? = ["id": 987654, "type": "private"]
  ) -> [String: Any] {
    var callback: [String: Any] = [
      "id": query is String ? "\(query)\(id)" : query, "chat_instance": "-42",
      "from": ["id": 987654, "is_bot": false, "first_name": "Ann"],
    ]
    if let data { callback["data"] = data }
    if let chat { callback["message"] = ["message_id": 1, "date": 1_700_000_000, "chat": chat] }
    return ["update_id": id, "callback_query": callback]
  }

  static func store(_ kind: StoreKind) throws -> any BrowsableStore {
    let (store, _) = try StoreSamples.open(kind)
    try store.record(
      SearchRecord(search: "chairs", now: now, seen: [listing], recent: [listing], reached: true))
    return store
  }

  /// What `watch` makes for the bot of `api`'s channel, without long polling (and with a
  /// short floor between calls, unless asked).
  static func reader(
    _ api: BotAPI, _ store: any BrowsableStore, channel: Channel? = nil, floor: Double = 0.1
  ) throws -> TelegramCallbacks {
    try #require(
      TelegramCallbacks(
        channel: channel ?? api.channel, fetcher: ChannelTests.fetcher(), key: key, store: store,
        wait: 0, floor: floor))
  }

  @Test(arguments: StoreKind.built)
  func aPressIsAppliedOnceAndAnswered(kind: StoreKind) async throws {
    let api = try BotAPI()
    let store = try Self.store(kind)
    let links = ActionLinks(base: "https://flats.example.net", key: Self.key, lifetime: 3600)
    let star = try #require(links.token(.star, site: "craigslist", id: "1", now: Self.now))
    let forged = try #require(
      ActionLinks(base: "https://x", key: ActionKey(bytes: Array(0..<32)), lifetime: 3600)
        .token(.hide, site: "craigslist", id: "1", now: Self.now))
    api.updates = [
      Self.press(500, data: star),
      Self.press(501, data: forged),
      ["update_id": 502, "message": ["message_id": 9, "text": "hello"]],
      Self.press(503, data: String(repeating: "A", count: 200)),
      Self.press(504, data: star, query: 12),
    ]
    api.unreadable = [505: ["update_id": "505", "callback_query": ["id": "q505", "data": star]]]
    let reader = try Self.reader(api, store)
    let done = try await reader.poll { Self.now }
    #expect(done.contains("Starred craigslist:1 (Telegram button)"))
    #expect(done.contains("skipped 2 unreadable Telegram updates"), "504's query id, 505's id")
    let key = ListingKey(site: "craigslist", id: "1")
    let starred = try #require(try store.marks(of: [key])[key]?.starredAt)
    #expect(try store.marks(of: [key])[key]?.hidden == false, "the forged Hide did nothing")
    let asked = try #require(api.calls("getUpdates").first)
    #expect(asked["allowed_updates"] as? [String] == ["callback_query"])
    #expect(asked["timeout"] as? Int == 0)
    #expect(asked["offset"] == nil)
    let answers = api.calls("answerCallbackQuery")
    #expect(answers.map { $0["callback_query_id"] as? String } == ["q500", "q501", "q503"])
    #expect(answers[0]["text"] as? String == "Starred")
    #expect((answers[1]["text"] as? String)?.contains("not signed by this clarissa") == true)
    // The next call confirms everything read: nothing comes twice.
    #expect(try await reader.poll { Self.now }.isEmpty)
    #expect(api.calls("getUpdates").last?["offset"] as? Int == 506, "past the unreadable 505")
    #expect(api.calls("answerCallbackQuery").count == 3)
    // After a restart Telegram sends what was never confirmed: applied again, nothing changes.
    api.updates = [Self.press(500, data: star)]
    let restarted = try Self.reader(api, store)
    _ = try await restarted.poll { Self.now.addingTimeInterval(60) }
    #expect(try store.marks(of: [key])[key]?.starredAt == starred)
    #expect(api.calls("answerCallbackQuery").last?["text"] as? String == "Starred already")
  }

  @Test func aPressTheStoreCannotTakeIsAskedForAgain() async throws {
    let api = try BotAPI()
    let (writable, location) = try StoreSamples.open(.sqlite)
    try writable.record(
      SearchRecord(
        search: "chairs", now: Self.now, seen: [Self.listing], recent: [Self.listing],
        reached: true))
    let readOnly = try ListingStore.open(path: location, readOnly: true)
    let links = ActionLinks(base: "https://flats.example.net", key: Self.key, lifetime: 3600)
    let star = try #require(links.token(.star, site: "craigslist", id: "1", now: Self.now))
    api.updates = [Self.press(40, data: star)]
    let failing = try Self.reader(api, readOnly)
    await #expect(throws: (any Error).self) { try await failing.poll { Self.now } }
    #expect(api.calls("answerCallbackQuery").isEmpty, "not answered as done")
    _ = try? await failing.poll { Self.now }
    #expect(api.calls("getUpdates").last?["offset"] == nil, "the press is not confirmed")
    let reader = try Self.reader(api, writable)
    #expect(try await reader.poll { Self.now } == ["Starred craigslist:1 (Telegram button)"])
  }

  @Test func anExpiredPressIsRefusedAndAnswered() async throws {
    let api = try BotAPI()
    let store = try Self.store(.sqlite)
    let links = ActionLinks(base: "https://flats.example.net", key: Self.key, lifetime: 60)
    let star = try #require(links.token(.star, site: "craigslist", id: "1", now: Self.now))
    api.updates = [Self.press(7, data: star)]
    let reader = try Self.reader(api, store)
    _ = try await reader.poll { Self.now.addingTimeInterval(61) }
    let key = ListingKey(site: "craigslist", id: "1")
    #expect(try store.marks(of: [key])[key] == nil)
    let answer = try #require(api.calls("answerCallbackQuery").first)
    #expect((answer["text"] as? String)?.contains("expired") == true)
    #expect((answer["text"] as? String ?? "").count <= 200, "Telegram's limit for the text")
  }

  @Test(arguments: [
    (
      409,
      #"{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}"#
    ),
    (200, #"{"ok":true,"result":"nope"}"#),
    (200, "<html>not json</html>"),
    (502, ""),
  ])
  func aHostileOrRefusingAnswerThrowsWithoutHarm(status: Int, body: String) async throws {
    let api = try BotAPI()
    api.raw = (status, body)
    let reader = try Self.reader(api, try Self.store(.sqlite))
    await #expect(throws: DeliveryError.self) { try await reader.poll() }
    if status == 409 {
      do {
        _ = try await reader.poll()
      } catch {
        #expect("\(error)".contains("Conflict: terminated by other getUpdates request"))
        #expect(!"\(error)".contains(Self.token), "the bot token is masked")
      }
    }
  }
}

extension TelegramCallbackTests {
  @Test func getUpdatesIsAskedAtMostOnceASecondHoweverFastTelegramAnswers() async throws {
    let api = try BotAPI()
    let reader = try Self.reader(api, try Self.store(.sqlite), floor: 1)
    let started = Date()
    while Date().timeIntervalSince(started) < 3 { _ = try await reader.poll() }
    let calls = api.server.requests.filter { $0.path.hasSuffix("/getUpdates") }
    #expect((3...4).contains(calls.count), "\(calls.count) calls in 3 s")
    for (earlier, later) in zip(calls, calls.dropFirst()) {
      #expect(later.arrived.timeIntervalSince(earlier.arrived) >= 0.95)
    }
  }

  @Test func unreadableUpdatesAreSkippedAndConfirmed() async throws {
    let api = try BotAPI()
    let store = try Self.store(.sqlite)
    let links = ActionLinks(base: "https://flats.example.net", key: Self.key, lifetime: 3600)
    let star = try #require(links.token(.star, site: "craigslist", id: "1", now: Self.now))
    api.updates = [Self.press(20, data: star), ["update_id": 23, "callback_query": "nope"]]
    api.unreadable = [21: "garbage", 22: ["update_id": 22.5], 24: 42, 25: ["update_id": -25]]
    let reader = try Self.reader(api, store)
    let done = try await reader.poll { Self.now }
    #expect(
      done == ["Starred craigslist:1 (Telegram button)", "skipped 5 unreadable Telegram updates"])
    #expect(try await reader.poll { Self.now }.isEmpty, "nothing comes twice")
    #expect(api.calls("getUpdates").last?["offset"] as? Int == 26)
    // A first call whose every update is unreadable has no offset to move: said, not looped on.
    let fresh = try BotAPI()
    fresh.unreadable = [7: "garbage"]
    let first = try Self.reader(fresh, store)
    await #expect(throws: DeliveryError.self) { try await first.poll { Self.now } }
  }

  @Test func aPressIsAppliedOnlyFromTheChannelsChats() async throws {
    let api = try BotAPI()
    let store = try Self.store(.sqlite)
    let links = ActionLinks(base: "https://flats.example.net", key: Self.key, lifetime: 3600)
    let hide = try #require(links.token(.hide, site: "craigslist", id: "1", now: Self.now))
    let star = try #require(links.token(.star, site: "craigslist", id: "1", now: Self.now))
    api.updates = [
      Self.press(11, data: hide, chat: ["id": 555, "type": "private"]),
      Self.press(12, data: hide, chat: nil),
      Self.press(13, data: hide, chat: ["id": true, "type": "private"]),
      Self.press(14, data: hide, chat: ["id": 1e300, "type": "group"]),
      Self.press(15, data: star, chat: ["id": -100_123, "type": "channel", "username": "Flats"]),
    ]
    let reader = try Self.reader(api, store, channel: api.channel(chats: "@flats"))
    let other = try Self.reader(api, store, channel: api.channel(chats: "987654", name: "tg2"))
    reader.admit(chatsOf: other)
    let done = try await reader.poll { Self.now }
    #expect(
      done == [
        "Starred craigslist:1 (Telegram button)",
        "ignored 4 button presses from chats this bot's channels do not send to",
      ])
    let key = ListingKey(site: "craigslist", id: "1")
    #expect(try store.marks(of: [key])[key]?.hidden == false, "no Hide from another chat")
    #expect(try store.marks(of: [key])[key]?.starredAt != nil, "the channel's @username chat")
    let answers = api.calls("answerCallbackQuery").map { $0["text"] as? String }
    #expect(answers.filter { $0 == "This button is not for this chat" }.count == 4)
    // The other channel's chat, admitted: its press is applied.
    api.updates = [Self.press(16, data: hide)]
    #expect(try await reader.poll { Self.now } == ["Hidden craigslist:1 (Telegram button)"])
  }
}
