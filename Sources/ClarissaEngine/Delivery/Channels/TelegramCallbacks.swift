import ClarissaCore
import Foundation
import ListingStore

/// The presses of the Viewed, Hide and Star buttons of a Telegram bot's messages, read with the
/// Bot API's `getUpdates` (callback queries only) and answered with `answerCallbackQuery`:
/// each button's `callback_data` is a signed action token, applied straight to the store.
///
/// The offset of the next update is kept between calls, which tells Telegram the earlier
/// ones are done: a press is applied once. After a restart Telegram sends again what was not
/// confirmed; applying a mark twice changes nothing. Everything the Bot API answers is
/// checked and bounded before use.
public final class TelegramCallbacks: @unchecked Sendable {
  let api: String
  let token: String
  let poster: Poster
  let key: ActionKey
  let store: any BrowsableStore
  /// Seconds Telegram holds a `getUpdates` open while nothing happens.
  let wait: Int
  private let lock = NSLock()
  private var nextOffset: Int?

  /// The most updates read in one call.
  static let batch = 100

  /// A reader for `channel` (a `tgram://` channel), checking tokens with `key` and marking in
  /// `store`; `endpoint` replaces the Bot API server (tests). Nil for another kind of channel.
  public init?(
    channel: Channel, fetcher: any Fetcher, key: ActionKey, store: any BrowsableStore,
    endpoint: String? = nil, wait: Int = 25
  ) {
    guard channel.kind == .telegram, let url = ChannelKinds.parse(channel.url) else { return nil }
    token = TelegramKind.token(url)
    api = TelegramKind.api(url, endpoint: endpoint)
    poster = Poster(fetcher: fetcher, channel: channel)
    self.key = key
    self.store = store
    self.wait = max(0, min(wait, 50))
  }

  /// The bot this reads for: two channels of one bot share one reader.
  public var bot: String { "\(api)/bot\(token)" }

  /// One `getUpdates` call and the answers to what it brought: returns what was done, one
  /// line each ("Starred craigslist:123"), for the log. Throws when Telegram cannot be reached
  /// or refuses (the caller waits and tries again).
  public func poll(now: @Sendable () -> Date = { Date() }) async throws -> [String] {
    var fields: [String: Any] = [
      "timeout": wait, "limit": Self.batch, "allowed_updates": ["callback_query"],
    ]
    if let offset = lock.withLock({ nextOffset }) { fields["offset"] = offset }
    let answer = try await call("getUpdates", fields)
    guard let updates = answer["result"] as? [Any] else {
      throw DeliveryError("Telegram's getUpdates answered without a list of updates")
    }
    var done: [String] = []
    for update in updates.prefix(Self.batch) {
      guard let update = update as? [String: Any], let id = Self.integer(update["update_id"])
      else { continue }
      if let query = update["callback_query"] as? [String: Any],
        let queryID = Self.text(query["id"], limit: 64)
      {
        // A store that cannot be written now throws before the offset moves past this
        // press: the next call gets it again.
        let (reply, line) = try apply(Self.text(query["data"], limit: 64), now: now())
        if let line { done.append(line) }
        _ = try? await call("answerCallbackQuery", ["callback_query_id": queryID, "text": reply])
      }
      lock.withLock { nextOffset = max(nextOffset ?? Int.min, id + 1) }
    }
    return done
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
