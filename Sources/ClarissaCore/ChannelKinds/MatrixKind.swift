extension Channel.Kind {
  /// A Matrix room.
  public static let matrix = Channel.Kind(rawValue: "matrix")
}

/// `matrix://ACCESS_TOKEN@HOST[:PORT]/ROOM[/ROOM...]`, `matrixs://` for HTTPS: the client-server
/// API's `m.room.message`. A room is an id (`!abc:example.org`) or an alias (`#flats:example.org`,
/// written `%23flats:example.org` in the path), resolved through the room directory. The token
/// may also be the password part (`user:ACCESS_TOKEN@`); a login by password is not made.
public struct MatrixKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.matrix
  public let schemes = ["matrix", "matrixs"]
  public let summary = "`matrixs://ACCESS_TOKEN@host/!room:server` (or `%23alias:server`): Matrix"
  public let example = "matrixs://syt_abc123@matrix.example.org/%23flats:example.org"
  public let parameters = [
    ChannelParameter("to", "more rooms, comma-separated"),
    ChannelParameter("format", "Apprise's; clarissa always sends HTML"),
    ChannelParameter("msgtype", "'text' (the default) or 'notice'"),
  ]
  public let secrets: [ChannelSecret] = [.userinfo]

  /// The access token: the password of `user:token@`, or the whole user part.
  public static func token(_ url: ChannelURL) -> String {
    url.password ?? url.user ?? ""
  }

  /// The rooms: the path's segments, the fragment (an unencoded `#alias`) and `to=`.
  public static func rooms(_ url: ChannelURL) -> [String] {
    let extra = (url.value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let fragment = url.fragment.map { ["#" + ChannelURL.decoded($0)] } ?? []
    return (url.segments.map(ChannelURL.decoded) + fragment + extra).filter { !$0.isEmpty }
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
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

  public let examples: [ChannelExample] = [
    .valid(
      "matrixs://syt_abc@matrix.example.org/%23flats:example.org",
      redacted: "matrixs://***@matrix.example.org/%23flats:example.org"),
    .valid(
      "matrix://bot:syt_abc@127.0.0.1:8008/!r:example.org",
      redacted: "matrix://***@127.0.0.1:8008/!r:example.org"),
    .invalid("matrixs://tok@matrix.example.org/flats", message: "'flats' is not a Matrix room"),
    .invalid("matrixs://matrix.example.org/!r:x.org", message: "a matrix URL is 'matrixs://"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "matrix://bot:\(secret)@\(host)/%23flats:example.org"
  }
}
