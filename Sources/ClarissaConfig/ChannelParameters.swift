import ClarissaCore
import Foundation

/// The query parameters each kind of channel URL understands, so that a misspelt one is a warning
/// rather than silently ignored. `+Name=value` (Apprise's form) is an HTTP header for ntfy and
/// JSON webhooks, sent with every message and never shown in summaries.
enum ChannelParameters {
  /// Known parameter names per kind; kinds not listed here take no warning (a JSON webhook's
  /// other parameters are part of the receiver's own URL and are passed on as they are).
  static let known: [Channel.Kind: [String]] = [
    .ntfy: ["priority", "tags", "click"],
    .smtp: ["to", "from", "tls"],
  ]

  /// Kinds whose `+Name=value` parameters are sent as headers.
  static let takesHeaders: Set<Channel.Kind> = [.ntfy, .json]

  /// One problem with a parameter: its name as written, and the message.
  struct Finding {
    let name: String
    let message: String
    let isError: Bool
  }

  /// What is wrong with the query of `url`, a `kind` channel's URL.
  static func check(_ url: String, kind: Channel.Kind) -> [Finding] {
    guard let items = URLComponents(string: url)?.queryItems else { return [] }
    var findings: [Finding] = []
    for item in items {
      if item.name.hasPrefix("+") {
        let header = String(item.name.dropFirst())
        if !takesHeaders.contains(kind) {
          findings.append(
            Finding(
              name: item.name,
              message:
                "'\(item.name)': headers ('+Name=value') are sent by ntfy and JSON webhooks only",
              isError: false))
        } else if header.isEmpty
          || !header.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        {
          findings.append(
            Finding(
              name: item.name,
              message: "'\(item.name)' is not a header name (letters, digits and '-' only)",
              isError: true))
        }
        continue
      }
      guard let names = known[kind], !names.contains(item.name) else { continue }
      let headerHint = takesHeaders.contains(kind) ? "; for a header write '+Name=value'" : ""
      findings.append(
        Finding(
          name: item.name,
          message: "unknown parameter '\(item.name)' for \(kind.rawValue)"
            + Suggestions.hint(for: item.name, in: names)
            + " (known: \(names.joined(separator: ", ")))\(headerHint); it is ignored",
          isError: false))
    }
    return findings
  }
}
