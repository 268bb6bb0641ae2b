extension Channel.Kind {
  /// An ntfy topic.
  public static let ntfy = Channel.Kind(rawValue: "ntfy")
}

/// `ntfy://host/topic` (`ntfys://` for HTTPS; `ntfy://topic` is a topic on ntfy.sh): one POST
/// per message. `tk_token@` is an access token, `user:password@` a login.
public struct NtfyKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.ntfy
  public let schemes = ["ntfy", "ntfys"]
  public let summary = "`ntfy://host/topic`, `ntfys://` for HTTPS: an ntfy topic"
  public let example = "ntfys://ntfy.sh/my-topic"
  public let parameters = [
    ChannelParameter("priority", "1-5 or min, low, default, high, max, urgent"),
    ChannelParameter("tags", "comma-separated tags (emoji short codes)"),
    ChannelParameter("click", "the link opened on a tap (default: the listing's)"),
    ChannelParameter("buttons", "no: no Viewed, Hide and Star buttons (they come with serve.url)"),
  ]
  public let takesHeaders = true
  public let secrets: [ChannelSecret] = [.userinfo, .headers]

  public static let priorities = [
    "1", "2", "3", "4", "5", "min", "low", "default", "high", "max", "urgent",
  ]

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    // `ntfy://topic` means the topic on ntfy.sh, as in Apprise.
    let topic = ChannelURL.decoded(url.segments.last ?? url.host)
    guard !topic.isEmpty, url.segments.count <= 1 else {
      return [.error("an ntfy URL names one topic: 'ntfy://host/topic' or 'ntfy://topic'")]
    }
    guard topic.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
    else { return [.error("ntfy topic '\(topic)' may hold only letters, digits, '-' and '_'")] }
    if let priority = url.value("priority"), !Self.priorities.contains(priority) {
      return [
        .error(
          "ntfy priority '\(priority)' is not one of \(Self.priorities.joined(separator: ", "))")
      ]
    }
    // ntfy's access tokens start with `tk_`; a bare user name is more likely a login missing
    // its password, which would be sent as a bearer token and refused.
    if let user = url.user, url.password == nil, !user.hasPrefix("tk_") {
      return [
        .warning(
          "'\(user)@' is sent as an ntfy access token, and those start with 'tk_'; for a login "
            + "write 'user:password@'")
      ]
    }
    return []
  }

  public let examples: [ChannelExample] = [
    .valid(
      "ntfys://tk_abc@ntfy.sh/deals?priority=high&+X-Trace=t1",
      redacted: "ntfys://***@ntfy.sh/deals?priority=high&+X-Trace=***"),
    .valid("ntfy://deals", redacted: "ntfy://deals"),
    .invalid("ntfy://ntfy.sh/a/b", message: "an ntfy URL names one topic"),
    .invalid("ntfy://ntfy.sh/deals?priority=loud", message: "ntfy priority 'loud' is not one of"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "ntfy://tk_\(secret)@\(host)/deals?+X-Token=\(secret)"
  }
}
