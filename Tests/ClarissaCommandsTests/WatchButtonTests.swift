import ActionKeys
import ClarissaCore
import FixtureSupport
import Foundation
import ListingStore
import Synchronization
import Testing

/// `clarissa watch` with `serve.url` and a Telegram channel, as a process: its messages carry
/// the Viewed, Hide and Star buttons; a press read with `getUpdates` is applied to the store,
/// answered with `answerCallbackQuery`, and confirmed by the next call's offset; `getUpdates`
/// is asked at most once a second.
@Suite(.serialized) struct WatchButtonTests {
  static let bot = "123456:ABC-def_9"

  /// A loopback feed and Bot API in one: a press of the first message's Star button waits in
  /// `getUpdates` once a message was sent; an empty `getUpdates` is held a moment, as
  /// Telegram holds a long poll.
  final class Service: Sendable {
    /// The `callback_data` of the first message's Star button, once a message was sent.
    let star = Mutex<String?>(nil)
    let feed: [UInt8]

    init() throws {
      feed = try FixtureSupport.Fixtures.bytes("http/feed.xml")
    }

    func answer(_ request: LoopbackServer.Request) -> LoopbackServer.Reply {
      if request.path == "/feed.xml" {
        return .init(headers: ["Content-Type": "application/rss+xml"], body: feed)
      }
      let object =
        (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]) ?? [:]
      if request.path.hasSuffix("/sendMessage") || request.path.hasSuffix("/sendPhoto") {
        let markup = object["reply_markup"] as? [String: Any]
        let rows = markup?["inline_keyboard"] as? [[[String: String]]] ?? []
        let star = rows.last?.first { $0["text"] == "Star" }?["callback_data"]
        self.star.withLock {
          if $0 == nil, let star { $0 = star }
        }
        return .text(#"{"ok":true,"result":{"message_id":1}}"#)
      }
      if request.path.hasSuffix("/getUpdates") {
        let offset = object["offset"] as? Int ?? 0
        let updates =
          star.withLock { $0 }.map { [Self.press($0)] }?.filter {
            ($0["update_id"] as? Int ?? 0) >= offset
          } ?? []
        if updates.isEmpty { Thread.sleep(forTimeInterval: 0.3) }
        let data = try? JSONSerialization.data(withJSONObject: ["ok": true, "result": updates])
        return .init(headers: ["Content-Type": "application/json"], body: Array(data ?? Data()))
      }
      return .text(#"{"ok":true,"result":true}"#)
    }

    /// The update of a press of the Star button whose `callback_data` is `star`.
    static func press(_ star: String) -> [String: Any] {
      [
        "update_id": 70,
        "callback_query": [
          "id": "press-1", "data": star, "chat_instance": "1",
          "from": ["id": 987654, "is_bot": false, "first_name": "Ann"],
          "message": [
            "message_id": 1, "date": 1_700_000_000,
            "chat": ["id": 987654, "type": "private"],
          ],
        ],
      ]
    }
  }

  @Test func aPressOfAButtonIsAppliedAnsweredAndConfirmed() throws {
    let service = try Service()
    let server = try LoopbackServer { request, _ in service.answer(request) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "watch-buttons-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("searches.yaml")
    try """
    version: 1
    serve:
      url: http://127.0.0.1:9/clarissa
    notify:
      phone: tgram://\(Self.bot)/987654?api=\(server.base)&image=no
    searches:
      - name: loop
        site: feed
        feeds: [\(server.base)/feed.xml]
        interval: 1h
        notify: [phone]
    """.write(to: config, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = try CommandLineTests.binary()
    process.arguments = [
      "watch", "--config", config.path, "--notify-first-run", "--politeness-delay", "0",
    ]
    process.environment = ["PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let path = "/bot\(Self.bot)/"
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let confirmed = server.requests.contains { request in
        guard request.path == path + "getUpdates",
          let object = try? JSONSerialization.jsonObject(with: Data(request.body))
            as? [String: Any]
        else { return false }
        return object["offset"] as? Int == 71
      }
      if confirmed { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(log)")
    let answers = server.requests.filter { $0.path == path + "answerCallbackQuery" }
    #expect(answers.count == 1, "answered once: \(log)")
    let answer = try #require(
      try answers.first.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
      })
    #expect(answer["callback_query_id"] as? String == "press-1")
    #expect(answer["text"] as? String == "Starred")
    let first = try #require(
      server.requests.first { $0.path == path + "getUpdates" }.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]
      })
    #expect(first["allowed_updates"] as? [String] == ["callback_query"])
    #expect(first["timeout"] as? Int == 25)
    // However fast the Bot API answers, a second passes between two calls.
    let asked = server.requests.filter { $0.path == path + "getUpdates" }.map(\.arrived)
    #expect(asked.count >= 2)
    for (earlier, later) in zip(asked, asked.dropFirst()) {
      #expect(later.timeIntervalSince(earlier) >= 0.95)
    }
    #expect(log.contains("Starred feed:"), "\(log)")
    #expect(!log.contains("Telegram buttons:"), "stopping is not a failure: \(log)")
    let store = try ListingStore.open(
      path: folder.appendingPathComponent("clarissa.db").path, readOnly: true)
    #expect(try store.markedKeys(.starred).count == 1)
    let key = FileManager.default.fileExists(
      atPath: folder.appendingPathComponent(ActionKey.fileName).path)
    #expect(key, "the action key beside the state database")
  }
}
