import ClarissaCore

extension Channel.Kind {
  /// The terminal: the run's own report.
  public static let stdout = Channel.Kind(rawValue: "stdout")
}

/// `stdout`: new listings in the run's report on the terminal; nothing is sent.
public struct StdoutKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.stdout
  public let schemes = ["stdout"]
  public let summary = "`stdout`: the run's report on the terminal lists the new listings"
  public let example = "stdout"
  public let secrets: [ChannelSecret] = []

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    url.host.isEmpty && url.segments.isEmpty
      ? [] : [.error("'stdout' takes nothing after it; write 'stdout'")]
  }

  public let examples: [ChannelExample] = [
    .valid("stdout", redacted: "stdout"),
    .invalid("stdout://somewhere", message: "'stdout' takes nothing after it"),
  ]

  public func sample(secret: String, host: String) -> String? {
    nil
  }
}
