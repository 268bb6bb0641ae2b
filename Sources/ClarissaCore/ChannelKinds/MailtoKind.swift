extension Channel.Kind {
  /// Mail through the local sendmail.
  public static let mailto = Channel.Kind(rawValue: "mailto")
}

/// `mailto://me@example.com[,you@example.com]`: mail through the local `sendmail -t`.
public struct MailtoKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.mailto
  public let schemes = ["mailto"]
  public let summary = "`mailto://me@example.com`: mail through the local sendmail"
  public let example = "mailto://me@example.com"
  public let warnsOnUnknownParameters = false
  public let secrets: [ChannelSecret] = [.userinfo]

  /// The recipients of a `mailto:` URL, as written.
  public static func recipients(_ url: ChannelURL) -> [String] {
    let address =
      url.opaque.map { $0.hasPrefix("//") ? String($0.dropFirst(2)) : $0 }
      ?? ((url.userinfo.map { $0 + "@" } ?? "") + url.host)
    return address.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    let recipients = Self.recipients(url)
    guard !recipients.isEmpty else {
      return [.error("'mailto:' needs an address, as in 'mailto://me@example.com'")]
    }
    for recipient in recipients where !ChannelKinds.isMailAddress(recipient) {
      return [.error("'\(recipient)' is not a mail address")]
    }
    return []
  }

  public func program(_ url: ChannelURL) -> String? { "sendmail" }

  public let examples: [ChannelExample] = [
    .valid("mailto://me@example.com", redacted: "mailto://***@example.com"),
    .invalid("mailto://not-an-address", message: "'not-an-address' is not a mail address"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "mailto://\(secret)@example.com"
  }
}
