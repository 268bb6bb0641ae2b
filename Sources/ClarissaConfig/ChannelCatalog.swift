internal import ClarissaCore
internal import Foundation

/// The channel kinds the config reader is handed (``ConfigLoader``'s `channels`, from
/// `ChannelRegistry.all` in module `Channels`, as it is handed the sites), and what it asks of
/// them: which kind takes a URL, and what is wrong with it.
struct ChannelCatalog: Sendable {
  /// Every kind, in the order they are listed.
  let all: [any ChannelKind]

  /// Creates a catalog of `kinds`.
  init(_ kinds: [any ChannelKind]) {
    self.all = kinds
  }

  /// Every scheme a channel URL may start with.
  var schemes: [String] { all.flatMap(\.schemes) }

  /// The kind that takes `url`, without judging the rest of it.
  func claimant(of url: String) -> (any ChannelKind)? {
    ChannelURL.parse(url).flatMap { parsed in all.first { $0.claims(parsed) } }
  }

  /// The kind `url` is of, or why it is of none. `written` is the URL as the config wrote it,
  /// before `${NAME}` was replaced: a character that must be percent-encoded is looked for
  /// there, since a value from the environment (a password with a space) cannot be encoded by
  /// its writer and is taken apart by the kind as it is.
  func kind(for url: String, written: String? = nil) -> Result<
    any ChannelKind, ChannelFinding
  > {
    guard let parsed = ChannelURL.parse(url) else {
      return .failure(
        .error("'\(url)' is not a channel URL; write e.g. 'ntfy://ntfy.sh/my-topic' or 'stdout'"))
    }
    if let kind = claimant(of: url) {
      // `${NAME}` and `${NAME:-default}` are the config's, not the URL's. (The pattern is
      // compiled where it is used, half a millisecond: only for a URL that has one.)
      let text = written ?? url
      let own =
        text.utf8.contains(UInt8(ascii: "$"))
        ? text.replacing(#/\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/#, with: "") : text
      let unsafe = own.unicodeScalars.first {
        $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F
          || "<>\"{}|\\^`".unicodeScalars.contains($0)
      }
      if let unsafe, !kind.allowsSpaces {
        let encoded = String(unsafe).utf8.map { String(format: "%%%02X", $0) }.joined()
        let named =
          unsafe == " " ? "a space" : "'\(String(unsafe).debugDescription.dropFirst().dropLast())'"
        return .failure(
          .error("\(named) in the URL must be percent-encoded (as '\(encoded)')"))
      }
      return .success(kind)
    }
    // A kind's word about this URL in particular (Apprise for one of its schemes, ntfy for its
    // server's web address) before one about any URL of its form (a JSON webhook).
    let hints = all.compactMap { $0.hint(forUnclaimed: parsed) }
    let particular = hints.lazy.compactMap { hint -> String? in
      if case .particular(let text) = hint { text } else { nil }
    }.first
    let general = hints.lazy.compactMap { hint -> String? in
      if case .general(let text) = hint { text } else { nil }
    }.first
    if let said = particular ?? general { return .failure(.error(said)) }
    let hint = Suggestions.hint(for: parsed.scheme, in: schemes)
    return .failure(
      .error(
        "unknown channel type '\(parsed.scheme)'\(hint) (supported: "
          + "\(schemes.joined(separator: ", ")))"))
  }

  /// What is wrong with `url`, a URL `kind` claims: the kind's own checks, then its query
  /// parameters (a misspelt one is a warning rather than silently ignored).
  func findings(for url: String, kind: any ChannelKind) -> [ChannelFinding] {
    guard let parsed = ChannelURL.parse(url) else { return [] }
    return kind.check(parsed) + parameterFindings(parsed, kind: kind)
  }

  private func parameterFindings(
    _ url: ChannelURL, kind: any ChannelKind
  ) -> [ChannelFinding] {
    // An Apprise URL's parameters are Apprise's to judge.
    guard kind.warnsOnUnknownParameters || kind.takesHeaders else { return [] }
    let names = kind.parameters.map(\.name)
    var findings: [ChannelFinding] = []
    for item in url.query {
      let name = ChannelURL.decoded(item.name)
      if name.hasPrefix("+") {
        let header = name.dropFirst()
        if !kind.takesHeaders {
          findings.append(
            .warning(
              "'\(name)': headers ('+Name=value') are sent by ntfy and JSON webhooks only",
              at: item.name))
        } else if header.isEmpty
          || !header.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        {
          findings.append(
            .error("'\(name)' is not a header name (letters, digits and '-' only)", at: item.name))
        }
        continue
      }
      guard kind.warnsOnUnknownParameters, !names.contains(name) else { continue }
      let headerHint = kind.takesHeaders ? "; for a header write '+Name=value'" : ""
      let known = names.isEmpty ? "none" : names.joined(separator: ", ")
      findings.append(
        .warning(
          "unknown parameter '\(name)' for \(kind.kind)" + Suggestions.hint(for: name, in: names)
            + " (known: \(known))\(headerHint); it is ignored", at: item.name))
    }
    return findings
  }
}
