import ClarissaCore
import Foundation

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
