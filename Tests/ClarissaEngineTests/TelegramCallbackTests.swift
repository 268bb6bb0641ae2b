import ClarissaCore
import FixtureSupport
import Foundation
import Testing

@testable import ClarissaEngine
@testable import ListingStore

/// The presses of Telegram buttons as `watch` reads them: `getUpdates` (callback queries only,
/// long polling, the offset of the next update) against a loopback Bot API that answers as
/// Telegram documents, each press applied to a real store and answered with
/// `answerCallbackQuery`; hostile answers bounded.
@Suite(.serialized) struct TelegramCallbackTests {
  static let key = ActionButtonTests.key
  static let listing = ChannelTests.listings[0]
  static let token = TelegramChannelTests.token
  static let now = Date()

  /// A loopback Bot API holding `updates`; `getUpdates` answers those at or after the offset
  /// asked for (Telegram's rule: an offset confirms every update before it).
  final class BotAPI: @unchecked Sendable {
    let lock = NSLock()
    var updates: [[String: Any]] = []
    var raw: (status: Int, body: String)?
    private var started: LoopbackServer?

    init() throws {
      started = try LoopbackServer { [unowned self] request, _ in self.answer(request) }
    }

    var server: LoopbackServer {
      guard let started else { preconditionFailure("started in init") }
      return started
    }

    func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Reply {
      if let raw = lock.withLock({ raw }) { return .text(raw.body, status: raw.status) }
      let object =
        (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]) ?? [:]
      if request.path.hasSuffix("/getUpdates") {
        let offset = object["offset"] as? Int ?? 0
        let result = lock.withLock { updates }.filter {
          ($0["update_id"] as? Int).map { $0 >= offset } ?? true
        }
        let data = try? JSONSerialization.data(withJSONObject: ["ok": true, "result": result])
        return .init(body: Array(data ?? Data()))
      }
      return .text(#"{"ok":true,"result":true}"#)
    }

    var channel: Channel {
      Channel(
        name: "tg", kind: .telegram,
        url: "tgram://\(TelegramCallbackTests.token)/987654?api=\(server.base)")
    }

    func calls(_ method: String) -> [[String: Any]] {
      server.requests.filter { $0.path == "/bot\(TelegramCallbackTests.token)/\(method)" }.map {
        (try? JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]) ?? [:]
      }
    }
  }

  static func press(_ id: Int, data: Any?, query: Any = "q") -> [String: Any] {
    var callback: [String: Any] = [
      "id": query is String ? "\(query)\(id)" : query, "chat_instance": "-42",
      "from": ["id": 987654, "is_bot": false, "first_name": "Ann"],
    ]
    if let data { callback["data"] = data }
    return ["update_id": id, "callback_query": callback]
  }

  static func store(_ kind: StoreKind) throws -> any BrowsableStore {
    let (store, _) = try StoreLastSeenTests.open(kind)
    try store.record(
      SearchRecord(search: "chairs", now: now, seen: [listing], recent: [listing], reached: true))
    return store
  }

  /// What `watch` makes for the bot of `api`'s channel, without long polling.
  static func reader(_ api: BotAPI, _ store: any BrowsableStore) throws -> TelegramCallbacks {
    try #require(
      TelegramCallbacks(
        channel: api.channel, fetcher: ChannelTests.fetcher(), key: key, store: store, wait: 0))
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
      ["update_id": "505", "callback_query": ["id": "q505", "data": star]],
    ]
    let reader = try Self.reader(api, store)
    let done = try await reader.poll { Self.now }
    #expect(done.contains("Starred craigslist:1 (Telegram button)"))
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
    _ = try await reader.poll { Self.now }
    #expect(api.calls("getUpdates").last?["offset"] as? Int == 505)
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
    let (writable, location) = try StoreLastSeenTests.open(.sqlite)
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
