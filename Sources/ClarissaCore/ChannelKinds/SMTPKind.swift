extension Channel.Kind {
  /// Mail through an SMTP server.
  public static let smtp = Channel.Kind(rawValue: "smtp")
}

/// `smtp://user:${PASSWORD}@host:587?to=me@example.com` (STARTTLS) or `smtps://` (TLS from the
/// start): mail sent by clarissa itself.
public struct SMTPKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.smtp
  public let schemes = ["smtp", "smtps"]
  public let summary =
    "`smtp://user:pass@host:587?to=me@example.com`, `smtps://`: mail through a server"
  public let example =
    "smtp://me%40example.com:${SMTP_PASSWORD}@mail.example.com:587?to=me@example.com"
  public let parameters = [
    ChannelParameter("to", "the recipients, comma-separated (required)"),
    ChannelParameter("from", "the sender (default: the user, if an address)"),
    ChannelParameter("tls", "'starttls' (the default) or 'none' for a relay on this machine"),
  ]
  public let secrets: [ChannelSecret] = [.userinfo]

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard !url.hostName.isEmpty else {
      return [.error("the URL has no host; write e.g. '\(example)'")]
    }
    if let port = url.host.split(separator: ":").dropFirst().first, Int(port) == nil {
      return [.error("'\(port)' is not a port number")]
    }
    guard let to = url.value("to"), !to.isEmpty else {
      return [.error("an SMTP URL needs a recipient: add '?to=me@example.com'")]
    }
    for address in to.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !ChannelKinds.isMailAddress(address) {
      return [.error("'\(address)' in 'to=' is not a mail address")]
    }
    if let from = url.value("from"), !ChannelKinds.isMailAddress(from) {
      return [.error("'\(from)' in 'from=' is not a mail address")]
    }
    if let tls = url.value("tls") {
      guard tls == "none" || tls == "starttls" else {
        return [
          .error(
            "'tls=\(tls)' is not 'starttls' (the default) or 'none' (a relay on this machine)")
        ]
      }
      if url.scheme == "smtps" {
        return [.error("'smtps://' is TLS from the start; 'tls=' belongs to 'smtp://' only")]
      }
    }
    return []
  }

  public let examples: [ChannelExample] = [
    .valid(
      "smtps://me%40x.com:pw@mail.x.com:465?to=me@x.com",
      redacted: "smtps://***@mail.x.com:465?to=me@x.com"),
    .invalid("smtp://mail.x.com", message: "an SMTP URL needs a recipient"),
    .invalid(
      "smtps://mail.x.com?to=me@x.com&tls=none", message: "'smtps://' is TLS from the start"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "smtp://me%40example.com:\(secret)@127.0.0.1:9?to=me@example.com&tls=none"
  }
}
