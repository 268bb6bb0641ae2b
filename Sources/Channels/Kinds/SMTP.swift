package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// Mail through an SMTP server.
  package static let smtp = Channel.Kind(rawValue: "smtp")
}

/// `smtp://user:${PASSWORD}@host:587?to=me@example.com` (STARTTLS) or `smtps://` (TLS from the
/// start): mail sent by clarissa itself.
package struct SMTPKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.smtp
  package let schemes = ["smtp", "smtps"]
  package let summary =
    "`smtp://user:pass@host:587?to=me@example.com`, `smtps://`: mail through a server"
  package let example =
    "smtp://me%40example.com:${SMTP_PASSWORD}@mail.example.com:587?to=me@example.com"
  package let parameters = [
    ChannelParameter("to", "the recipients, comma-separated (required)"),
    ChannelParameter("from", "the sender (default: the user, if an address)"),
    ChannelParameter("tls", "'starttls' (the default) or 'none' for a relay on this machine"),
  ]
  package let secrets: [ChannelSecret] = [.userinfo]

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
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
    where !MailMessage.isAddress(address) {
      return [.error("'\(address)' in 'to=' is not a mail address")]
    }
    if let from = url.value("from"), !MailMessage.isAddress(from) {
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

  package let examples: [ChannelExample] = [
    .valid(
      "smtps://me%40x.com:pw@mail.x.com:465?to=me@x.com",
      redacted: "smtps://***@mail.x.com:465?to=me@x.com"),
    .invalid("smtp://mail.x.com", message: "an SMTP URL needs a recipient"),
    .invalid(
      "smtps://mail.x.com?to=me@x.com&tls=none", message: "'smtps://' is TLS from the start"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "smtp://me%40example.com:\(secret)@127.0.0.1:9?to=me@example.com&tls=none"
  }
}

/// `smtp://user:${PASSWORD}@host:587?from=me@example.com&to=you@example.com`: mail sent by
/// clarissa itself through an SMTP server. `smtp://` requires STARTTLS (`?tls=none` for a relay
/// on the same machine), `smtps://` is TLS from the start (port 465). One mail per message, so
/// per listing or one digest, like every channel; a refusal leaves the listings undelivered.
struct SMTPChannel: DeliveryChannel {
  let channel: Channel
  let envelope: SMTPClient.Envelope

  var name: String { channel.name }

  init(_ channel: Channel, timeout: Double) {
    self.channel = channel
    envelope = Self.envelope(channel.url, timeout: timeout)
  }

  /// The envelope a checked `smtp(s)://` URL describes (the config has validated it).
  static func envelope(_ url: String, timeout: Double) -> SMTPClient.Envelope {
    let components = URLComponents(string: url)
    let secure = url.lowercased().hasPrefix("smtps://")
    let host = components?.host ?? "localhost"
    let port = components?.port ?? (secure ? 465 : 587)
    let query = components?.queryItems ?? []
    func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
    let user = components?.user?.removingPercentEncoding
    let recipients = (value("to") ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let from =
      value("from") ?? (user.map { $0.contains("@") ? $0 : "\($0)@\(host)" } ?? "clarissa@\(host)")
    let hostPart = host.contains(":") ? "[\(host)]" : host
    return SMTPClient.Envelope(
      server: "\(secure ? "smtps" : "smtp")://\(hostPart):\(port)", username: user,
      password: components?.password?.removingPercentEncoding, from: from,
      recipients: recipients, requireTLS: !secure && value("tls") != "none", timeout: timeout)
  }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let mail = MailMessage.build(
        message, listings: listings, from: envelope.from, to: envelope.recipients)
      if let reason = await SMTPClient.send(mail, envelope) {
        throw DeliveryError("channel '\(name)': \(reason)")
      }
    }
  }
}

extension SMTPKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    SMTPChannel(channel, timeout: context.timeout)
  }
}
