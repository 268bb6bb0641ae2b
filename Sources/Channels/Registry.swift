public import ClarissaCore

/// The explicit list of channel kinds (Swift has no runtime discovery), each declared with its
/// sender in `Kinds/<Kind>.swift`. Adding a kind adds that file and one line here. The command
/// line hands the list to the config reader (which knows no kind of its own), and the tests
/// that plant a secret in every kind and check every kind has a sender read it.
public enum ChannelRegistry {
  /// Every kind, in alphabetical order.
  public static let all: [any ChannelKind] = [
    AppriseKind(), DiscordKind(), ExecKind(), GotifyKind(), JSONKind(), MailtoKind(),
    MatrixKind(), NtfyKind(), PushoverKind(), SlackKind(), SMTPKind(), StdoutKind(),
    TelegramKind(), WebPushKind(),
  ]

  /// The kind called `kind`.
  package static func named(_ kind: Channel.Kind) -> (any ChannelKind)? {
    all.first { $0.kind == kind }
  }

  /// Every scheme a channel URL may start with.
  package static var schemes: [String] { all.flatMap(\.schemes) }
}
