package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A Matrix room.
  package static let matrix = Channel.Kind(rawValue: "matrix")
}

/// `matrix://ACCESS_TOKEN@HOST[:PORT]/ROOM[/ROOM...]`, `matrixs://` for HTTPS: the client-server
/// API's `m.room.message`. A room is an id (`!abc:example.org`) or an alias (`#flats:example.org`,
/// written `%23flats:example.org` in the path), resolved through the room directory. The token
/// may also be the password part (`user:ACCESS_TOKEN@`); a login by password is not made.
package struct MatrixKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.matrix
  package let schemes = ["matrix", "matrixs"]
  package let summary = "`matrixs://ACCESS_TOKEN@host/!room:server` (or `%23alias:server`): Matrix"
  package let example = "matrixs://syt_abc123@matrix.example.org/%23flats:example.org"
  package let parameters = [
    ChannelParameter("to", "more rooms, comma-separated"),
    ChannelParameter("format", "Apprise's; clarissa always sends HTML"),
    ChannelParameter("msgtype", "'text' (the default) or 'notice'"),
  ]
  package let secrets: [ChannelSecret] = [.userinfo]

  /// The access token: the password of `user:token@`, or the whole user part.
  package static func token(_ url: ChannelURL) -> String {
    url.password ?? url.user ?? ""
  }

  /// The rooms: the path's segments, the fragment (an unencoded `#alias`) and `to=`.
  package static func rooms(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let fragment = url.fragment.map { ["#" + ChannelURL.decoded($0)] } ?? []
    return (url.segments.map(ChannelURL.decoded) + fragment + extra).filter { !$0.isEmpty }
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard !url.hostName.isEmpty, !Self.token(url).isEmpty else {
      return [.error("a matrix URL is 'matrixs://ACCESS_TOKEN@host/ROOM', as in '\(example)'")]
    }
    let rooms = Self.rooms(url)
    guard !rooms.isEmpty else {
      return [.error("a matrix URL needs a room after the host, as in '\(example)'")]
    }
    for room in rooms where !((room.hasPrefix("!") || room.hasPrefix("#")) && room.contains(":")) {
      return [
        .error(
          "'\(room)' is not a Matrix room: '!id:server' or '#alias:server' (write '#' as '%23')")
      ]
    }
    if let type = url.value("msgtype"), type != "text" && type != "notice" {
      return [.error("'msgtype=\(type)' is not 'text' or 'notice'", at: "msgtype=")]
    }
    return []
  }

  package let examples: [ChannelExample] = [
    .valid(
      "matrixs://syt_abc@matrix.example.org/%23flats:example.org",
      redacted: "matrixs://***@matrix.example.org/%23flats:example.org"),
    .valid(
      "matrix://bot:syt_abc@127.0.0.1:8008/!r:example.org",
      redacted: "matrix://***@127.0.0.1:8008/!r:example.org"),
    .invalid("matrixs://tok@matrix.example.org/flats", message: "'flats' is not a Matrix room"),
    .invalid("matrixs://matrix.example.org/!r:x.org", message: "a matrix URL is 'matrixs://"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "matrix://bot:\(secret)@\(host)/%23flats:example.org"
  }
}

/// Matrix (`matrix://ACCESS_TOKEN@HOST/ROOM`, `matrixs://` for HTTPS), through the
/// client-server API v3: a room alias is resolved once per delivery with
/// `GET /_matrix/client/v3/directory/room/{alias}`, then each message is
/// `PUT /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}` with
/// `Authorization: Bearer`, a plain `body` and an HTML `formatted_body`. The transaction id
/// is derived from the message's key and the room, so a message sent again after a crash is
/// the same transaction and the server keeps one event (Matrix's idempotency). A `429` whose
/// `retry_after_ms` (or `Retry-After`) fits in the run's wait is waited out.
struct MatrixChannel: DeliveryChannel {
  let channel: Channel
  let base: String
  let token: String
  let rooms: [String]
  let messageType: String
  let poster: Poster
  let maxRetryWait: Double

  /// The longest text sent (an event may be at most 65,536 bytes in all).
  static let textLimit = 16_000

  var name: String { channel.name }

