import ClarissaCore
import Foundation

/// `apprise://<any Apprise URL>`: handed to the `apprise` command (`pip install apprise`).
struct AppriseChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    let target = String(channel.url.dropFirst("apprise://".count))
    guard let apprise = Program.locate("apprise", environment: environment) else {
      throw DeliveryError(
        "channel '\(name)': the apprise command is not installed (pip install apprise)")
    }
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, listings in
      try await Program.run(
        apprise, ["-t", message.title, "-b", message.body, target], input: [],
        environment: environment,
        timeout: 60, channel: name,
        secrets: ChannelRedactor.secrets(in: channel.url, kind: channel.kind))
    }
  }
}

extension AppriseKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    AppriseChannel(channel: channel, environment: context.environment)
  }
}
