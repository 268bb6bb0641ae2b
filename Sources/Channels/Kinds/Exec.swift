package import ClarissaCore
internal import Curl
internal import Foundation

extension Channel.Kind {
  /// A local program.
  package static let exec = Channel.Kind(rawValue: "exec")
}

/// `exec:PROGRAM ARGS`: the listings as JSON on a program's stdin. Arguments may carry tokens
/// and are never printed.
package struct ExecKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.exec
  package let schemes = ["exec"]
  package let summary = "`exec:/path/to/program args`: the listings as JSON on a program's stdin"
  package let example = "exec:/usr/local/bin/on-listing"
  package let warnsOnUnknownParameters = false
  package let allowsSpaces = true
  package let secrets: [ChannelSecret] = [.arguments]

  /// The command line after `exec:`, trimmed.
  package static func command(_ url: ChannelURL) -> String {
    String(url.text.dropFirst("exec:".count)).trimmingCharacters(in: .whitespaces)
  }

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    Self.command(url).isEmpty
      ? [.error("'exec:' needs a command, as in 'exec:/usr/local/bin/on-listing'")] : []
  }

  package func program(_ url: ChannelURL) -> String? {
    Self.command(url).split(separator: " ").first.map(String.init)
  }

  package let examples: [ChannelExample] = [
    .valid("exec:/usr/local/bin/on-listing", redacted: "exec:/usr/local/bin/on-listing"),
    .valid("exec:notify-me --token abc", redacted: "exec:notify-me ***"),
    .invalid("exec:", message: "'exec:' needs a command"),
  ]

  package func sample(secret: String, host: String) -> String? {
    "exec:/bin/true --token \(secret)"
  }
}

/// `exec:COMMAND ARGS`: the listings as JSON on stdin, the common fields in the environment
/// (`CLARISSA_SEARCH`, `CLARISSA_COUNT`, `CLARISSA_TITLE`, `CLARISSA_URL`, `CLARISSA_PRICE`,
/// `CLARISSA_LOCATION`, `CLARISSA_ID` for the first listing of the message).
struct ExecChannel: DeliveryChannel {
  let channel: Channel
  let environment: [String: String]
  let baseDirectory: String

  var name: String { channel.name }

  func deliver(_ listings: [Listing], search: Search, receipt: DeliveryReceipt) async throws {
    let words = channel.url.dropFirst("exec:".count).split(separator: " ").map(String.init)
    guard let command = words.first else { throw DeliveryError("channel '\(name)': no command") }
    let resolved =
      command.hasPrefix("/") || !command.contains("/")
      ? command : (baseDirectory as NSString).appendingPathComponent(command)
    guard let path = Program.locate(resolved, environment: environment) else {
      throw DeliveryError("channel '\(name)': '\(command)' is not an executable on PATH")
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    try await sendMessages(listings, search: search, channel: channel, receipt) {
      message, batch in
      let first = batch.first
      var env = environment
      env["CLARISSA_SEARCH"] = search.name
      env["CLARISSA_COUNT"] = String(batch.count)
      env["CLARISSA_MESSAGE_TITLE"] = message.title
      env["CLARISSA_TITLE"] = first?.title ?? ""
      env["CLARISSA_URL"] = first?.url ?? ""
      env["CLARISSA_ID"] = first?.id ?? ""
      env["CLARISSA_PRICE"] = first?.price.map { Money.format($0, first?.currency) } ?? ""
      env["CLARISSA_LOCATION"] = first?.location ?? first?.area ?? ""
      let input = try encoder.encode(batch)
      try await Program.run(
        path, Array(words.dropFirst()), input: Array(input), environment: env, timeout: 30,
        channel: name,
        secrets: ChannelRedactor.secrets(in: channel.url, kind: channel.kind))
    }
  }
}

extension ExecKind: ChannelDelivering {
  func sender(for channel: Channel, context: ChannelContext) -> any DeliveryChannel {
    ExecChannel(
      channel: channel, environment: context.environment, baseDirectory: context.baseDirectory)
  }
}