  init(_ channel: Channel, context: ChannelContext) {
    self.channel = channel
    let url = ChannelURL.parse(channel.url)
    token = url.map(MatrixKind.token) ?? ""
    rooms = url.map(MatrixKind.rooms) ?? []
    let scheme = url?.scheme == "matrixs" ? "https" : "http"
    base = context.endpoint ?? "\(scheme)://\(url?.host ?? "")"
    messageType = url?.value("msgtype") == "notice" ? "m.notice" : "m.text"
    poster = Poster(fetcher: context.fetcher, channel: channel)
    maxRetryWait = context.maxRetryWait
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    var ids: [String] = []
    for room in rooms { ids.append(try await roomID(room)) }
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let content = Self.content(message, type: messageType)
      let body = try JSONSerialization.data(withJSONObject: content, options: [.sortedKeys])
      for id in ids {
        let transaction = ContentHash.hex(["clarissa", message.key, id])
        let response = try await call(
          "/rooms/\(ChannelText.percentEncoded(id))/send/m.room.message/\(transaction)",
          method: "PUT",
          body: Array(body), key: message.key)
        guard (200..<300).contains(response.status) else { throw refusal(response, "send") }
      }
    }
  }

  /// The room's id: `!id:server` as it is, `#alias:server` from the room directory.
  private func roomID(_ room: String) async throws -> String {
    guard room.hasPrefix("#") else { return room }
    let response = try await call(
      "/directory/room/\(ChannelText.percentEncoded(room))", method: "GET", body: nil, key: "")
    guard (200..<300).contains(response.status) else {
      throw refusal(response, "look up room '\(room)'")
    }
    guard let id = ChannelText.object(response.body)?["room_id"] as? String, id.hasPrefix("!"),
      id.utf8.count <= 255, !id.contains(where: { $0.isWhitespace || $0.isNewline })
    else {
      throw DeliveryError("channel '\(name)': Matrix gave no room id for '\(room)'")
    }
    return id
  }

  private func call(_ path: String, method: String, body: [UInt8]?, key: String) async throws
    -> HTTPResponse
  {
    var headers = ["Authorization": "Bearer \(token)"]
    if body != nil { headers["Content-Type"] = "application/json" }
    return try await poster.exchange(
      base + "/_matrix/client/v3" + path, method: method, body: body, headers: headers,
      key: key, maxWait: maxRetryWait
    ) { response in
      // The body's `retry_after_ms`, or the `Retry-After` header newer servers send.
      // Both read as hostile: no NaN, no infinity, no negative wait.
      let body = (ChannelText.object(response.body)?["retry_after_ms"] as? NSNumber).flatMap {
        let seconds = $0.doubleValue / 1000
        return seconds.isFinite && seconds >= 0 ? seconds : nil
      }
      return body
        ?? RetryAfter(
          response.headers["retry-after"], date: response.headers["date"], now: Date()
        ).seconds
    }
  }

  private func refusal(_ response: HTTPResponse, _ what: String) -> DeliveryError {
    let object = ChannelText.object(response.body)
    let code = object?["errcode"] as? String
    let error = object?["error"] as? String
    guard code != nil || error != nil else { return poster.refusal(response) }
    let said = Excerpt.oneLine([code, error].compactMap { $0 }.joined(separator: ": ").utf8)
    return DeliveryError(
      "channel '\(name)': Matrix refused to \(what): HTTP \(response.status) (\(said))",
      status: response.status)
  }

  /// The event's content: the text plain and as HTML (the title bold, line breaks kept).
  static func content(_ message: Message, type: String) -> [String: Any] {
    let title = SafeText.line(message.title)
    let text = ChannelText.cut(
      SafeText.lines(message.body).trimmingCharacters(in: .whitespacesAndNewlines),
      to: textLimit
    ) { _ in 1 }
    let plain = text.isEmpty ? title : title + "\n" + text
    let html =
      "<b>\(ChannelText.escapeHTML(title))</b>"
      + (text.isEmpty
        ? "" : "<br>" + ChannelText.escapeHTML(text).replacingOccurrences(of: "\n", with: "<br>"))
    return [
      "msgtype": type, "body": plain, "format": "org.matrix.custom.html", "formatted_body": html,
    ]
  }
}

extension MatrixKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    MatrixChannel(channel, context: context)
  }
}
