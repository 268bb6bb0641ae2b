package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// Mail through the local sendmail.
  package static let mailto = Channel.Kind(rawValue: "mailto")
}

/// `mailto://me@example.com[,you@example.com]`: mail through the local `sendmail -t`.
package struct MailtoKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.mailto
  package let schemes = ["mailto"]
  package let summary = "`mailto://me@example.com`: mail through the local sendmail"
  package let example = "mailto://me@example.com"
  package let warnsOnUnknownParameters = false
  package let secrets: [ChannelSecret] = [.userinfo]

  /// The recipients of a `mailto:` URL, as written.
  package static func recipients(_ url: ChannelURL) -> [String] {
    let address =
      url.opaque.map { $0.hasPrefix("//") ? String($0.dropFirst(2)) : $0 }
      ?? ((url.userinfo.map { $0 + "@" } ?? "") + url.host)
    return address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    let recipients = Self.recipients(url)
    guard !recipients.isEmpty else {
      return [.error("'mailto:' needs an address, as in 'mailto://me@example.com'")]
    }
    for recipient in recipients where !MailMessage.isAddress(recipient) {
      return [.error("'\(recipient)' is not a mail address")]
    }
    return []
  }

  package func program(_ url: ChannelURL) -> String? { "sendmail" }

  package let examples: [ChannelExample] = [
    .valid("mailto://me@example.com", redacted: "mailto://***@example.com"),
    .invalid("mailto://not-an-address", message: "'not-an-address' is not a mail address"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "mailto://\(secret)@example.com"
  }
}

/// `mailto://me@example.com`: a plain-text mail through the local `sendmail -t`.
struct MailChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    var address = String(channel.url.dropFirst("mailto:".count))
    if address.hasPrefix("//") { address.removeFirst(2) }
    let recipients = address.split(separator: "?").first.map(String.init) ?? address
    guard
      let sendmail = Program.locate("sendmail", environment: environment)
        ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/sendmail")
          ? "/usr/sbin/sendmail" : nil)
    else { throw DeliveryError("channel '\(name)': no sendmail installed") }
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      let mail = """
        To: \(recipients)
        Subject: \(NtfyChannel.headerValue(message.title))
        MIME-Version: 1.0
        Content-Type: text/plain; charset=utf-8
        Content-Transfer-Encoding: 8bit
        X-Mailer: clarissa

        \(message.body)

        """
      try await Program.run(
        sendmail, ["-t", "-i"], input: Array(mail.utf8), environment: environment, timeout: 60,
        channel: name)
    }
  }
}

extension MailtoKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    MailChannel(channel: channel, environment: context.environment)
  }
}
