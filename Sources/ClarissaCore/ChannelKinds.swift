/// Every kind of channel, in alphabetical order: the one list a new kind joins. Reading a
/// config, redacting a URL, the schema's and the docs' lists and the engine's senders all
/// start here.
public enum ChannelKinds {
  /// Every kind.
  public static let all: [any ChannelKind] = [
    AppriseKind(), DiscordKind(), ExecKind(), GotifyKind(), JSONKind(), MailtoKind(),
    MatrixKind(), NtfyKind(), PushoverKind(), SlackKind(), SMTPKind(), StdoutKind(),
    TelegramKind(),
  ]

  /// The kind called `kind`.
  public static func named(_ kind: Channel.Kind) -> (any ChannelKind)? {
    all.first { $0.kind == kind }
  }

  /// Every scheme a channel URL may start with.
  public static var schemes: [String] { all.flatMap(\.schemes) }

  /// `url` taken apart (`stdout` alone is `stdout://`).
  public static func parse(_ url: String) -> ChannelURL? {
    ChannelURL(url == "stdout" ? "stdout://" : url)
  }

  /// The kind that takes `url`, without judging the rest of it.
  public static func claimant(of url: String) -> (any ChannelKind)? {
    parse(url).flatMap { parsed in all.first { $0.claims(parsed) } }
  }

  /// The kind `url` is of, or why it is of none. `written` is the URL as the config wrote it,
  /// before `${NAME}` was replaced: a character that must be percent-encoded is looked for
  /// there, since a value from the environment (a password with a space) cannot be encoded by
  /// its writer and is taken apart by the kind as it is.
  public static func kind(for url: String, written: String? = nil) -> Result<
    any ChannelKind, ChannelFinding
  > {
    guard let parsed = parse(url) else {
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
    if parsed.scheme == "http" || parsed.scheme == "https" {
      return .failure(.error(webURLHint(parsed)))
    }
    if AppriseSchemes.known.contains(parsed.scheme) {
      return .failure(
        .error(
          "'\(parsed.scheme)://' is not built into clarissa; Apprise knows it: write "
            + "'apprise://\(parsed.scheme)://...' (needs the apprise command, pip install apprise)"
        ))
    }
    let hint = Suggestions.hint(for: parsed.scheme, in: schemes)
    return .failure(
      .error(
        "unknown channel type '\(parsed.scheme)'\(hint) (supported: "
          + "\(schemes.joined(separator: ", ")))"))
  }

  /// What is wrong with `url`, a URL `kind` claims: the kind's own checks, then its query
  /// parameters (a misspelt one is a warning rather than silently ignored).
  public static func findings(for url: String, kind: any ChannelKind) -> [ChannelFinding] {
    guard let parsed = parse(url) else { return [] }
    return kind.check(parsed) + parameterFindings(parsed, kind: kind)
  }

  private static func parameterFindings(
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

  /// Plain web URLs are the Slack's and Discord's own webhook addresses (their kinds claim
  /// those); any other says which scheme to write.
  private static func webURLHint(_ url: ChannelURL) -> String {
    let host = url.hostName
    let path = url.segments.isEmpty ? "" : "/" + url.segments.joined(separator: "/")
    let port = url.port.map { ":\($0)" } ?? ""
    // ntfy's own server, or one named for it, is a topic URL: `https://ntfy.sh/topic`.
    if host == "ntfy.sh" || host.split(separator: ".").contains(where: { $0.hasPrefix("ntfy") }) {
      let ntfy = url.scheme == "https" ? "ntfys" : "ntfy"
      return "a plain web URL does not say how to post; for this ntfy topic write "
        + "'\(ntfy)://\(host)\(port)\(path)'"
    }
    let secure = url.scheme == "https" ? "jsons" : "json"
    return "a plain web URL does not say how to post; for a JSON webhook write "
      + "'\(secure)://\(host)\(path)'"
  }

  /// Whether `text` is a mail address (`me@example.com`).
  public static func isMailAddress(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
      !parts[1].hasPrefix("."), !parts[1].hasSuffix(".")
    else { return false }
    return !text.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
  }
}
