extension Channel.Kind {
  /// A local program.
  public static let exec = Channel.Kind(rawValue: "exec")
}

/// `exec:PROGRAM ARGS`: the listings as JSON on a program's stdin. Arguments may carry tokens
/// and are never printed.
public struct ExecKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.exec
  public let schemes = ["exec"]
  public let summary = "`exec:/path/to/program args`: the listings as JSON on a program's stdin"
  public let example = "exec:/usr/local/bin/on-listing"
  public let warnsOnUnknownParameters = false
  public let allowsSpaces = true
  public let secrets: [ChannelSecret] = [.arguments]

  /// The command line after `exec:`, trimmed.
  public static func command(_ url: ChannelURL) -> String {
    String(url.text.dropFirst("exec:".count)).trimmingCharacters(in: .whitespaces)
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    Self.command(url).isEmpty
      ? [.error("'exec:' needs a command, as in 'exec:/usr/local/bin/on-listing'")] : []
  }

  public func program(_ url: ChannelURL) -> String? {
    Self.command(url).split(separator: " ").first.map(String.init)
  }

  public let examples: [ChannelExample] = [
    .valid("exec:/usr/local/bin/on-listing", redacted: "exec:/usr/local/bin/on-listing"),
    .valid("exec:notify-me --token abc", redacted: "exec:notify-me ***"),
    .invalid("exec:", message: "'exec:' needs a command"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "exec:/bin/true --token \(secret)"
  }
}
