internal import Foundation

/// A channel URL taken apart without judging it as a web address: Apprise's URLs put tokens
/// where a host or port would be (`tgram://123456:ABC-def/987654` has no numeric port), so the
/// parts are cut at their delimiters and kept as written (still percent-encoded).
public struct ChannelURL: Sendable, Equatable {
  /// The scheme, lowercased (`tgram`, `exec`).
  public var scheme: String
  /// What follows the scheme: `://` or `:` (as in `exec:` and `mailto:`).
  public var separator: String
  /// The user part before the last `@` of the authority, as written (`user:password`).
  public var userinfo: String?
  /// The authority after the user part: a host with its port, or a token in Apprise's forms.
  public var host: String
  /// The path's segments, as written, without the slashes.
  public var segments: [String]
  /// Whether the path ends with `/`.
  public var trailingSlash: Bool
  /// The query's `name=value` pairs, as written (`value` nil when there is no `=`).
  public var query: [(name: String, value: String?)]
  /// The fragment after `#`, as written.
  public var fragment: String?
  /// Everything after the scheme and before the query when no `//` follows
  /// (`exec:/bin/notify --loud`), or when a URL follows (`apprise://tgram://...`).
  public var opaque: String?

  /// Takes `text` apart; nil when it has no scheme.
  public init?(_ text: String) {
    guard let colon = text.firstIndex(of: ":") else { return nil }
    let scheme = text[..<colon]
    guard let first = scheme.first, first.isLetter,
      scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
    else { return nil }
    self.scheme = scheme.lowercased()
    var rest = text[text.index(after: colon)...]
    separator = rest.hasPrefix("//") ? "://" : ":"
    if separator == "://" { rest = rest.dropFirst(2) }
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
    }
    query = []
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...].split(separator: "&").map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
      }
      rest = rest[..<mark]
    }
    // `apprise://tgram://...`: a URL inside a URL is kept whole.
    guard separator == "://", !rest.contains("://") else {
      opaque = String(rest)
      host = ""
      segments = []
      trailingSlash = false
      return
    }
    var authority = Substring("")
    do {
      let end = rest.firstIndex(of: "/") ?? rest.endIndex
      authority = rest[..<end]
      rest = rest[end...]
    }
    if let at = authority.lastIndex(of: "@") {
      userinfo = String(authority[..<at])
      authority = authority[authority.index(after: at)...]
    }
    host = String(authority)
    trailingSlash = rest.hasSuffix("/")
    segments = rest.split(separator: "/").map(String.init)
  }

  /// A channel URL as a config writes it taken apart (`stdout` alone is `stdout://`).
  public static func parse(_ url: String) -> ChannelURL? {
    ChannelURL(url == "stdout" ? "stdout://" : url)
  }

  /// The user name (before `:` in the user part), percent-decoded.
  public var user: String? {
    userinfo.map { String($0.split(separator: ":", maxSplits: 1).first ?? "") }.map(Self.decoded)
  }

  /// The password (after `:` in the user part), percent-decoded.
  public var password: String? {
    guard let userinfo, let colon = userinfo.firstIndex(of: ":") else { return nil }
    return Self.decoded(String(userinfo[userinfo.index(after: colon)...]))
  }

  /// The host without its port (a bracketed IPv6 address keeps its brackets).
  public var hostName: String {
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      return String(host[...close])
    }
    return String(host.split(separator: ":", maxSplits: 1).first ?? "")
  }

  /// The port after the host, when it is a number.
  public var port: Int? {
    let tail = host.hasPrefix("[") ? host.split(separator: "]").last ?? "" : Substring(host)
    guard let colon = tail.lastIndex(of: ":") else { return nil }
    return Int(tail[tail.index(after: colon)...])
  }

  /// The decoded value of the first query parameter called `name`; `+` is a space.
  public func value(_ name: String) -> String? {
    guard let pair = query.first(where: { $0.name == name }) else { return nil }
    return Self.decoded((pair.value ?? "").replacingOccurrences(of: "+", with: " "))
  }

  /// `text` with its percent escapes decoded (kept as written when they are not valid UTF-8).
  public static func decoded(_ text: String) -> String {
    text.removingPercentEncoding ?? text
  }

  /// The URL put back together.
  public var text: String {
    var out = scheme + separator
    if let opaque { out += opaque }
    if let userinfo { out += userinfo + "@" }
    out += host
    if !segments.isEmpty { out += "/" + segments.joined(separator: "/") }
    if trailingSlash { out += "/" }
    if !query.isEmpty {
      out += "?" + query.map { $0.name + ($0.value.map { "=" + $0 } ?? "") }.joined(separator: "&")
    }
    if let fragment { out += "#" + fragment }
    return out
  }

  public static func == (lhs: ChannelURL, rhs: ChannelURL) -> Bool { lhs.text == rhs.text }
}
