package import ClarissaCore
internal import Foundation

/// A channel's kind looked up in the registry, for the redactor (which is handed a kind's
/// declaration, and knows no kind of its own).
extension Channel {
  /// The URL with every part its kind declares secret hidden, safe for logs and summaries:
  /// the one redactor (``ChannelRedactor``) at work.
  package var redactedURL: String { ChannelRedactor.redact(url, kind: kind) }

  /// The kind's declaration.
  package var declaration: (any ChannelKind)? { ChannelRegistry.named(kind) }
}

extension ChannelRedactor {
  /// `url`, a channel URL of `kind`, with its secret parts hidden. A URL of no known kind shows
  /// its scheme only.
  package static func redact(_ url: String, kind: Channel.Kind) -> String {
    redact(url, declared: ChannelRegistry.named(kind))
  }

  /// The secret values in `url` (as written and decoded), longest first.
  package static func secrets(in url: String, kind: Channel.Kind) -> [String] {
    secrets(in: url, declared: ChannelRegistry.named(kind))
  }

  /// `text` (a refusal, a log line) with every secret of `channel`'s URL hidden.
  package static func scrub(_ text: String, channel: Channel) -> String {
    var text = text
    for secret in secrets(in: channel.url, kind: channel.kind) {
      text = text.replacingOccurrences(of: secret, with: mask)
    }
    return text
  }
}
