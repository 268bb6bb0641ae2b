package import ActionKeys
package import ClarissaCore
package import Curl
package import Foundation
package import ListingStore
internal import Synchronization

/// The presses of the Viewed, Hide and Star buttons of a Telegram bot's messages, read with the
/// Bot API's `getUpdates` (callback queries only) and answered with `answerCallbackQuery`:
/// each button's `callback_data` is a signed action token, applied straight to the store.
///
/// The offset of the next update is kept between calls, which tells Telegram the earlier
/// ones are done: a press is applied once. After a restart Telegram sends again what was not
/// confirmed; applying a mark twice changes nothing. Everything the Bot API answers is
/// checked and bounded before use: an update that cannot be read is skipped (and confirmed),
/// and a press is applied only from a chat the bot's channels send to.
package final class TelegramCallbacks: Sendable {
  let api: String
  let token: String
  let poster: Poster
  let key: ActionKey
  let store: any BrowsableStore
  /// Seconds Telegram holds a `getUpdates` open while nothing happens.
  let wait: Int
  /// The fewest seconds from one `getUpdates` to the next, however fast Telegram answers.
  let floor: Double
  private let state: Mutex<State>

  /// What changes between calls.
  private struct State {
    var nextOffset: Int?
    var lastCall: Date?
    /// The chats the bot's channels send to: ids (`-100123`) and `@usernames`, lowercased.
    var chats: Set<String>
  }

  /// The most updates read in one call.
  static let batch = 100

  /// A reader for `channel` (a `tgram://` channel), checking tokens with `key` and marking in
  /// `store`; `endpoint` replaces the Bot API server (tests). Nil for another kind of channel.
  /// `wait` is Telegram's long poll (at most 50 s); `floor` the fewest seconds between two
  /// calls (at least 0.1).
  package init?(
    channel: Channel, fetcher: any Fetcher, key: ActionKey, store: any BrowsableStore,
    endpoint: String? = nil, wait: Int = 25, floor: Double = 1
  ) {
    guard channel.kind == .telegram, let url = ChannelURL.parse(channel.url) else { return nil }
    token = TelegramKind.token(url)
    api = TelegramKind.api(url, endpoint: endpoint)
    poster = Poster(fetcher: fetcher, channel: channel)
    self.key = key
    self.store = store
    self.wait = max(0, min(wait, 50))
    self.floor = floor.isFinite ? max(0.1, min(floor, 60)) : 1
    state = Mutex(State(chats: Set(TelegramKind.chats(url).map { $0.lowercased() })))
  }

  /// The bot this reads for: two channels of one bot share one reader.
  package var bot: String { "\(api)/bot\(token)" }

  /// Accepts presses from `other`'s chats too (another channel of the same bot).
  package func admit(chatsOf other: TelegramCallbacks) {
    let more = other.state.withLock { $0.chats }
    state.withLock { $0.chats.formUnion(more) }
  }

  /// One `getUpdates` call and the answers to what it brought: returns what was done, one
  /// line each ("Starred craigslist:123"), for the log. Throws when Telegram cannot be reached
  /// or refuses (the caller waits and tries again).
  /// A call is made no sooner than ``floor`` seconds after the one before.
  package func poll(now: @Sendable () -> Date = { Date() }) async throws -> [String] {
    try await waitForFloor()
    var fields: [String: Any] = [
      "timeout": wait, "limit": Self.batch, "allowed_updates": ["callback_query"],
    ]
    let asked = state.withLock { $0.nextOffset }
    if let asked { fields["offset"] = asked }
    let answer = try await call("getUpdates", fields)
    guard let updates = answer["result"] as? [Any] else {
      throw DeliveryError("Telegram's getUpdates answered without a list of updates")
    }
    var done: [String] = []
    var unreadable = 0
    var ignored = 0
    // Updates Telegram numbers one after another: an update whose id cannot be read comes
    // after the last id read, so the offset moves past it by counting (never further than its
    // true id, which is at least that high).
    var since = 0
    for update in updates.prefix(Self.batch) {
      guard let update = update as? [String: Any], let id = Self.integer(update["update_id"])
      else {
        unreadable += 1
        since += 1
        continue
      }
      since = 0
      switch try await handle(update, now: now) {
      case .applied(let line?): done.append(line)
      case .applied(nil): break
      case .ignored: ignored += 1
      case .unreadable: unreadable += 1
      }
      state.withLock { $0.nextOffset = max($0.nextOffset ?? Int.min, id + 1) }
    }
    if since > 0 {
      let read = state.withLock { $0.nextOffset } ?? asked
      guard let read else {
        throw DeliveryError(
          "Telegram's getUpdates answered \(since) updates without a readable update_id")
      }
      state.withLock { $0.nextOffset = read + since }
    }
    if unreadable > 0 { done.append("skipped \(unreadable) unreadable Telegram updates") }
    if ignored > 0 {
      done.append("ignored \(ignored) button presses from chats this bot's channels do not send to")
    }
    return done
  }

  /// What became of one update.
  private enum Outcome {
    case applied(String?)
    case ignored
    case unreadable
  }

  /// Applies and answers the press `update` holds, when it comes from one of the channels'
  /// chats; another kind of update (none is asked for) changes nothing.
  private func handle(_ update: [String: Any], now: @Sendable () -> Date) async throws
    -> Outcome
  {
    guard let query = update["callback_query"] else { return .applied(nil) }
    guard let query = query as? [String: Any], let queryID = Self.text(query["id"], limit: 64)
    else { return .unreadable }
    guard fromOwnChat(query) else {
      _ = try? await call(
        "answerCallbackQuery",
        ["callback_query_id": queryID, "text": "This button is not for this chat"])
      return .ignored
    }
    // A store that cannot be written now throws before the offset moves past this press: the
    // next call gets it again.
    let (reply, line) = try apply(Self.text(query["data"], limit: 64), now: now())
    _ = try? await call("answerCallbackQuery", ["callback_query_id": queryID, "text": reply])
    return .applied(line)
  }

  /// Whether the press's message is in a chat the channels send to (by id, or by `@username`
  /// for a public chat named so in the channel's URL).
  private func fromOwnChat(_ query: [String: Any]) -> Bool {
    let message = query["message"] as? [String: Any]
    guard let chat = message?["chat"] as? [String: Any] else { return false }
    let id = (chat["id"] as? NSNumber).flatMap { number -> String? in
      guard !(chat["id"] is Bool), let value = Int64(exactly: number.doubleValue) else {
        return nil
      }
      return String(value)
    }
    let username = Self.text(chat["username"], limit: 64).map { "@" + $0.lowercased() }
    return state.withLock { state in
      id.map(state.chats.contains) == true || username.map(state.chats.contains) == true
    }
  }

  /// Sleeps until ``floor`` seconds have passed since the last call, then marks this one.
  private func waitForFloor() async throws {
    let pause = state.withLock { state -> Double in
      let start = max(Date(), (state.lastCall ?? .distantPast).addingTimeInterval(floor))
      state.lastCall = start
      return start.timeIntervalSinceNow
    }
    if pause > 0 { try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000)) }
  }

  /// What the press of a button with `data` does, and the words for the person and the log.
  private func apply(_ data: String?, now: Date) throws -> (reply: String, log: String?) {
    guard let data else { return ("This button is not clarissa's", nil) }
    switch ActionToken.verify(data, key: key, now: now) {
    case .failure(let problem):
      return (ChannelText.cut(problem.description, to: 190), "refused a button: \(problem)")
    case .success(let token):
      let listing = ListingKey(site: token.site, id: token.id)
      guard let changed = try store.apply(token.action, to: listing, at: now) else {
        return ("That listing is no longer in the store", nil)
      }
      let name = SafeText.line("\(token.site):\(token.id)")
      return (
        changed > 0 ? token.action.done : token.action.done + " already",
        "\(token.action.done) \(name) (Telegram button)"
      )
    }
  }

  /// Calls `method`; the answer's object when Telegram says `ok`.
  private func call(_ method: String, _ fields: [String: Any]) async throws -> [String: Any] {
    let body = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    let response = try await poster.exchange(
      "\(bot)/\(method)", body: Array(body), headers: ["Content-Type": "application/json"],
      key: "")
    let object = ChannelText.object(response.body)
    guard (200..<300).contains(response.status), object?["ok"] as? Bool == true, let object else {
      let detail = BotAnswer(response.body).description.map { " (\($0))" } ?? ""
      throw DeliveryError(
        "channel '\(poster.channel)': Telegram refused \(method): HTTP \(response.status)\(detail)")
    }
    return object
  }

  /// A whole number Telegram could have sent (an update id), never a trap.
  static func integer(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber, !(value is Bool) else { return nil }
    let double = number.doubleValue
    guard double.isFinite, double >= 0, double < 9e15, double == double.rounded() else {
      return nil
    }
    return Int(double)
  }

  /// A string of at most `limit` UTF-8 bytes, else nil.
  static func text(_ value: Any?, limit: Int) -> String? {
    guard let text = value as? String, !text.isEmpty, text.utf8.count <= limit else { return nil }
    return text
  }
}
