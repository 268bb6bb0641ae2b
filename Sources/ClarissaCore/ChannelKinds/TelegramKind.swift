extension Channel.Kind {
  /// A Telegram bot's messages.
  public static let telegram = Channel.Kind(rawValue: "telegram")
}

/// `tgram://BOT_TOKEN/CHAT_ID[/CHAT_ID...]`, Apprise's syntax: the Bot API's `sendMessage`
/// (or `sendPhoto` with the text as caption) to each chat. A chat is a number (negative for
/// groups) or a public channel's `@name`. `?api=` points at another Bot API server.
public struct TelegramKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.telegram
  public let schemes = ["tgram"]
  public let summary = "`tgram://BOT_TOKEN/CHAT_ID[/CHAT_ID...]`: Telegram, through the Bot API"
  public let example = "tgram://123456789:ABCdefGhIJKlmnOPqrSTUvwxYZ/987654321"
  public let parameters = [
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
  public let secrets: [ChannelSecret] = [.host, .userinfo]

  /// The Bot API's address: the run's `endpoint` (tests), the URL's `api=`, or Telegram's own;
  /// without a trailing `/`.
  public static func api(_ url: ChannelURL?, endpoint: String?) -> String {
    let base = endpoint ?? url?.value("api") ?? "https://api.telegram.org"
    return base.hasSuffix("/") ? String(base.dropLast()) : base
  }

  /// The bot token: the authority (`123456:ABC-def`), Apprise's optional `bot` prefix dropped.
  public static func token(_ url: ChannelURL) -> String {
    let token = ChannelURL.decoded((url.userinfo.map { $0 + "@" } ?? "") + url.host)
    return token.hasPrefix("bot") ? String(token.dropFirst(3)) : token
  }

  /// The chats: the path's segments and `to=`.
  public static func chats(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return (url.segments.map(ChannelURL.decoded) + extra).filter { !$0.isEmpty }
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
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

  public static func isChat(_ chat: String) -> Bool {
    if chat.hasPrefix("@") {
      return chat.count > 1
        && chat.dropFirst().allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
    let digits = chat.hasPrefix("-") ? chat.dropFirst() : Substring(chat)
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
  }

  public let examples: [ChannelExample] = [
    .valid("tgram://123456:ABC-def_9/987654", redacted: "tgram://***/987654"),
    .valid(
      "tgram://123456:ABC/-1001234/@flats?silent=yes&api=http://127.0.0.1:8081",
      redacted: "tgram://***/-1001234/@flats?silent=yes&api=http://127.0.0.1:8081"),
    .invalid("tgram://nodigits/987654", message: "a Telegram bot token is 'digits:letters'"),
    .invalid("tgram://123456:ABC", message: "a tgram URL needs a chat after the token"),
    .invalid("tgram://123456:ABC/chat", message: "'chat' is not a Telegram chat"),
    .invalid("tgram://123456:ABC/1?api=ftp://x", message: "'api=ftp://x' is not an http://"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "tgram://123456:\(secret)/987654?api=http://\(host)"
  }
}
