internal import ActionKeys
package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A Telegram bot's messages.
  package static let telegram = Channel.Kind(rawValue: "telegram")
}

/// `tgram://BOT_TOKEN/CHAT_ID[/CHAT_ID...]`, Apprise's syntax: the Bot API's `sendMessage`
/// (or `sendPhoto` with the text as caption) to each chat. A chat is a number (negative for
/// groups) or a public channel's `@name`. `?api=` points at another Bot API server.
package struct TelegramKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.telegram
  package let schemes = ["tgram"]
  package let summary = "`tgram://BOT_TOKEN/CHAT_ID[/CHAT_ID...]`: Telegram, through the Bot API"
  package let example = "tgram://123456789:ABCdefGhIJKlmnOPqrSTUvwxYZ/987654321"
  package let parameters = [
    ChannelParameter("to", "more chats, comma-separated"),
    ChannelParameter("silent", "yes: deliver without a sound"),
    ChannelParameter("preview", "yes: show the link's preview under a text message"),
    ChannelParameter("image", "no: never send the listing's photo"),
    ChannelParameter(
      "buttons",
      "no: no Viewed, Hide and Star buttons and no getUpdates (they come with serve.url)"),
    ChannelParameter("topic", "a forum topic's thread id (message_thread_id)"),
    ChannelParameter("thread", "the same as 'topic'"),
    ChannelParameter(
      "api", "the Bot API server (default https://api.telegram.org), e.g. a self-hosted one"),
    ChannelParameter("format", "Apprise's; clarissa always sends HTML"),
    ChannelParameter("detect", "Apprise's; clarissa needs the chats named"),
    ChannelParameter("mdv", "Apprise's; ignored"),
    ChannelParameter("content", "Apprise's; ignored"),
  ]
  package let secrets: [ChannelSecret] = [.host, .userinfo]

  /// The Bot API's address: the run's `endpoint` (tests), the URL's `api=`, or Telegram's own;
  /// without a trailing `/`.
  package static func api(_ url: ChannelURL?, endpoint: String?) -> String {
    let base = endpoint ?? url?.value("api") ?? "https://api.telegram.org"
    return base.hasSuffix("/") ? String(base.dropLast()) : base
  }

  /// The bot token: the authority (`123456:ABC-def`), Apprise's optional `bot` prefix dropped.
  package static func token(_ url: ChannelURL) -> String {
    let token = ChannelURL.decoded((url.userinfo.map { $0 + "@" } ?? "") + url.host)
    return token.hasPrefix("bot") ? String(token.dropFirst(3)) : token
  }

  /// The chats: the path's segments and `to=`.
  package static func chats(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return (url.segments.map(ChannelURL.decoded) + extra).filter { !$0.isEmpty }
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    let token = Self.token(url)
    let parts = token.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber),
      !parts[1].isEmpty,
      parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else {
      return [
        .error(
          "a Telegram bot token is 'digits:letters' as BotFather gives it, as in '\(example)'")
      ]
    }
    let chats = Self.chats(url)
    guard !chats.isEmpty else {
      return [.error("a tgram URL needs a chat after the token, as in '\(example)'")]
    }
    for chat in chats where !Self.isChat(chat) {
      return [
        .error(
          "'\(chat)' is not a Telegram chat: a number (negative for a group) or a channel's "
            + "'@name'")
      ]
    }
    if let api = url.value("api"), !(api.hasPrefix("http://") || api.hasPrefix("https://")) {
      return [.error("'api=\(api)' is not an http:// or https:// address", at: "api=")]
    }
    return []
  }

  package static func isChat(_ chat: String) -> Bool {
    if chat.hasPrefix("@") {
      return chat.count > 1
        && chat.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
    let digits = chat.hasPrefix("-") ? chat.dropFirst() : Substring(chat)
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  package let examples: [ChannelExample] = [
    .valid("tgram://123456:ABC-def_9/987654", redacted: "tgram://***/987654"),
    .valid(
      "tgram://123456:ABC/-1001234/@flats?silent=yes&api=http://127.0.0.1:8081",
      redacted: "tgram://***/-1001234/@flats?silent=yes&api=http://127.0.0.1:8081"),
    .invalid("tgram://nodigits/987654", message: "a Telegram bot token is 'digits:letters'"),
    .invalid("tgram://123456:ABC", message: "a tgram URL needs a chat after the token"),
    .invalid("tgram://123456:ABC/chat", message: "'chat' is not a Telegram chat"),
    .invalid("tgram://123456:ABC/1?api=ftp://x", message: "'api=ftp://x' is not an http://"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "tgram://123456:\(secret)/987654?api=http://\(host)"
  }
}

/// Telegram through the Bot API (`tgram://TOKEN/CHAT`): per message and chat, `sendPhoto` with
/// the text as caption when the listing has a photo (`sendMessage` when the photo is refused),
/// else `sendMessage`; HTML parse mode, the title bold, an "Open" button with the listing's
/// link. Text is cut to Telegram's limits (4,096 characters, 1,024 for a caption) before it is
/// escaped, so a cut never splits an entity. A `429` whose `retry_after` fits in the run's
/// wait is waited out and tried again; the Bot API has no idempotency key, so a message counts
/// as accepted only once every chat has it (a retry after a partial failure repeats it to the
/// chats that had it).
struct TelegramChannel: DeliveryChannel {
  let channel: Channel
  let api: String
  let token: String
  let chats: [String]
  let options: Options
  let poster: Poster
  let maxRetryWait: Double
  /// The Viewed, Hide and Star buttons' links; nil: none.
  let actions: ActionLinks?

  /// Telegram's limits, in UTF-16 code units after entities are parsed.
  static let textLimit = 4096
  static let captionLimit = 1024

  /// What the URL's parameters ask for.
  struct Options {
    var silent = false
    var preview = false
    var photos = true
    var thread: Int?
  }

  var name: String { channel.name }

  init(_ channel: Channel, context: ChannelContext) {
    self.channel = channel
    let url = ChannelURL.parse(channel.url)
    token = url.map(TelegramKind.token) ?? ""
    chats = url.map(TelegramKind.chats) ?? []
    api = TelegramKind.api(url, endpoint: context.endpoint)
    func yes(_ name: String) -> Bool? {
      url?.value(name).map { ["yes", "true", "1", "on"].contains($0.lowercased()) }
    }
    options = Options(
      silent: yes("silent") ?? false, preview: yes("preview") ?? false,
      photos: yes("image") ?? true,
      thread: (url?.value("topic") ?? url?.value("thread")).flatMap { Int($0) })
    poster = Poster(fetcher: context.fetcher, channel: channel)
    maxRetryWait = context.maxRetryWait
    actions = ActionButtons.links(for: channel, context: context)
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let listing = ChannelText.listing(of: message, in: listings)
      let photo = options.photos ? ChannelText.photo(of: listing) : nil
      let buttons =
        listing.flatMap { listing in
          actions.map { ActionButtons.telegramRow(listing, links: $0, now: Date()) }
        } ?? []
      for chat in chats { try await send(message, photo: photo, buttons: buttons, to: chat) }
    }
  }

  private func send(
    _ message: Message, photo: String?, buttons: [[String: Any]], to chat: String
  ) async throws {
    if let photo {
      var fields = payload(
        message, chat: chat, limit: Self.captionLimit, textField: "caption", buttons: buttons)
      fields["photo"] = photo
      // Telegram fetches the photo itself; one it cannot fetch is a 400, and the listing is
      // still worth a text message.
      if try await call("sendPhoto", fields, key: message.key, acceptingPhotoRefusal: true) {
        return
      }
    }
    var fields = payload(
      message, chat: chat, limit: Self.textLimit, textField: "text", buttons: buttons)
    fields["link_preview_options"] = ["is_disabled": !options.preview]
    _ = try await call("sendMessage", fields, key: message.key, acceptingPhotoRefusal: false)
  }

  private func payload(
    _ message: Message, chat: String, limit: Int, textField: String, buttons: [[String: Any]]
  ) -> [String: Any] {
    var fields: [String: Any] = [
      "chat_id": chat, "parse_mode": "HTML",
      textField: Self.html(title: message.title, body: message.body, limit: limit),
    ]
    if options.silent { fields["disable_notification"] = true }
    if let thread = options.thread { fields["message_thread_id"] = thread }
    var rows: [[[String: Any]]] = []
    if let link = message.link, ChannelText.isWeb(link) {
      rows.append([["text": "Open", "url": link]])
    }
    if !buttons.isEmpty { rows.append(buttons) }
    if !rows.isEmpty { fields["reply_markup"] = ["inline_keyboard": rows] }
    return fields
  }

  /// Calls `method`; true when Telegram accepted, false for a refused photo when
  /// `acceptingPhotoRefusal`; a `429` is waited out while the run's wait allows.
  private func call(
    _ method: String, _ fields: [String: Any], key: String, acceptingPhotoRefusal: Bool
  ) async throws -> Bool {
    let body = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    let response = try await poster.exchange(
      "\(api)/bot\(token)/\(method)", body: Array(body),
      headers: ["Content-Type": "application/json"], key: key, maxWait: maxRetryWait
    ) { BotAnswer($0.body).retryAfter }
    let answer = BotAnswer(response.body)
    if (200..<300).contains(response.status), answer.ok { return true }
    if acceptingPhotoRefusal, response.status == 400 { return false }
    let detail = answer.description.map { " (\($0))" } ?? ""
    let pause = answer.retryAfter.map { "; asked to wait \(Int($0)) s" } ?? ""
    throw DeliveryError(
      "channel '\(name)': Telegram refused \(method): HTTP \(response.status)\(detail)\(pause)",
      status: response.status)
  }

  /// `text` as Telegram's HTML: the title bold, the body after it, cut to `limit` characters
  /// as Telegram counts them (UTF-16) before escaping, each cut marked with `…`.
  static func html(title: String, body: String, limit: Int) -> String {
    let title = ChannelText.cut(SafeText.line(title), to: min(limit, 256))
    let room = limit - title.utf16.count - 1
    let body = ChannelText.cut(
      SafeText.lines(body).trimmingCharacters(in: .whitespacesAndNewlines), to: room)
    let bold = "<b>\(ChannelText.escapeHTML(title))</b>"
    return body.isEmpty ? bold : bold + "\n" + ChannelText.escapeHTML(body)
  }
}

/// The Bot API's answer (`{"ok": ..., "description": ..., "parameters": {"retry_after": ...}}`),
/// read without trusting it: a description is one bounded line, a wait a finite number.
struct BotAnswer {
  var ok = false
  var description: String?
  var retryAfter: Double?

  init(_ body: [UInt8]) {
    guard let object = ChannelText.object(body) else { return }
    ok = object["ok"] as? Bool ?? false
    if let text = object["description"] as? String {
      description = Excerpt.oneLine(text.utf8, limit: 200)
    }
    let parameters = object["parameters"] as? [String: Any]
    if let wait = (parameters?["retry_after"] as? NSNumber)?.doubleValue, wait.isFinite,
      wait >= 0, wait <= 86_400
    {
      retryAfter = wait
    }
  }
}

extension TelegramKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    TelegramChannel(channel, context: context)
  }
}
