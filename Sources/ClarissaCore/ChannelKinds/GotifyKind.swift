extension Channel.Kind {
  /// A Gotify server.
  public static let gotify = Channel.Kind(rawValue: "gotify")
}

/// `gotify://HOST[:PORT][/PATH]/APP_TOKEN`, `gotifys://` for HTTPS, Apprise's syntax: Gotify's
/// `POST /message`.
public struct GotifyKind: ChannelKind {
  /// The kind's declaration.
  public init() {}

  public let kind = Channel.Kind.gotify
  public let schemes = ["gotify", "gotifys"]
  public let summary = "`gotify://host/APP_TOKEN`, `gotifys://` for HTTPS: a Gotify server"
  public let example = "gotifys://gotify.example.com/AbCdEf123456789"
  public let parameters = [
    ChannelParameter("priority", "0-10, or low, moderate, normal, high, emergency"),
    ChannelParameter("format", "Apprise's; clarissa always sends Markdown"),
  ]
  public let secrets: [ChannelSecret] = [.userinfo, .path(from: 0)]

  public static let priorities = ["low": 1, "moderate": 3, "normal": 5, "high": 8, "emergency": 10]

  /// The priority `priority=` names (default 5, Gotify's "normal").
  public static func priority(_ url: ChannelURL) -> Int? {
    guard let text = url.value("priority") else { return 5 }
    if let number = Int(text), (0...10).contains(number) { return number }
    return priorities[text]
  }

  public func check(_ url: ChannelURL) -> [ChannelFinding] {
    guard !url.hostName.isEmpty, let token = url.segments.last, !token.isEmpty else {
      return [.error("a gotify URL is 'gotify://host/APP_TOKEN', as in '\(example)'")]
    }
    guard Self.priority(url) != nil else {
      return [
        .error(
          "gotify priority '\(url.value("priority") ?? "")' is not 0-10 or one of low, "
            + "moderate, normal, high, emergency", at: "priority=")
      ]
    }
    return []
  }

  public let examples: [ChannelExample] = [
    .valid("gotifys://push.example.com/AbCdEf123", redacted: "gotifys://push.example.com/***"),
    .valid(
      "gotify://10.0.0.2:8080/gotify/AbCdEf123?priority=8",
      redacted: "gotify://10.0.0.2:8080/***?priority=8"),
    .invalid("gotify://push.example.com", message: "a gotify URL is 'gotify://host/APP_TOKEN'"),
    .invalid("gotify://push.example.com/tok?priority=loud", message: "gotify priority 'loud'"),
  ]

  public func sample(secret: String, host: String) -> String? {
    "gotify://\(host)/\(secret)"
  }
}
