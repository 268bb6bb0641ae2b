/// The one place channel URLs are made fit to print: every part the channel's kind declares
/// secret (``ChannelKind/secrets``) becomes `***`. `validate`, `notify test`, the reports, the
/// web page and the logs print channels through it, and a refusal's message is scrubbed of the
/// same secrets (a server or a library may echo the URL it was given). It is handed the kind's
/// declaration; module `Channels` looks a channel's kind up in its registry (`redactedURL`,
/// `scrub`).
public enum ChannelRedactor {
  /// What stands for a hidden part.
  public static let mask = "***"

  /// `url`, a channel URL of the kind `declared`, with its secret parts hidden. A URL of no
  /// known kind (nil) shows its scheme only.
  public static func redact(_ url: String, declared: (any ChannelKind)?) -> String {
    guard let declared, let parsed = ChannelURL.parse(url) else {
      return (url.split(separator: ":").first.map { $0 + ":" } ?? "") + mask
    }
    if declared.secrets.isEmpty { return url }
    return hide(parsed, declared.secrets).url.text
  }

  /// The secret values in `url`, a channel URL of the kind `declared` (as written and
  /// decoded), longest first; a URL of no known kind (nil) is a secret whole.
  public static func secrets(in url: String, declared: (any ChannelKind)?) -> [String] {
    guard let declared, let parsed = ChannelURL.parse(url) else { return [url] }
    let hidden = hide(parsed, declared.secrets).hidden
    let values = Set(hidden.flatMap { [$0, ChannelURL.decoded($0)] }).filter { $0.count >= 3 }
    return values.sorted { $0.count > $1.count }
  }

  /// `url` with the `secrets` parts masked, and the values that were masked.
  static func hide(_ url: ChannelURL, _ secrets: [ChannelSecret]) -> (
    url: ChannelURL, hidden: [String]
  ) {
    var url = url
    var hidden: [String] = []
    for secret in secrets {
      switch secret {
      case .userinfo:
        if let userinfo = url.userinfo, userinfo != mask {
          hidden.append(userinfo)
          hidden += userinfo.split(separator: ":").map(String.init)
          url.userinfo = mask
        }
      case .password:
        if let userinfo = url.userinfo, let colon = userinfo.firstIndex(of: ":") {
          hidden.append(String(userinfo[userinfo.index(after: colon)...]))
          url.userinfo = userinfo[..<colon] + ":" + mask
        }
      case .host:
        if !url.host.isEmpty, !isHostName(url.hostName) {
          hidden.append(url.host)
          url.host = mask
        }
      case .path(let from):
        if url.segments.count > from {
          hidden += url.segments[from...]
          url.segments = Array(url.segments.prefix(from)) + [mask]
          url.trailingSlash = false
        }
      case .query(let names):
        url.query = url.query.map { pair in
          guard names.contains(pair.name), let value = pair.value else { return pair }
          hidden.append(value)
          return (pair.name, mask)
        }
      case .headers:
        url.query = url.query.map { pair in
          let isHeader = pair.name.hasPrefix("+") || pair.name.lowercased().hasPrefix("%2b")
          guard isHeader, let value = pair.value else { return pair }
          hidden.append(value)
          return (pair.name, mask)
        }
      case .arguments:
        if let opaque = url.opaque, let space = opaque.firstIndex(of: " ") {
          hidden += opaque[space...].split(separator: " ").map(String.init)
          url.opaque = opaque[..<space] + " " + mask
        }
      case .nested:
        guard let opaque = url.opaque, var inner = ChannelURL(opaque) else { continue }
        inner.query = url.query
        let (masked, values) = hide(
          inner, [.userinfo, .host, .path(from: 0), .query(inner.query.map(\.name))])
        hidden += values
        url.query = masked.query
        var bare = masked
        bare.query = []
        url.opaque = bare.text
      }
    }
    return (url, hidden)
  }

  /// Whether `name` is a host name or address rather than a token: it has a dot, is
  /// `localhost` or a bracketed IPv6 address.
  static func isHostName(_ name: String) -> Bool {
    name.contains(".") || name == "localhost" || name.hasPrefix("[")
  }
}
