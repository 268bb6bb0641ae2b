package import ClarissaCore

extension Channel.Kind {
  /// The terminal: the run's own report.
  package static let stdout = Channel.Kind(rawValue: "stdout")
}

/// `stdout`: new listings in the run's report on the terminal; nothing is sent.
package struct StdoutKind: ChannelKind {
  /// The kind's declaration.
  package init() {}

  package let kind = Channel.Kind.stdout
  package let schemes = ["stdout"]
  package let summary = "`stdout`: the run's report on the terminal lists the new listings"
  package let example = "stdout"
  package let secrets: [ChannelSecret] = []

  package func check(_ url: ChannelURL) -> [ChannelFinding] {
    url.host.isEmpty && url.segments.isEmpty
      ? [] : [.error("'stdout' takes nothing after it; write 'stdout'")]
  }

  package let examples: [ChannelExample] = [
    .valid("stdout", redacted: "stdout"),
    .invalid("stdout://somewhere", message: "'stdout' takes nothing after it"),
  ]

  package func sample(secret: String, host: String) -> String? {
    nil
  }
}
