import ClarissaCore
import Foundation

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
